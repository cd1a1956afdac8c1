"""A pair's (in an individual event, a player's) ask to sit out a round not yet paired: a requested bye.

The ask waits for its round: when that round is paired the entry is left out and its bye is
written as a result of the round (``Match.requested_bye`` or ``Seat.requested_bye``), scored as the
ask says. An ask withdrawn before then stays as a row with ``withdrawn_at`` (what happened is kept).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .entries import Entry, IndividualEntry
from .event import ByeKind, Tournament


class ByeRequest(models.Model):
    """One entry's ask to sit out round ``round_number``, scored ``kind`` (the event's setting when
    asked). ``entry`` names a fixed pair, ``individual_entry`` a player of an individual event."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="bye_requests_made")
    round_number = models.PositiveSmallIntegerField(_("round"))
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    individual_entry = models.ForeignKey(
        IndividualEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(_("scored"), max_length=4, choices=ByeKind.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("requested bye")
        verbose_name_plural = _("requested byes")
        ordering = ["round_number", "requested_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(entry__isnull=False) & Q(individual_entry__isnull=True))
                | (Q(entry__isnull=True) & Q(individual_entry__isnull=False)),
                name="bye_request_one_entry",
            ),
            models.UniqueConstraint(
                fields=["entry", "round_number"],
                condition=Q(withdrawn_at__isnull=True, entry__isnull=False),
                name="bye_request_once_per_pair_round",
            ),
            models.UniqueConstraint(
                fields=["individual_entry", "round_number"],
                condition=Q(withdrawn_at__isnull=True, individual_entry__isnull=False),
                name="bye_request_once_per_player_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} r{self.round_number}: {self.who} ({self.kind})"

    @property
    def who(self):
        """The pair or the player who asks to sit out."""
        return self.entry or self.individual_entry
