"""The event itself: its format, how it is played and seeded, its status, every setting an organiser sets."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from clubs.text_fields import NameField, ProseField


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin (league)")
    SWISS = "swiss", _("Swiss")
    SINGLE_ELIM = "single_elim", _("Knockout (single elimination)")
    INDIVIDUAL_MOVEMENT = "ind_movement", _("Individual: full movement (new partner every round)")
    INDIVIDUAL_SWISS = "ind_swiss", _("Individual: Swiss rounds (new partner every round)")
    DOUBLE_ELIM = "double_elim", _("Double elimination")
    GROUPS_PLAYOFF = "groups_playoff", _("Groups, then a knockout playoff")
    DUPLICATE = "duplicate", _("Duplicate: the same boards at every table, scored by matchpoints")
    IND_DUPLICATE = "ind_duplicate", _(
        "Individual duplicate: new partner every round, the same boards at every table"
    )


INDIVIDUAL_FORMATS = frozenset({Format.INDIVIDUAL_MOVEMENT, Format.INDIVIDUAL_SWISS, Format.IND_DUPLICATE})
"""Players enter alone and change partners every round (``tournaments.formats.players``)."""
DUPLICATE_FORMATS = frozenset({Format.DUPLICATE, Format.IND_DUPLICATE})
"""Every table plays the same boards, scored by matchpoints (``tournaments.formats.duplicate``)."""
BRACKET_FORMATS = frozenset({Format.DOUBLE_ELIM, Format.GROUPS_PLAYOFF})
"""Rounds are drawn from a bracket state rebuilt from the results (``tournaments.formats``)."""


class PlayMode(models.TextChoices):
    PHYSICAL = "physical", _("At physical tables")
    ONLINE = "online", _("Online")


class Seeding(models.TextChoices):
    RATING = "rating", _("By rating (unrated pairs drawn at random)")
    MANUAL = "manual", _("Manual (the order of the entry list)")
    RANDOM = "random", _("Random draw")


class Currency(models.TextChoices):
    """The currencies an entry fee is asked in: the clubs' own (a fee is paid at the desk, not online)."""

    KZT = "KZT", _("₸ tenge")
    RUB = "RUB", _("₽ roubles")
    UAH = "UAH", _("₴ hryvnias")
    EUR = "EUR", _("€ euros")


CURRENCY_SIGNS = {"KZT": "₸", "RUB": "₽", "UAH": "₴", "EUR": "€"}


class Movement(models.TextChoices):
    """How a duplicate event seats its pairs (``tournaments.core.duplicate``)."""

    MITCHELL = "mitchell", _("Mitchell (NS pairs stay, EW pairs and boards move)")
    HOWELL = "howell", _("Howell (every pair meets a new pair each round)")


class BoardScale(models.TextChoices):
    """What a duplicate board's result is compared by."""

    POINTS = "points", _("Card points (0-120)")
    EYES = "eyes", _("Eyes by the duty rule (coarser)")


class ByeKind(models.TextChoices):
    """What a requested bye scores (``tournaments.core.standings.REQUESTED_BYES``)."""

    HALF = "half", _("half a win")
    ZERO = "zero", _("nothing (as a loss)")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


def money_text(amount: int | None, currency: str) -> str:
    """A whole amount with thin-spaced thousands and its sign: "12 500 ₸", "30 €"."""
    digits = f"{amount or 0:,}".replace(",", "\u202f")
    return f"{digits}\u00a0{CURRENCY_SIGNS.get(currency, currency)}"


MAX_ROUND_LENGTH = 600
"""A round's clock, in minutes: ten hours is more than any day in a hall."""


