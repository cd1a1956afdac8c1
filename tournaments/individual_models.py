"""Individual events (issue 6): players who enter alone, and where each one sits every round.

A round's table of four is an ordinary ``Match`` between two partnerships, each stored as an
``Entry`` with ``seed=0`` (the pair of that table and round), so the whole result flow of pairs
tournaments (entry, confirmation by the other partnership or the PIN, disputes, corrections and
their log) works unchanged. What only individual events have lives here: the entry of one
player, and the seat each player takes in each round (N/S/E/W at a table, or a bye), with the
no-show mark that decides who is scored a forfeit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class IndividualEntry(models.Model):
    """One player in an individual event."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="individual_entries"
    )
    player = models.ForeignKey(
        "clubs.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(_("status"), max_length=12, default="approved")
    seed = models.PositiveIntegerField(_("seed"), default=0)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("individual entry")
        verbose_name_plural = _("individual entries")
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="individual_entry_once"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.player.display_name

    @property
    def active(self) -> bool:
        return self.status in ("approved", "checked_in")


class SeatName(models.TextChoices):
    NORTH = "N", _("North")
    SOUTH = "S", _("South")
    EAST = "E", _("East")
    WEST = "W", _("West")
    BYE = "bye", _("Bye")


class Seat(models.Model):
    """Where a player sits in a round: a seat at a table (its ``match``), or a bye."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(IndividualEntry, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(_("seat"), max_length=3, choices=SeatName.choices)
    table = models.PositiveSmallIntegerField(_("table"), default=0)
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    absent = models.BooleanField(_("no-show"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.table}{self.seat} · {self.entry_id}"
