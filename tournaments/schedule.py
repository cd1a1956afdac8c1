"""The auto-confirm sweep as a django-celery-beat row (created after every migrate, never overwritten)."""

from django.db import DEFAULT_DB_ALIAS, connections

AUTO_CONFIRM_PLAN = "Tournaments: auto-confirm results"
AUTO_CONFIRM_EVERY_MINUTES = 5


def ensure_auto_confirm_plan(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    from .tasks import AUTO_CONFIRM_TASK

    if PeriodicTask._meta.db_table not in connections[using].introspection.table_names():
        return
    if PeriodicTask.objects.using(using).filter(name=AUTO_CONFIRM_PLAN).exists():
        return
    every, _ = IntervalSchedule.objects.using(using).get_or_create(
        every=AUTO_CONFIRM_EVERY_MINUTES, period=IntervalSchedule.MINUTES
    )
    PeriodicTask.objects.using(using).create(name=AUTO_CONFIRM_PLAN, task=AUTO_CONFIRM_TASK, interval=every)
