"""Live tables: the table row owns the match (its growing record), seats, numbered events, move receipts.

The database is the single source of truth: a consumer or a task never keeps game state. The
engine state of a playing table is rebuilt by replaying `Table.record` (bilka-record/1), which
holds the hands of the deal in progress, so a restart, another worker or another server process
resumes exactly where the last committed move left the table.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.engine.cards import SEATS
from gameplay.engine.shuffle import commitment_of, new_client_seed, new_match_seed
from gameplay.words import BotLevel


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


def new_shuffle_seed() -> str:
    """A table's secret match seed (bilka-shuffle/1), hex: drawn when the table opens."""
    return new_match_seed().hex()


class Seating(models.TextChoices):
    RANDOM = "random", _("random")
    IN_ORDER = "in_order", _("in the order people sit down")


class TableStatus(models.TextChoices):
    OPEN = "open", _("open")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")


SEAT_CHOICES = [(i, s) for i, s in enumerate(SEATS)]
#: The redeal question's time, a table setting: short, since every deal waits for it.
REDEAL_SECONDS_MIN, REDEAL_SECONDS_MAX = 5, 60


class Table(models.Model):
    """One live table and the one match played at it."""

    rules = models.JSONField(_("rules"), default=dict,
                             help_text=_("The rules object of RULES.md, validated by the engine."))
    seating = models.CharField(_("seating"), max_length=16, choices=Seating.choices, default=Seating.RANDOM)
    spectators_see_hands_delayed = models.BooleanField(
        _("spectators see all hands one deal later"), default=False
    )
    #: How long the redeal question stays open after each deal; an unanswered seat plays.
    redeal_seconds = models.PositiveSmallIntegerField(
        _("seconds to answer the redeal question"), default=15,
        validators=[MinValueValidator(REDEAL_SECONDS_MIN), MaxValueValidator(REDEAL_SECONDS_MAX)],
    )
    status = models.CharField(_("status"), max_length=16, choices=TableStatus.choices,
                              default=TableStatus.OPEN, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    created_session = models.CharField(max_length=40, blank=True, editable=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    #: The number of the last TableEvent; a move carries the number it was made against.
    event_seq = models.PositiveIntegerField(default=0)
    #: The bilka-record/1 document as it grows (hands of every deal: never sent before the end).
    record = models.JSONField(null=True, blank=True, editable=False)
    #: When the seat to move forfeits, or when the redeal question closes (None when no clock runs).
    move_deadline = models.DateTimeField(null=True, blank=True)
    #: The number of the event that opened the redeal question now open (None in play): an answer
    #: made against it or a later event is current, whatever other answers came in between.
    decision_event = models.PositiveIntegerField(null=True, blank=True, editable=False)
    result = models.JSONField(null=True, blank=True)
    #: The secret match seed of bilka-shuffle/1 (hex), drawn when the table opens. Only its SHA-256
    #: (`shuffle_commitment`) is shown until the match is over; `record` gets the seed then.
    shuffle_seed = models.CharField(max_length=64, blank=True, default=new_shuffle_seed, editable=False)
    #: Public: anyone may watch the table and read its replay and record, and the lobby lists it.
    #: Private (invitation only): its seated players alone; anyone else gets the same 404 as for a
    #: table that does not exist (`selectors.visible_to`).
    public = models.BooleanField(_("public"), default=True)
    #: A private table that signed-in people may watch all the same, except these users (ids): a
    #: duplicate event's table, barred to the event's own players, who play the same boards at other
    #: tables (`services.bar_spectators`). None: a private table is its seated players' alone.
    spectators_barred = models.JSONField(null=True, blank=True, editable=False)
    #: Counts for ratings, when four signed-in people (no bot, no guest) play it to a result.
    rated = models.BooleanField(_("rated"), default=False)
    #: Show the fair-shuffle panel open during the match, not folded (tournament tables).
    shuffle_prominent = models.BooleanField(default=False)
    #: A casual table goes to the archive when its match ends. A table opened for a tournament
    #: pairing does not: its tournament archives the match when the result is confirmed.
    casual = models.BooleanField(default=True, editable=False)
    #: A duplicate event's table (`boards` mode): the board set it plays as the record names it
    #: (`{"event", "scheme", "commitment", "boards"}`, public), and each board's four hands as card
    #: masks N E S W (secret like the shuffle seed: never sent, never in the record). The table holds
    #: only its own set's hands, never the event's seed. None for every other table.
    boards = models.JSONField(null=True, blank=True, editable=False)
    board_hands = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"#{self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("gameplay:table", kwargs={"pk": self.pk})

    @property
    def shuffle_commitment(self) -> str:
        """SHA-256 of the match seed, hex: public from the moment the table opens."""
        return commitment_of(bytes.fromhex(self.shuffle_seed)) if self.shuffle_seed else ""


class Seat(models.Model):
    """A seat N/E/S/W: a signed-in user, an anonymous browser session ("play now"), or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="table_seats")
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    is_bot = models.BooleanField(default=False)
    #: How the bot at this seat plays; read only where `is_bot`.
    bot_level = models.CharField(_("bot level"), max_length=16, choices=BotLevel.choices,
                                 default=BotLevel.BEGINNER)
    name = models.CharField(max_length=120)
    #: Open sockets of this seat (a player may have two tabs).
    connections = models.PositiveSmallIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    grace_used = models.FloatField(default=0.0,
                                   help_text=_("Seconds of disconnection grace used in this match."))
    #: This seat's client seed of bilka-shuffle/1 (public): random unless the player sets his own
    #: while the table waits; fixed when the match starts.
    client_seed = models.CharField(max_length=64, default=new_client_seed)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="seat_unique_table_seat")]
        ordering = ["table", "seat"]

    def __str__(self) -> str:
        return f"{SEATS[self.seat]}: {self.name}"

    @property
    def letter(self) -> str:
        return SEATS[self.seat]

    @property
    def connected(self) -> bool:
        return self.is_bot or self.connections > 0


class SeatConnection(models.Model):
    """One open socket of a seated player, under the server process that holds it.

    A process that dies never runs its sockets' `disconnect`; its heartbeat key in Redis expires,
    and the beat task `gameplay.tasks.reap_dead_servers_task` drops its rows as real disconnects
    would (`gameplay.tables.servers`, `gameplay.tables.presence`). `Seat.connections` is kept equal to the
    number of a seat's rows.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="live_connections")
    #: The instance id of the server process (`gameplay.tables.servers.SERVER_ID`).
    server_id = models.CharField(max_length=64, db_index=True)
    #: The socket's channel name: unique across processes (Channels draws it at random).
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["seat", "opened_at", "id"]

    def __str__(self) -> str:
        return f"{self.seat_id} via {self.server_id}"


class TableEvent(models.Model):
    """A numbered change of a table. `public` is what everyone may see; `private` maps a seat
    letter to what only that seat may see, and `spectator` is the spectators' part, so a viewer's
    frame is one dictionary look-up and nothing else has to be filtered."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    public = models.JSONField(default=dict)
    private = models.JSONField(default=dict)
    spectator = models.JSONField(default=dict)
    # The receipt of a move sent with a client's move id: a resend after a lost acknowledgement is
    # answered from the event it made and never applied twice (one row per move, not two).
    move_id = models.CharField(max_length=64, blank=True, default="")
    move_seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="event_unique_table_number"),
            models.UniqueConstraint(fields=["table", "move_id"], condition=~models.Q(move_id=""),
                                    name="event_unique_table_move_id"),
        ]
        ordering = ["table", "number"]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.number} {self.kind}"
