"""Rounds and what is played in them: matches (or byes), their score sheets, corrections and seats.

The rows hold only what the pure core (``tournaments.core``) cannot recompute: who was paired
against whom at which table, and what the players reported. Standings, brackets and tiebreaks
are recomputed from these rows on every read (``tournaments.selectors``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.text_fields import ProseField

from .entries import Entry, IndividualEntry
from .event import ByeKind, PlayMode, Tournament

DISPUTE_NOTE_LENGTH = 500
"""What a pair writes when it disputes a result."""


class RoundStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    COMPLETE = "complete", _("Complete")


class Round(models.Model):
    """A round (a matchday in a league, a stage of a knockout)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    play_mode = models.CharField(_("play"), max_length=8, choices=PlayMode.choices, blank=True)
    best_of = models.PositiveSmallIntegerField(_("matches per tie"), null=True, blank=True)
    length = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        null=True,
        blank=True,
        help_text=_("Empty: the tournament's round length."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    @property
    def overdue(self) -> bool:
        """The deadline has passed and results are still missing (the organiser may record forfeits)."""
        return (
            self.status != RoundStatus.COMPLETE
            and self.deadline is not None
            and self.deadline < timezone.now()
        )

    @property
    def effective_play_mode(self) -> str:
        return self.play_mode or self.tournament.play_mode


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("To play")
    UNCONFIRMED = "unconfirmed", _("Waiting for confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


def new_pin() -> str:
    return f"{secrets.randbelow(10000):04d}"


class Match(models.Model):
    """One match to 12 eyes at a table (or a bye). ``home`` is listed first and fetches the sheet.

    Knockout ties of best-of-N are several rows with the same ``slot`` and ``game`` 1, 2, ...
    The third-place match is slot 1 of the last round, as in ``tournaments.core.knockout``.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"), default=0)
    slot = models.PositiveSmallIntegerField(default=0)
    game = models.PositiveSmallIntegerField(default=1)
    bracket = models.CharField(max_length=8, blank=True, default="")
    """Double elimination: winners / losers / final; groups then playoff: group (``slot`` is the
    group, 0 = A) or playoff. Empty for the other formats."""
    stage = models.PositiveSmallIntegerField(default=0)
    """The round inside ``bracket`` (a bracket's round 1, 2, ...), as the core's match keys count them."""
    home = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="away_matches"
    )
    bye = models.BooleanField(_("bye"), default=False)
    #: A bye the pair asked for (``ByeKind``: what it scores); empty for the pairing's bye and matches.
    requested_bye = models.CharField(
        _("requested bye"), max_length=4, choices=ByeKind.choices, blank=True, default=""
    )
    home_eyes = models.PositiveSmallIntegerField(null=True, blank=True)
    away_eyes = models.PositiveSmallIntegerField(null=True, blank=True)
    home_lucy = models.PositiveSmallIntegerField(null=True, blank=True)
    away_lucy = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    forfeit = models.BooleanField(_("forfeit or no-show"), default=False)
    #: A forfeit that ended its best-of tie when a forfeit lost the whole tie (before it lost only
    #: its own game): such ties stay decided as they were (migration 0026, ``formats.series``).
    ends_tie = models.BooleanField(default=False, editable=False)
    status = models.CharField(
        _("status"), max_length=12, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    home_pin = models.CharField(_("PIN of pair 1"), max_length=8, default=new_pin)
    away_pin = models.CharField(_("PIN of pair 2"), max_length=8, default=new_pin)
    """Each side's own PIN, printed on its half of the score sheet: the side that did not report
    confirms (or disputes) with its PIN, so a side holding only its own half cannot confirm itself.
    Wrong PINs slow down whoever sends them (``services.results``); they never lock the match."""
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_side = models.CharField(max_length=10, blank=True)  # home / away / organiser
    reported_at = models.DateTimeField(null=True, blank=True)
    played_at = models.DateTimeField(null=True, blank=True)
    """When the players' own first report came (at the table, by a player or a side's PIN, or the
    live table's end): the ratings learn the match there. An organiser's later entry or correction
    of the result keeps it; an organiser's entry alone leaves it empty (the round's time is used)."""
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_how = models.CharField(max_length=12, blank=True)  # player / pin / organiser / auto
    dispute_note = ProseField(blank=True, max_length=DISPUTE_NOTE_LENGTH)
    live_table = models.PositiveIntegerField(
        _("live table"),
        null=True,
        blank=True,
        unique=True,
        help_text=_("The number of the online table this match was played at (gameplay), if any."),
    )
    live_refusal = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text=_("Why the live table's result was not taken automatically (shown to the organiser)."),
    )
    """``{"code": ..., "params": {...}, "table": n}``: the code is a key of ``live.REFUSALS``, so each
    page says the reason in its reader's language; the match is disputed until the organiser settles it."""
    #: The bilka-record/1 of a match played elsewhere that the organiser attached to this pairing,
    #: and who sat where in it (``{"N": player id, ...}``): the archive takes both with the result.
    record = models.JSONField(null=True, blank=True, editable=False)
    record_chairs = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round__number", "table", "slot", "game", "id"]
        indexes = [models.Index(fields=["status", "reported_at"], name="match_status_reported")]

    def __str__(self) -> str:
        return f"{self.round} · {_('table')} {self.table}"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:match", kwargs={"slug": self.tournament.slug, "pk": self.pk})

    @property
    def has_result(self) -> bool:
        return self.home_eyes is not None

    @property
    def group_letter(self) -> str:
        """Groups then playoff: the group of a group match (slot 0 = A)."""
        return chr(ord("A") + self.slot) if self.bracket == "group" else ""

    def pin_of(self, side: str) -> str:
        """The PIN of ``side`` ("home" or "away")."""
        return self.home_pin if side == "home" else self.away_pin

    def state(self) -> dict:
        """What a correction log keeps of a result."""
        return {
            "home_eyes": self.home_eyes,
            "away_eyes": self.away_eyes,
            "winner_id": self.winner_id,
            "forfeit": self.forfeit,
            "status": self.status,
        }


class DealLine(models.Model):
    """A line of the paper score sheet: one played deal. Pair 0 is the home entry."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    home_points = models.PositiveSmallIntegerField()
    away_points = models.PositiveSmallIntegerField()
    # 0 home, 1 away; empty in a game where nobody is on duty (Kozyol: a catch is its outcome)
    jack_holder = models.PositiveSmallIntegerField(null=True, blank=True)
    all_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=8)
    home_eyes = models.PositiveSmallIntegerField()
    away_eyes = models.PositiveSmallIntegerField()
    home_score = models.PositiveSmallIntegerField()
    away_score = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="dealline_unique_number")]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.number}: {self.home_points}:{self.away_points}"


class ResultCorrection(models.Model):
    """Every change an organiser makes to a result that was already reported."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField()
    after = models.JSONField()
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.match_id} @ {self.at:%Y-%m-%d %H:%M}"


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
    #: A bye seat the player asked for (``ByeKind``); empty for the seater's bye and the tables.
    requested_bye = models.CharField(
        _("requested bye"), max_length=4, choices=ByeKind.choices, blank=True, default=""
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.table}{self.seat} · {self.entry_id}"
