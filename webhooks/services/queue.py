"""Deliveries queued by task name once the transaction commits, so the services never import the tasks."""

from __future__ import annotations

from celery import current_app
from django.db import transaction

DELIVER_TASK = "webhooks.tasks.deliver"
SWEEP_TASK = "webhooks.tasks.sweep"


def send_now(delivery_id: int, *, countdown: int = 0) -> None:
    options = {"countdown": countdown} if countdown else {}
    current_app.signature(DELIVER_TASK, args=(delivery_id,)).apply_async(**options)


def on_commit_delivery(delivery_id: int, *, countdown: int = 0) -> None:
    """Queue one attempt of the delivery once the rows that call for it are committed (a rolled-back
    change sends nothing; a lost queueing is found by the sweep)."""
    transaction.on_commit(lambda: send_now(delivery_id, countdown=countdown), robust=True)
