"""The double-dummy analysis of an archived match: every card against best play, with all hands known.

Written only by `archive.services.analysis` (a Celery task on a queue of its own, after the
archive's "match changed" notice, or the backfill command); the replay and the player page read it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from archive.models.matches import ArchivedMatch, ArchivedSeat


class MatchAnalysis(models.Model):
    """The bilka-analysis/1 document of one archived match's record."""

    match = models.OneToOneField(ArchivedMatch, on_delete=models.CASCADE, related_name="analysis")
    #: The record's game it was worked out from (ArchivedMatch.record_hash): a replaced record
    #: is analysed again.
    record_hash = models.CharField(max_length=64)
    #: bilka-analysis/1, or None when the record could not be analysed (`error` says why).
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    #: Seconds the solver took for the whole match.
    seconds = models.FloatField(default=0)
    analysed_at = models.DateTimeField(auto_now=True)
    #: The record hash its puzzles were last looked for in (`archive.services.puzzles`): "" until
    #: they have been, so a match is searched once per record, however often it is analysed.
    puzzles_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")

    def __str__(self) -> str:
        return f"analysis of {self.match_id}"


class SeatAnalysis(models.Model):
    """One seat's play in an analysed match, for the player's totals."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="seats")
    archived_seat = models.OneToOneField(ArchivedSeat, on_delete=models.CASCADE, related_name="analysis")
    deals = models.PositiveSmallIntegerField(default=0)
    cards = models.PositiveSmallIntegerField(default=0)
    best_cards = models.PositiveSmallIntegerField(default=0)
    points_lost = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.archived_seat}: {self.points_lost} lost over {self.deals} deals"
