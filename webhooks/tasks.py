"""Celery tasks of the webhooks: one attempt of a delivery, and the sweep that finds lost ones (beat).

Each takes ids, finds its row's state in the database, and may run twice: a delivery not due,
already delivered or being sent by another worker is left alone.
"""

from __future__ import annotations

from celery import shared_task

from . import services
from .services.queue import DELIVER_TASK, SWEEP_TASK


@shared_task(name=DELIVER_TASK, ignore_result=True)
def deliver(delivery_id: int) -> str | None:
    """One attempt of a delivery; a failure queues the next one itself, after its wait."""
    return services.attempt(delivery_id)


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> int:
    return len(services.sweep())
