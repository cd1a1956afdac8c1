"""Celery tasks of the tournament day: the beat tick, one plan due now, one finished live table.

Each takes ids (or a plan's key), tolerates work already done or rows gone, and may run twice.
"""

from __future__ import annotations

from celery import shared_task

from .schedule import DAY_TICK_TASK
from .services import online, runner


@shared_task(name=DAY_TICK_TASK)
def day_tick() -> list[str]:
    """Every 30 s (django-celery-beat): do every due plan of every tournament, once."""
    return runner.run_due()


@shared_task(name="tournaments.day_tasks.run_plan")
def run_plan(key: str) -> bool:
    """A plan written as due now (a round complete, a round paired): do it without waiting for the tick."""
    return runner.run_plan(key)


@shared_task(name="tournaments.day_tasks.record_table_result")
def record_table_result(table_id: int) -> str:
    """A live table of a tournament match finished: its result becomes the match's result."""
    return online.record_table_result(table_id=table_id)
