"""The webhooks' reads: a club's hooks and their delivery log, and a tournament's events after an id."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from clubs.models import Club

from .models import Delivery, TournamentEvent, Webhook

LOG_LENGTH = 50
STREAM_BATCH = 100

#: The delivery log's words for why an attempt failed.
ERRORS = {
    "status": _("the receiver answered with an error"),
    "timeout": _("no answer within 10 seconds"),
    "connection": _("could not connect"),
    "tls": _("the secure connection failed (certificate?)"),
    "unknown_host": _("the host was not found"),
    "refused_address": _("the address leads to a private or local network"),
    "hook_off": _("the webhook was turned off"),
}


@dataclass(frozen=True)
class HookRow:
    hook: Webhook
    log: list[Delivery]


def hooks_of(*, club: Club) -> list[HookRow]:
    """The club's hooks, each with its last ``LOG_LENGTH`` deliveries, newest first."""
    rows = []
    for hook in Webhook.objects.filter(club=club).order_by("-created_at", "-id"):
        log = list(
            Delivery.objects.filter(hook=hook).select_related("event").order_by("-id")[:LOG_LENGTH]
        )
        for delivery in log:
            delivery.error_text = ERRORS.get(delivery.error, "") if delivery.error else ""
        rows.append(HookRow(hook=hook, log=log))
    return rows


def events_after(*, tournament_id: int, after: int, limit: int = STREAM_BATCH) -> list[TournamentEvent]:
    """The tournament's events with an id above ``after``, oldest first."""
    return list(
        TournamentEvent.objects.filter(tournament_id=tournament_id, pk__gt=after).order_by("id")[:limit]
    )


def last_event_id(*, tournament_id: int) -> int:
    last = TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("-id")
    return last.values_list("pk", flat=True).first() or 0