class Tournament(models.Model):
    """One event of a club: a league season, a Swiss evening, a knockout cup."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="tournaments"
    )
    name = NameField(_("name"), max_length=140)
    slug = models.SlugField(_("address"), max_length=160, unique=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    venue = NameField(_("venue"), max_length=200, blank=True)
    online = models.BooleanField(_("online event"), default=False)
    description = ProseField(_("about"), blank=True)
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
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_("Its matches count for the players' ratings. Decide before round 1 is paired."),
    )
    seeding = models.CharField(_("seeding"), max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    #: When the entries' seeding ratings were taken: check-in closing, else round 1's pairing.
    seed_ratings_at = models.DateTimeField(_("seeding ratings as of"), null=True, blank=True)
    third_place = models.BooleanField(_("third-place match"), default=False)
    best_of = models.PositiveSmallIntegerField(
        _("matches per knockout tie"),
        default=1,
        help_text=_("1: one match to 12 eyes. 3: best of three, and so on."),
    )
    final_best_of = models.PositiveSmallIntegerField(
        _("matches in the final"),
        null=True,
        blank=True,
        help_text=_("Empty: as many as the other ties."),
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
    bye_requests = models.CharField(
        _("requested byes score"),
        max_length=4,
        choices=ByeKind.choices,
        blank=True,
        default="",
        help_text=_("Swiss and individual events: a pair (a player) may ask to sit out a round. Empty: no."),
    )
    bye_requests_max = models.PositiveSmallIntegerField(
        _("requested byes per entry"), default=1, help_text=_("How many rounds one entry may sit out.")
    )
    bye_requests_not_last = models.PositiveSmallIntegerField(
        _("no requested byes in the last rounds"),
        default=0,
        help_text=_("How many of the last rounds nobody may sit out; 0 for none."),
    )
    self_registration = models.BooleanField(_("players may register themselves"), default=False)
    entry_cap = models.PositiveIntegerField(_("most pairs"), null=True, blank=True)
    entry_fee = models.PositiveIntegerField(
        _("entry fee"),
        null=True,
        blank=True,
        help_text=_("Per pair (per player in an individual event), paid at check-in; empty for none."),
    )
    fee_currency = models.CharField(
        _("currency of the fee"), max_length=3, choices=Currency.choices, default=Currency.KZT
    )
    auto_confirm_hours = models.PositiveSmallIntegerField(
        _("auto-confirm after (hours)"),
        default=24,
        help_text=_("A reported result nobody disputes is confirmed after this time."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    round_length = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        null=True,
        blank=True,
        help_text=_("The clock on the players' pages and the hall screen; empty for no clock."),
    )
    boards_per_round = models.PositiveSmallIntegerField(
        _("boards per round"),
        default=4,
        help_text=_("Duplicate: the boards each table plays in a round (2-8)."),
    )
    movement = models.CharField(
        _("movement"), max_length=8, choices=Movement.choices, default=Movement.MITCHELL
    )
    duplicate_rounds = models.PositiveSmallIntegerField(
        _("rounds played (duplicate)"),
        null=True,
        blank=True,
        help_text=_("Duplicate: stop after this many rounds of the movement; empty for the whole movement."),
    )
    board_scale = models.CharField(
        _("boards scored by"), max_length=6, choices=BoardScale.choices, default=BoardScale.POINTS
    )
    #: Duplicate: the secret event seed the boards are dealt from (bilka-board/1, hex), drawn when
    #: round 1 is paired and shown only once the event is finished; its SHA-256 is public from then.
    board_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    board_commitment = models.CharField(_("boards' commitment"), max_length=64, blank=True, default="")
    #: The one view the hall screen keeps showing (``HallView``); empty: it cycles through them.
    hall_view = models.CharField(_("hall screen shows"), max_length=12, blank=True, default="")
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
    def fee_text(self) -> str:
        """The entry fee as a poster writes it ("2 000 ₸"); empty when the event asks none."""
        return money_text(self.entry_fee, self.fee_currency) if self.entry_fee else ""

    @property
    def is_knockout(self) -> bool:
        return self.format == Format.SINGLE_ELIM

    @property
    def plays_ties(self) -> bool:
        """A bracket format, whose ties may be best-of-N series (``best_of``, ``final_best_of``)."""
        return self.format == Format.SINGLE_ELIM or self.format in BRACKET_FORMATS

    @property
    def is_duplicate(self) -> bool:
        return self.format in DUPLICATE_FORMATS

    @property
    def is_individual(self) -> bool:
        return self.format in INDIVIDUAL_FORMATS

    @property
    def has_bracket(self) -> bool:
        """Double elimination, or groups then playoff: rounds follow a bracket, not a fixed count."""
        return self.format in BRACKET_FORMATS
