"""Ratings as rows: each player's current rating, each fixed pair's, every change with its match,
and the runs that recompute them. The model itself is pure (``ratings.core``); these rows
are what it computed from the archive, rebuilt exactly by a full recompute."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player

#: One rating per game type, its rows told apart by ``game``: Bilka for four, Kozyol khvalyony
#: (four players in two pairs, as Bilka) and Bilka for two (each side one player).
BILKA_FOUR = "bilka4"
KOZYOL = "kozyol"
BILKA_TWO = "bilka2"


@dataclass(frozen=True)
class RatedGame:
    """A game with a rating of its own: ``key`` is its rows' ``game``, ``slug`` its name in the
    pages' and the API's ``game`` parameter, ``engine`` the ``game`` its archived rules name
    (``gameplay.engine.games``; Bilka's name none), ``side`` the players of a side."""

    key: str
    slug: str
    engine: str
    label: Any
    side: int = 2


RATED_GAMES = (
    RatedGame(BILKA_FOUR, "bilka", "bilka", _("Bilka"), 2),
    RatedGame(KOZYOL, "kozyol", "kozyol", _("Kozyol khvalyony"), 2),
    RatedGame(BILKA_TWO, "bilka2", "bilka-2", _("Bilka for two"), 1),
)
BILKA_GAME = RATED_GAMES[0]
_BY_NAME = {name: g for g in RATED_GAMES for name in (g.key, g.slug, g.engine)}


def rated_game(name: object) -> RatedGame | None:
    """The game a ``game`` parameter names (its slug; its key or engine name too), None for none."""
    return _BY_NAME.get(name) if isinstance(name, str) else None


def game_of_rules(rules: object) -> RatedGame | None:
    """The rated game of an archived match's (or a table's) rules: Bilka when they name no game,
    None for a game with no rating."""
    if not isinstance(rules, Mapping) or "game" not in rules:
        return BILKA_GAME
    return rated_game(rules["game"])


def game_key(game: RatedGame | str | None) -> str:
    """The rows' ``game`` for a game or its name (Bilka's for None)."""
    if isinstance(game, RatedGame):
        return game.key
    found = rated_game(game) if game is not None else BILKA_GAME
    if found is None:
        raise ValueError(f"no rating for the game {game!r}")
    return found.key


class PlayerRating(models.Model):
    """A player's rating now: the display figures and the model's own (mean, variance, last day), and
    his form: the model's estimate that also reads deals pointing against a result, from which
    chances are given (``ratings.core.model.Rating``; null where it equals ``mu``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16, default=BILKA_FOUR)
    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"))
    mu = models.FloatField()
    var = models.FloatField()
    day = models.FloatField(null=True, blank=True)
    matches = models.PositiveIntegerField(default=0)
    form = models.FloatField(null=True, blank=True)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="rating_unique_player_game")]
        indexes = [models.Index(fields=["game", "-rating"], name="rating_board")]
        ordering = ["-rating", "player_id"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.0f} ± {self.deviation:.0f}"


class PairRating(models.Model):
    """A fixed pair's own term (beyond its partners' ratings); ``player_a`` has the smaller id."""

    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, default=BILKA_FOUR)
    mu = models.FloatField()
    var = models.FloatField()
    day = models.FloatField(null=True, blank=True)
    matches = models.PositiveIntegerField(default=0)
    form = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b", "game"], name="pair_rating_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id}+{self.player_b_id}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating."""

    match = models.ForeignKey("archive.ArchivedMatch", on_delete=models.CASCADE,
                              related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=16, default=BILKA_FOUR)
    played_at = models.DateTimeField()
    #: The order the model learnt the matches in (played_at, then the archive's id).
    seq = models.PositiveIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    weight = models.FloatField(default=1.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player", "game"], name="rating_change_unique"),
        ]
        indexes = [models.Index(fields=["player", "game", "seq"], name="rating_change_history")]
        ordering = ["seq"]

    def __str__(self) -> str:
        return f"{self.player_id} {self.before:.0f} → {self.after:.0f}"

    @property
    def change(self) -> float:
        return self.after - self.before


class RunStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    SUPERSEDED = "superseded", _("replaced by a later run")
    FAILED = "failed", _("failed")


class Cause(models.TextChoices):
    """Why a recompute ran, as a player's card says it."""

    CORRECTED = "corrected", _("a corrected result")
    LATE = "late", _("a late result")
    REMOVED = "removed", _("a removed result")
    MERGED = "merged", _("two records of one player merged")
    REFIT = "refit", _("the model's parameters refitted")
    OTHER = "", _("a recompute")


class RatingRun(models.Model):
    """One recompute of every rating, asked for by a change in the archive; its progress is shown
    to organisers while it runs. ``cause`` and the fields after it say what it concerns (the
    event, round and archived match, or the merged player), for the moves it makes
    (``RatingMove``); ``others`` counts the further requests this run answered at once."""

    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.PENDING)
    reason = models.CharField(max_length=200, blank=True)
    cause = models.CharField(max_length=12, choices=Cause.choices, blank=True, default=Cause.OTHER)
    #: The event's name (or, for a merge, the player's); "" for a casual match or an upload.
    about = models.CharField(max_length=200, blank=True)
    about_url = models.CharField(max_length=300, blank=True)
    source = models.CharField(max_length=12, blank=True)  # the archive's source of the match concerned
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The archived match concerned (kept as a number: a removed match is gone).
    match_ref = models.PositiveIntegerField(null=True, blank=True)
    #: The earliest time in the history the change concerns (the match's time played).
    concerns_at = models.DateTimeField(null=True, blank=True)
    others = models.PositiveIntegerField(default=0)
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"run {self.pk} {self.status} {self.done}/{self.total}"


class ModelFit(models.Model):
    """The model's parameters as fitted on the archive's matches (``ratings.core.fitting``): the
    newest is the one every rating is computed with; the older ones are its history."""

    game = models.CharField(max_length=16, default=BILKA_FOUR)
    fitted_at = models.DateTimeField(default=timezone.now)
    matches = models.PositiveIntegerField(default=0)
    params = models.JSONField()
    log_loss = models.FloatField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-fitted_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game} {self.fitted_at:%Y-%m-%d %H:%M} ({self.matches})"


#: A move smaller than this (in rating points) is not listed: rounding noise, not news.
NEGLIGIBLE_MOVE = 0.05


class RatingMove(models.Model):
    """A player's current rating moved by a recompute, not by a match of his: a correction, a late
    result, a removal, a merge or a refit of the model redid the history under him. Kept as a log
    (a recompute rebuilds the changes, never these); what ``run`` concerns says why."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_moves")
    game = models.CharField(max_length=16, default=BILKA_FOUR)
    run = models.ForeignKey(RatingRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="moves")
    at = models.DateTimeField(default=timezone.now)
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        indexes = [models.Index(fields=["player", "game", "-at"], name="rating_move_player")]
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.player_id} {self.before:.1f} → {self.after:.1f}"

    @property
    def change(self) -> float:
        return self.after - self.before
