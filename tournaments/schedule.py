"""The beat rows of tournaments (django-celery-beat): the auto-confirm sweep and the day's tick.

Created after every migrate and never overwritten, so an operator's change to a row stays.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

AUTO_CONFIRM_TASK = "tournaments.tasks.auto_confirm_results"
AUTO_CONFIRM_PLAN = "Tournaments: auto-confirm results"
AUTO_CONFIRM_EVERY_MINUTES = 5

DAY_TICK_TASK = "tournaments.day_tasks.day_tick"
DAY_TICK_PLAN = "Tournaments: day plans"
DAY_TICK_EVERY_SECONDS = 30


def _ensure_row(using: str, *, name: str, task: str, every: int, period: str) -> None:
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    if PeriodicTask._meta.db_table not in connections[using].introspection.table_names():
        return
    if PeriodicTask.objects.using(using).filter(name=name).exists():
        return
    interval, _created = IntervalSchedule.objects.using(using).get_or_create(every=every, period=period)
    PeriodicTask.objects.using(using).create(name=name, task=task, interval=interval)


def ensure_auto_confirm_plan(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """The beat row of the auto-confirm sweep, every five minutes."""
    _ensure_row(
        using,
        name=AUTO_CONFIRM_PLAN,
        task=AUTO_CONFIRM_TASK,
        every=AUTO_CONFIRM_EVERY_MINUTES,
        period="minutes",
    )


def ensure_day_plan(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """The beat row that runs the day's plans (``services.runner.run_due``) every 30 s."""
    _ensure_row(using, name=DAY_TICK_PLAN, task=DAY_TICK_TASK, every=DAY_TICK_EVERY_SECONDS, period="seconds")
