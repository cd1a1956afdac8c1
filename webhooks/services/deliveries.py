"""Delivery attempts: claim a due delivery, send it outside any transaction, settle what came back.

A delivery row always says where it stands. Claiming counts the attempt and pushes the row's due
time past the longest an attempt may take, so a worker killed midway leaves a pending row that
the sweep (``sweep``, a beat task) queues again once that time is over; a second run of the same
task finds nothing due and does nothing. Failures wait 30 s, 2 min, 10 min, 1 h and 6 h between
attempts, six in all; a hook that fails ``WEBHOOKS_DISABLE_AFTER`` attempts in a row is turned off.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import sending
from ..models import Delivery, DeliveryStatus, TournamentEvent, Webhook
from .queue import send_now

BACKOFF_SECONDS = (30, 120, 600, 3600, 6 * 3600)
MAX_ATTEMPTS = len(BACKOFF_SECONDS) + 1
#: How long an attempt under way may take before the sweep takes it for lost.
LEASE = timedelta(seconds=sending.TIMEOUT_SECONDS * 3 + 30)
#: A pending delivery this late past its due time was lost by its queue: the sweep sends it again.
OVERDUE = timedelta(seconds=60)
SWEEP_BATCH = 500


def disable_after() -> int:
    return int(getattr(settings, "WEBHOOKS_DISABLE_AFTER", 20))


def _claim(delivery_id: int) -> Delivery | None:
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("hook", "event__tournament")
            .filter(pk=delivery_id, status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
            .first()
        )
        if delivery is None:
            return None  # delivered, failed, not due yet, or another worker has it now
        if not delivery.hook.active:
            delivery.status, delivery.error = DeliveryStatus.FAILED, "hook_off"
            delivery.save(update_fields=["status", "error"])
            return None
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.next_attempt_at = now + LEASE
        delivery.save(update_fields=["attempts", "last_attempt_at", "next_attempt_at"])
        return delivery


def body_of(event: TournamentEvent) -> bytes:
    return json.dumps(event.payload(event.tournament.slug), separators=(",", ":")).encode()


def attempt(delivery_id: int) -> str | None:
    """One attempt of a due delivery; its status after it (None: nothing was due)."""
    delivery = _claim(delivery_id)
    if delivery is None:
        return None
    outcome = sending.post(
        url=delivery.hook.url,
        secret=delivery.hook.secret,
        event_type=delivery.event.type,
        delivery=str(delivery.uid),
        body=body_of(delivery.event),
    )
    return _settle(delivery.pk, outcome)


@transaction.atomic
def _settle(delivery_id: int, outcome: sending.Outcome) -> str | None:
    delivery = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
    hook = Webhook.objects.select_for_update().filter(pk=delivery.hook_id).first() if delivery else None
    if delivery is None or hook is None:
        return None  # the hook was deleted while the attempt was under way
    delivery.status_code, delivery.error = outcome.status_code, outcome.error or (
        "" if outcome.delivered else "status")
    if outcome.delivered:
        delivery.status = DeliveryStatus.DELIVERED
        hook.failures = 0
    else:
        hook.failures += 1
        if hook.active and hook.failures >= disable_after():
            hook.active, hook.disabled_for_failures = False, True
        if delivery.attempts >= MAX_ATTEMPTS or not hook.active:
            delivery.status = DeliveryStatus.FAILED
        else:
            wait = BACKOFF_SECONDS[delivery.attempts - 1]
            delivery.next_attempt_at = timezone.now() + timedelta(seconds=wait)
            transaction.on_commit(lambda: send_now(delivery_id, countdown=wait), robust=True)
    delivery.save(update_fields=["status", "status_code", "error", "next_attempt_at"])
    hook.save(update_fields=["failures", "active", "disabled_for_failures"])
    return delivery.status


def sweep() -> list[int]:
    """Queue again the pending deliveries whose attempt is overdue (their task was lost with a
    worker or a broker), and forget events older than ``WEBHOOKS_KEEP_DAYS``."""
    now = timezone.now()
    due = list(
        Delivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lt=now - OVERDUE)
        .order_by("next_attempt_at").values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    for delivery_id in due:
        send_now(delivery_id)
    keep = timedelta(days=int(getattr(settings, "WEBHOOKS_KEEP_DAYS", 30)))
    TournamentEvent.objects.filter(created__lt=now - keep).delete()
    return due
