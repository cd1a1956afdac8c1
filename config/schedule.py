"""The site's own periodic plans, kept as django-celery-beat rows (created after every migrate)."""

from collections.abc import Callable

from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.signals import post_migrate

CLEANUP_TASK_NAME = "Nightly clean-up"
CLEANUP_TASK = "config.tasks.cleanup"
CLEANUP_AT = (3, 30)  # site time (TIME_ZONE)
REFIT_TASK_NAME = "Nightly refit of the rating model"
REFIT_TASK = "ratings.refit_model"
REFIT_AT = (4, 0)
BACKUP_TASK_NAME = "Nightly database backup"
BACKUP_TASK = "config.tasks.backup_database"
BACKUP_AT = (2, 30)  # site time: before the clean-up, in the quietest hour of the site's players
DEAD_SERVERS_TASK_NAME = "Live tables: drop sockets of dead server processes"
DEAD_SERVERS_TASK = "gameplay.tasks.reap_dead_servers_task"
DEAD_SERVERS_EVERY_SECONDS = 15
LOST_TASKS_TASK_NAME = "Live tables: queue again the tasks a killed process lost"
LOST_TASKS_TASK = "gameplay.tasks.requeue_lost_tasks_task"
LOST_TASKS_EVERY_SECONDS = 30


def keep_plans_after_migrate(receiver: Callable[..., None], *, dispatch_uid: str) -> None:
    """Run ``receiver`` (which creates periodic plans that are missing) after every migrate.

    Call it from an app's ``ready``. post_migrate is sent per app that has models; the plans
    live in django_celery_beat's tables, so listen for its signal, which comes after every
    migration (and every test flush) has run.
    """
    beat = apps.get_app_config("django_celery_beat")
    post_migrate.connect(receiver, sender=beat, dispatch_uid=dispatch_uid)


def ensure_periodic_tasks(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """Create the nightly database backup (02:30 site time), the nightly clean-up (03:30), the
    rating model's refit (04:00), the
    dead-server reaper (every 15 s) and the lost-task sweep of the live tables (every 30 s) if
    they are missing.

    A `post_migrate` receiver rather than a data migration: it also runs after the test
    runner flushes the tables, and it never overwrites what an admin changed (a disabled plan
    stays disabled, a moved time stays moved).
    """
    from django_celery_beat.models import PeriodicTask

    if PeriodicTask._meta.db_table not in connections[using].introspection.table_names():
        return  # django_celery_beat not migrated yet (e.g. `migrate clubs` alone)
    # the sockets of server processes whose heartbeat is gone (gameplay.tables.presence)
    _ensure_every(using, DEAD_SERVERS_TASK_NAME, DEAD_SERVERS_TASK, DEAD_SERVERS_EVERY_SECONDS)
    # the clock and bot tasks a killed process never sent (gameplay.services.clocks)
    _ensure_every(using, LOST_TASKS_TASK_NAME, LOST_TASKS_TASK, LOST_TASKS_EVERY_SECONDS)
    # the dump is written on the machine of the worker that takes it: BACKUP_QUEUE names its queue
    _ensure_daily(using, BACKUP_TASK_NAME, BACKUP_TASK, BACKUP_AT, queue=settings.BACKUP_QUEUE)
    _ensure_daily(using, CLEANUP_TASK_NAME, CLEANUP_TASK, CLEANUP_AT)
    # the rating model's parameters from the archive, then every rating with them (ratings.services.fitting)
    _ensure_daily(using, REFIT_TASK_NAME, REFIT_TASK, REFIT_AT)


def _ensure_daily(using: str, name: str, task: str, at: tuple[int, int], *, queue: str | None = None) -> None:
    """A plan running `task` every day at `at` (hour, minute) site time, unless one of that name
    exists (an admin's changes stay)."""
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    if PeriodicTask.objects.using(using).filter(name=name).exists():
        return
    hour, minute = at
    crontab_fields = {
        "minute": str(minute),
        "hour": str(hour),
        "day_of_week": "*",
        "day_of_month": "*",
        "month_of_year": "*",
        "timezone": settings.TIME_ZONE,
    }
    crontab = CrontabSchedule.objects.using(using).filter(**crontab_fields).first()
    if crontab is None:
        crontab = CrontabSchedule.objects.using(using).create(**crontab_fields)
    PeriodicTask.objects.using(using).create(name=name, task=task, crontab=crontab, queue=queue or None)


def _ensure_every(using: str, name: str, task: str, seconds: int) -> None:
    """A plan running `task` every `seconds`, unless one of that name exists (an admin's changes
    stay). A run older than the interval is dropped (`expire_seconds`): the next one does the same
    work, so runs never pile up behind a worker that was away."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    if PeriodicTask.objects.using(using).filter(name=name).exists():
        return
    interval, _ = IntervalSchedule.objects.using(using).get_or_create(
        every=seconds, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.using(using).create(
        name=name, task=task, interval=interval, expire_seconds=seconds,
    )
