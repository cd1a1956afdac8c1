"""The beat row of the webhooks' sweep (django-celery-beat), made after every migrate, never overwritten."""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

from .services.queue import SWEEP_TASK

SWEEP_PLAN = "Webhooks: send again the deliveries a lost task left pending"
SWEEP_EVERY_SECONDS = 60


def ensure_sweep_plan(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """Every minute; a run older than that is dropped, as the next does the same work."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    if PeriodicTask._meta.db_table not in connections[using].introspection.table_names():
        return
    if PeriodicTask.objects.using(using).filter(name=SWEEP_PLAN).exists():
        return
    interval, _created = IntervalSchedule.objects.using(using).get_or_create(
        every=SWEEP_EVERY_SECONDS, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.using(using).create(
        name=SWEEP_PLAN, task=SWEEP_TASK, interval=interval, expire_seconds=SWEEP_EVERY_SECONDS
    )
