"""Site-wide housekeeping tasks run by Celery beat."""

from datetime import timedelta
from importlib import import_module
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django_celery_beat.models import (
    ClockedSchedule,
    CrontabSchedule,
    IntervalSchedule,
    PeriodicTask,
    SolarSchedule,
)

from config.backups import back_up

# One-off plans that already ran are kept this long, so an organiser can still see what fired.
FINISHED_ONE_OFF_KEPT = timedelta(days=7)


@shared_task(name="config.tasks.cleanup")
def cleanup() -> dict[str, int]:
    """Nightly clean-up: expired sessions and the periodic-task rows nobody will run again.

    Idempotent: running it twice deletes nothing the second time. Returns what it deleted,
    so the result (and the worker's log) says what happened.
    """
    return {
        "sessions": _clear_expired_sessions(),
        "periodic_tasks": _delete_spent_periodic_tasks(),
        "schedules": _delete_unused_schedules(),
    }


@shared_task(name="config.tasks.backup_database")
def backup_database() -> dict[str, Any]:
    """The nightly dump of the database into BACKUP_DIR, the newest BACKUP_KEEP kept (config/backups.py).

    Each run makes a dump of its own, so a run delivered twice (acks_late: a worker killed in the
    middle) costs a second dump, never a broken one: an unfinished dump keeps its .partial name.
    A failure raises, so the worker's log and the task's result say so.
    """
    return back_up(
        settings.DATABASES["default"], settings.BACKUP_DIR, keep=settings.BACKUP_KEEP
    ).as_dict()


def _clear_expired_sessions() -> int:
    engine = import_module(settings.SESSION_ENGINE)
    store = engine.SessionStore
    count = 0
    if hasattr(store, "get_model_class"):  # database-backed stores can say how many go
        count = store.get_model_class().objects.filter(expire_date__lt=timezone.now()).count()
    store.clear_expired()
    return count


def _delete_spent_periodic_tasks() -> int:
    """One-off plans that have run and plans past their expiry, once they are a week old.

    Beat disables a one-off plan after running it (and django-celery-beat then clears its
    last_run_at), so the time it was disabled is its date_changed.
    """
    cutoff = timezone.now() - FINISHED_ONE_OFF_KEPT
    spent = Q(one_off=True, enabled=False, date_changed__lt=cutoff) | Q(expires__lt=cutoff)
    deleted, _ = PeriodicTask.objects.filter(spent).delete()
    return deleted


def _delete_unused_schedules() -> int:
    """Schedules no periodic task points at any more (left behind when plans are deleted)."""
    deleted = 0
    for model in (IntervalSchedule, CrontabSchedule, SolarSchedule, ClockedSchedule):
        count, _ = model.objects.filter(periodictask__isnull=True).delete()
        deleted += count
    return deleted
