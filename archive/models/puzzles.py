"""Puzzles from real play: positions of archived matches where the seat to move missed the one card
that keeps the par (`gameplay.engine.puzzles` finds them), the first attempts of signed-in people,
and each person's puzzle rating and streak.

Written only by `archive.services.puzzles`; shown only while their match is public
(`archive.puzzle_selectors`, through the archive's one visibility rule).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from archive.models.matches import SEAT_CHOICES, ArchivedMatch
from archive.puzzle_rating import START_DEVIATION, START_RATING


class Puzzle(models.Model):
    """One position of a match's record: card `ply` (from 0) of deal `deal` (from 1), as `seat` saw
    it (`view`, bilka-puzzle/1: nothing of the hidden hands), and what the solver says of it with
    all hands known (`solution`: the four hands, every legal card's points, the par, the line)."""

    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="puzzles")
    #: The record it was found in (ArchivedMatch.record_hash): a replaced record is searched again.
    record_hash = models.CharField(max_length=64)
    deal = models.PositiveSmallIntegerField()
    ply = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    #: The card that keeps the par, and the card the game played instead (never who played it).
    card = models.CharField(max_length=2)
    played = models.CharField(max_length=2)
    lost = models.PositiveSmallIntegerField()
    #: In how many of the `samples` layouts of the hidden hands the card was a best card.
    agreeing = models.PositiveSmallIntegerField()
    samples = models.PositiveSmallIntegerField()
    view = models.JSONField()
    solution = models.JSONField()
    #: The difficulty, learnt from first attempts as a Glicko rating (a puzzle "wins" when missed).
    rating = models.FloatField(_("difficulty"), default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    found_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["match", "deal", "ply"],
                                               name="puzzle_position_unique")]

    def __str__(self) -> str:
        return f"puzzle {self.pk}: match {self.match_id} deal {self.deal} card {self.ply + 1}"


class PuzzleAttempt(models.Model):
    """A signed-in person's first answer to a puzzle: the one that moves the ratings and the streak."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="tries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="puzzle_attempts")
    card = models.CharField(max_length=2)
    solved = models.BooleanField()
    #: The puzzle's rating when it was attempted, and how far the attempt moved the person's.
    puzzle_rating = models.FloatField()
    change = models.FloatField(default=0)
    attempted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["puzzle", "user"], name="puzzle_attempt_once")]
        ordering = ["-attempted_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id} on puzzle {self.puzzle_id}: {self.card}"


class PuzzlePlayer(models.Model):
    """A person's puzzle rating (Glicko, as the puzzles'), and streak of puzzles solved in a row."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="puzzle_player")
    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f}, streak {self.streak}"
