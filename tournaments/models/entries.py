"""Who plays in an event: fixed pairs (``Entry``), players who enter alone (``IndividualEntry``), substitutes.

In an individual event each round's table is still a match between two partnerships: each is an
``Entry`` with ``seed=0`` (the pair of that table and round), so results flow exactly as for
fixed pairs; ``IndividualEntry`` is the one player's place in the event.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player

from .event import Tournament


class EntryStatus(models.TextChoices):
    PARTNER = "partner", _("Waiting for the partner")
    PENDING = "pending", _("Waiting for approval")
    APPROVED = "approved", _("Approved")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


ACTIVE_STATUSES = (EntryStatus.APPROVED, EntryStatus.CHECKED_IN)
"""An entry (a pair or a player) that is in the event: approved, or checked in at the venue."""

WAITING_STATUSES = (EntryStatus.PARTNER, EntryStatus.PENDING)
"""A pair not in the event yet: its partner has not accepted (``PARTNER``: a player registered
himself with a partner who has an account; she is free to enter with someone else until she
accepts), or the organiser has not approved it (``PENDING``). Neither is counted, seeded or paired."""


class Paid(models.TextChoices):
    """How an entry's fee was settled at the desk (no payment is taken online)."""

    UNPAID = "unpaid", _("Not paid")
    CASH = "cash", _("Cash")
    TRANSFER = "transfer", _("Transfer")
    WAIVED = "waived", _("Waived")


class Payment(models.Model):
    """An entry's fee as the organiser took it: how, how much, who took it and when. Private to
    the event's organisers: no public page, export or API read shows it."""

    paid = models.CharField(_("paid"), max_length=8, choices=Paid.choices, default=Paid.UNPAID)
    paid_amount = models.PositiveIntegerField(_("amount taken"), null=True, blank=True)
    paid_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("taken by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)

    class Meta:
        abstract = True


class Entry(Payment):
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
    #: Seeding by rating: the entry's rating as it stood when registration closed (``seed_rating_at``),
    #: on the players' scale (a pair: the mean of its partners'); None while unrated then.
    seed_rating = models.FloatField(_("seeding rating"), null=True, blank=True)
    seed_rating_at = models.DateTimeField(null=True, blank=True)
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
        return self.status in ACTIVE_STATUSES


class IndividualEntry(Payment):
    """One player in an individual event."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="individual_entries"
    )
    player = models.ForeignKey(
        "clubs.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(_("status"), max_length=12, default="approved")
    seed = models.PositiveIntegerField(_("seed"), default=0)
    #: Seeding by rating: the entry's rating as it stood when registration closed (``seed_rating_at``),
    #: on the players' scale (a pair: the mean of its partners'); None while unrated then.
    seed_rating = models.FloatField(_("seeding rating"), null=True, blank=True)
    seed_rating_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    substitute_for = models.ForeignKey(
        "self",
        verbose_name=_("substitute for"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="substitutes",
    )
    """A substitute: the player who left, whose seats he plays from ``from_round`` on."""
    from_round = models.PositiveSmallIntegerField(_("plays from round"), null=True, blank=True)
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
        return self.status in ACTIVE_STATUSES


class Substitution(models.Model):
    """For one round, ``player_in`` plays in place of ``player_out`` in an entry."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutions")
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="substitutions")
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


class RequestStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the organiser")
    GRANTED = "granted", _("Granted")
    DECLINED = "declined", _("Declined")


class WithdrawalRequest(models.Model):
    """A player's ask to leave an event whose round 1 is paired: only the organiser withdraws then.

    One tap of a player once withdrew his pair mid-event and forfeited his partner's matches; now
    the organiser sees the ask on the dashboard and grants (the entry is withdrawn) or declines it.
    ``entry`` names a fixed pair, ``individual_entry`` a player of an individual event.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="withdrawal_requests")
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    individual_entry = models.ForeignKey(
        IndividualEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=RequestStatus.choices, default=RequestStatus.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("withdrawal request")
        verbose_name_plural = _("withdrawal requests")
        ordering = ["requested_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(entry__isnull=False) & Q(individual_entry__isnull=True))
                | (Q(entry__isnull=True) & Q(individual_entry__isnull=False)),
                name="withdrawal_request_one_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.who} ({self.status})"

    @property
    def who(self):
        """The pair or the player who asks to leave."""
        return self.entry or self.individual_entry
