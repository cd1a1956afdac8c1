"""The webhooks' rows: what happened in a tournament, who wants to hear it, each attempt to tell him.

One ``TournamentEvent`` row per change, read alike by the deliveries and the event stream; its
increasing id is the stream's ``id:``. One ``Webhook`` per address a club registered, and one
``Delivery`` per (hook, event): the row says where the delivery stands, so a worker killed midway
loses nothing (the sweep queues it again).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.models import Tournament


class EventType(models.TextChoices):
    ROUND_PAIRED = "round.paired", _("a round is paired or its pairings change")
    RESULT_ENTERED = "result.entered", _("a result is entered")
    RESULT_CONFIRMED = "result.confirmed", _("a result is confirmed")
    RESULT_CORRECTED = "result.corrected", _("a result is corrected")
    STANDINGS_CHANGED = "standings.changed", _("the standings change")
    TOURNAMENT_FINISHED = "tournament.finished", _("the tournament is finished")


class TournamentEvent(models.Model):
    """Something a visitor of the tournament's pages could see change, as integrators are told it."""

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    type = models.CharField(_("kind of event"), max_length=32, choices=EventType.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(_("when"), default=timezone.now)
    data = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")
        indexes = [
            models.Index(fields=["tournament", "id"], name="webhooks_event_tournament_id"),
            models.Index(fields=["created"], name="webhooks_event_created"),
        ]

    def __str__(self) -> str:
        return f"{self.pk} {self.type}"

    def payload(self, slug: str) -> dict:
        """The event as it is sent: the same shape in a webhook's body and on the stream."""
        return {
            "id": str(self.uid),
            "type": self.type,
            "created": self.created.isoformat(),
            "tournament": slug,
            "data": self.data,
        }


class Webhook(models.Model):
    """An https address of a club's that is told its tournaments' events.

    The secret signs every delivery, so the server must be able to read it: it is kept as it was
    made (as Stripe and GitHub keep theirs), shown to the organiser once, never again."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(_("address"), max_length=500)
    secret = models.CharField(max_length=80, editable=False)
    events = models.JSONField(_("events"), default=list)
    """The event types it is sent (``EventType`` values)."""
    active = models.BooleanField(_("turned on"), default=True)
    failures = models.PositiveIntegerField(default=0)
    """Failed attempts in a row; at ``WEBHOOKS_DISABLE_AFTER`` the hook is turned off."""
    disabled_for_failures = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.url

    def wants(self, event_type: str) -> bool:
        return event_type in self.events


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    DELIVERED = "delivered", _("delivered")
    FAILED = "failed", _("failed")


class Delivery(models.Model):
    """One event told to one hook: sent until the receiver answers 2xx, or the attempts run out."""

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(TournamentEvent, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    """When it is due (pending), or how long the attempt under way may take before the sweep
    takes it for lost."""
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=32, blank=True)
    """Why the last attempt failed, as a code worded when the log is read (``selectors.ERRORS``)."""

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [models.UniqueConstraint(fields=["hook", "event"], name="webhooks_one_delivery")]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhooks_delivery_due")]

    def __str__(self) -> str:
        return f"{self.hook_id}/{self.event_id} {self.status}"
