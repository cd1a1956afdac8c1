"""Duplicate boards over the board: each table's result on each board of its round.

A duplicate event's match is one table in one round (NS pair = ``home``, EW pair = ``away``; its
``slot`` is the board set the movement gives it). The table plays the set's boards and its result
on each is one row here: the card points NS took, or an adjusted score for each side where the
board could not be played. Matchpoints and percentages are recomputed from these rows on every
read (``tournaments.core.duplicate``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .rounds import Match


class Adjusted(models.TextChoices):
    """A side's adjusted score on a board it could not play (``core.duplicate``: 60, 50, 40 %)."""

    PLUS = "plus", _("Average plus (60%)")
    AVERAGE = "average", _("Average (50%)")
    MINUS = "minus", _("Average minus (40%)")


class BoardResult(models.Model):
    """One table's result on one board: NS's card points (EW took the rest of 120), or adjusted."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="board_results")
    board = models.PositiveSmallIntegerField(_("board"))
    ns_points = models.PositiveSmallIntegerField(_("NS card points"), null=True, blank=True)
    ns_adjusted = models.CharField(max_length=8, choices=Adjusted.choices, blank=True, default="")
    ew_adjusted = models.CharField(max_length=8, choices=Adjusted.choices, blank=True, default="")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_how = models.CharField(max_length=12, blank=True)  # organiser / pin
    entered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("board result")
        verbose_name_plural = _("board results")
        ordering = ["match", "board"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="board_result_once_per_table"),
            models.CheckConstraint(
                condition=models.Q(ns_points__isnull=True) | models.Q(ns_points__lte=120),
                name="board_result_points_0_120",
            ),
            models.CheckConstraint(
                condition=models.Q(ns_points__isnull=False, ns_adjusted="", ew_adjusted="")
                | (models.Q(ns_points__isnull=True) & ~models.Q(ns_adjusted="") & ~models.Q(ew_adjusted="")),
                name="board_result_points_or_adjusted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} · {self.board}"

    @property
    def ew_points(self) -> int | None:
        return None if self.ns_points is None else 120 - self.ns_points


class BoardPar(models.Model):
    """A board's double-dummy par: the card points NS take with best play by all four
    (``gameplay.engine.boards.board_par``), worked out once by a task, for the traveller.

    ``deal_key`` names what the solver was given (the event's seed commitment, the set size and the
    rules that shape the deal); a par whose key no longer matches the event is worked out again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="board_pars")
    board = models.PositiveSmallIntegerField(_("board"))
    ns_points = models.PositiveSmallIntegerField(_("NS card points with best play"))
    deal_key = models.CharField(max_length=64)
    seconds = models.FloatField(default=0)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("board par")
        verbose_name_plural = _("board pars")
        ordering = ["tournament", "board"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "board"], name="board_par_once"),
            models.CheckConstraint(condition=models.Q(ns_points__lte=120), name="board_par_points_0_120"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} · {self.board}: {self.ns_points}"

    @property
    def ew_points(self) -> int:
        return 120 - self.ns_points
