"""Tournaments for fixed pairs: the event, its entries, rounds, matches and the paper trail of results.

The rows hold only what the pure core (``tournaments.core``) cannot recompute: who entered, who
was paired against whom at which table, and what the players reported. Standings, brackets and
tiebreaks are recomputed from these rows on every read (``tournaments.selectors``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin (league)")
    SWISS = "swiss", _("Swiss")
    SINGLE_ELIM = "single_elim", _("Knockout (single elimination)")
    INDIVIDUAL_MOVEMENT = "ind_movement", _("Individual: full movement (new partner every round)")
    INDIVIDUAL_SWISS = "ind_swiss", _("Individual: Swiss rounds (new partner every round)")
    DOUBLE_ELIM = "double_elim", _("Double elimination")
    GROUPS_PLAYOFF = "groups_playoff", _("Groups, then a knockout playoff")


INDIVIDUAL_FORMATS = frozenset({Format.INDIVIDUAL_MOVEMENT, Format.INDIVIDUAL_SWISS})
BRACKET_FORMATS = frozenset({Format.DOUBLE_ELIM, Format.GROUPS_PLAYOFF})
"""Rounds are drawn from a bracket state rebuilt from the results (``tournaments.bracket_services``)."""
"""Players enter alone and change partners every round (``tournaments.individual_services``)."""


class PlayMode(models.TextChoices):
    PHYSICAL = "physical", _("At physical tables")
    ONLINE = "online", _("Online")


class Seeding(models.TextChoices):
    RATING = "rating", _("By rating (unrated pairs drawn at random)")
    MANUAL = "manual", _("Manual (the order of the entry list)")
    RANDOM = "random", _("Random draw")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Tournament(models.Model):
    """One event of a club: a league season, a Swiss evening, a knockout cup."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=140)
    slug = models.SlugField(_("address"), max_length=160, unique=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    online = models.BooleanField(_("online event"), default=False)
    description = models.TextField(_("about"), blank=True)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices, default=Format.SWISS)
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=5)
    matchday_days = models.PositiveSmallIntegerField(
        _("days per matchday"),
        default=0,
        help_text=_(
            "Leagues: each matchday's deadline is this many days after the previous one; 0 for none."
        ),
    )
    seeding = models.CharField(_("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    third_place = models.BooleanField(_("third-place match"), default=False)
    best_of = models.PositiveSmallIntegerField(
        _("matches per knockout tie"),
        default=1,
        help_text=_("1: one match to 12 eyes. 3: best of three, and so on."),
    )
    play_mode = models.CharField(_("play"), max_length=8, choices=PlayMode.choices, default=PlayMode.PHYSICAL)
    grand_final_reset = models.BooleanField(
        _("grand final reset"),
        default=True,
        help_text=_(
            "Double elimination: if the losers' bracket winner wins the final, a second final decides."
        ),
    )
    group_count = models.PositiveSmallIntegerField(_("groups"), default=2)
    group_qualifiers = models.PositiveSmallIntegerField(_("pairs through from each group"), default=2)
    prizes = models.JSONField(_("prizes by place"), default=list, blank=True)
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    points_bye = models.PositiveSmallIntegerField(_("points for a bye"), default=1)
    tiebreaks = models.JSONField(_("tiebreak order"), default=list, blank=True)
    self_registration = models.BooleanField(_("players may register themselves"), default=False)
    entry_cap = models.PositiveIntegerField(_("most pairs"), null=True, blank=True)
    auto_confirm_hours = models.PositiveSmallIntegerField(
        _("auto-confirm after (hours)"),
        default=24,
        help_text=_("A reported result nobody disputes is confirmed after this time."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:home", kwargs={"slug": self.slug})

    @property
    def is_knockout(self) -> bool:
        return self.format == Format.SINGLE_ELIM

    @property
    def is_individual(self) -> bool:
        return self.format in INDIVIDUAL_FORMATS

    @property
    def has_bracket(self) -> bool:
        """Double elimination, or groups then playoff: rounds follow a bracket, not a fixed count."""
        return self.format in BRACKET_FORMATS


class EntryStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    APPROVED = "approved", _("Approved")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Entry(models.Model):
    """A fixed pair: two players who play every match of the event together."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player_a = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        Player, verbose_name=_("partner"), on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus.choices, default=EntryStatus.APPROVED
    )
    seed = models.PositiveIntegerField(_("seed"), default=0)
    late = models.BooleanField(_("late entry"), default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="entry_two_players"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.player_a.display_name} & {self.player_b.display_name}"

    @property
    def short_name(self) -> str:
        """Surnames only ("Ахметов / Жумабаева"), for narrow places: the bracket and the crosstable."""
        return f"{self.player_a.display_name.split()[-1]} / {self.player_b.display_name.split()[-1]}"

    @property
    def active(self) -> bool:
        return self.status in (EntryStatus.APPROVED, EntryStatus.CHECKED_IN)


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
    home_eyes = models.PositiveSmallIntegerField(null=True, blank=True)
    away_eyes = models.PositiveSmallIntegerField(null=True, blank=True)
    home_lucy = models.PositiveSmallIntegerField(null=True, blank=True)
    away_lucy = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    forfeit = models.BooleanField(_("forfeit or no-show"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    pin = models.CharField(_("PIN"), max_length=8, default=new_pin)
    pin_failures = models.PositiveSmallIntegerField(default=0)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_side = models.CharField(max_length=10, blank=True)  # home / away / organiser
    reported_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_how = models.CharField(max_length=12, blank=True)  # player / pin / organiser / auto
    dispute_note = models.TextField(blank=True)
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
    jack_holder = models.PositiveSmallIntegerField()  # 0 home, 1 away
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


class Substitution(models.Model):
    """For one round, ``player_in`` plays in place of ``player_out`` in an entry."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutions")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="substitutions")
    player_out = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_in = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "round", "player_out"], name="substitution_once_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} r{self.round_id}: {self.player_out_id} → {self.player_in_id}"


from .day_models import ActionKind, DaySettings, Notification, ScheduledAction  # noqa: E402, F401
from .individual_models import IndividualEntry, Seat, SeatName  # noqa: E402, F401
