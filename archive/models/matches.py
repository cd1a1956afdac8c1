"""The archive of played matches: who really sat where, the result, each deal's eyes, the record.

Every match whose result becomes final is one `ArchivedMatch`, written only by
`archive.services.matches` (a casual table when it ends, a tournament match when its result is
confirmed, an uploaded record). Ratings and analysis read the archive, never the tables or the
tournaments, and follow its "match changed" notice. The live table and the tournament match a
match came from are kept by the numbers of their rows (`table_id`, `tournament_match`), not by
foreign keys: the archive knows nothing of the tables or the tournaments, which write to it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.engine.cards import SEATS

SEAT_CHOICES = [(i, s) for i, s in enumerate(SEATS)]


class MatchSource(models.TextChoices):
    TABLE = "table", _("live table")
    TOURNAMENT = "tournament", _("tournament")
    UPLOAD = "upload", _("uploaded record")


class SeatKind(models.TextChoices):
    PLAYER = "player", _("player")
    GUEST = "guest", _("guest")
    BOT = "bot", _("bot")


class ArchivedMatch(models.Model):
    """One played match, final: online (with its bilka-record/1) or known by its deal sheet."""

    source = models.CharField(_("source"), max_length=12, choices=MatchSource.choices)
    #: The live table it was played at (casual, or a tournament match played online): the
    #: gameplay.Table's id. Its column kept the name it had as a foreign key.
    table_id = models.BigIntegerField(null=True, blank=True, unique=True)
    #: The tournament's match row (tournaments.Match pk), its tournament and round.
    tournament_match = models.PositiveIntegerField(null=True, blank=True, unique=True)
    tournament = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    event_name = models.CharField(_("event"), max_length=200, blank=True)
    event_url = models.CharField(max_length=300, blank=True)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    club = models.ForeignKey("clubs.Club", verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="archived_matches")
    #: When it was played (a table's end, a tournament round's time), not when it was entered.
    played_at = models.DateTimeField(_("played"), db_index=True)
    archived_at = models.DateTimeField(default=timezone.now, editable=False)
    rules = models.JSONField(_("rules"), default=dict)
    #: A key of the full rules, so matches under the same rules are found together.
    rules_key = models.CharField(max_length=16, db_index=True)
    ns_eyes = models.PositiveSmallIntegerField()
    ew_eyes = models.PositiveSmallIntegerField()
    #: "NS" or "EW": the pair that won, as its source stored it (the table's outcome, the
    #: organiser's entry), never derived from the record: the archive check compares the two.
    winner = models.CharField(max_length=2)
    #: eyes, resign, timeout or forfeit (a no-show or an organiser's decision).
    reason = models.CharField(max_length=12, default="eyes")
    #: The seat whose pair lost by `reason` when it is not eyes (None when unknown).
    reason_seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, null=True, blank=True)
    record = models.JSONField(null=True, blank=True)
    has_record = models.BooleanField(default=False, db_index=True)
    #: The SHA-256 of the record's game (`archive.services.matches.record_hash`), so that one
    #: match is archived once however often its record is uploaded; "" for a sheet-only match.
    record_hash = models.CharField(max_length=64, blank=True, default="")
    deal_count = models.PositiveSmallIntegerField(default=0)
    #: Counts for ratings: a tournament match of a rated event, or a rated casual table of four
    #: signed-in people. The ratings read only these.
    rated = models.BooleanField(default=False, db_index=True)
    #: Anyone may see it; otherwise its players, its club's organisers and the staff only.
    public = models.BooleanField(default=True, db_index=True)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("archived match")
        verbose_name_plural = _("archived matches")
        ordering = ["-played_at", "-id"]
        indexes = [models.Index(fields=["public", "played_at"], name="archive_public_played")]
        constraints = [models.UniqueConstraint(fields=["record_hash"], condition=~models.Q(record_hash=""),
                                               name="archive_record_hash_unique")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.ns_eyes}:{self.ew_eyes} ({self.source})"

    def get_absolute_url(self) -> str:
        return reverse("archive:match", kwargs={"pk": self.pk})

    @property
    def forfeit(self) -> bool:
        return self.reason == "forfeit"


class ArchivedSeat(models.Model):
    """Who sat at N/E/S/W: a player (with or without an account), a guest, or a bot."""

    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    kind = models.CharField(max_length=8, choices=SeatKind.choices, default=SeatKind.PLAYER)
    player = models.ForeignKey("clubs.Player", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="archived_seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="archived_seats")
    name = models.CharField(max_length=120)
    #: A bot's level as it played ("beginner", "strong"); "" for a person, and for bots archived
    #: before levels were kept.
    bot_level = models.CharField(_("bot level"), max_length=16, blank=True, default="")
    #: The name's search key (``clubs.translit.search_key``), so "Asel" finds "Әсел" and "Bot" finds
    #: "Бот N", as the players page finds players.
    search_name = models.CharField(max_length=300, blank=True, default="", editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="archived_seat_unique")]
        ordering = ["match", "seat"]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.seat}: {self.name}"

    @property
    def pair(self) -> str:
        return "NS" if self.seat % 2 == 0 else "EW"


class ArchivedDeal(models.Model):
    """One deal of an archived match, from its record or its score sheet: enough for figures
    (deals won on duty, points, Lucy and eggs) without replaying the record."""

    match = models.ForeignKey(ArchivedMatch, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    #: win, rout, eggs, lucy, redeal or unfinished (bilka-score/1).
    outcome = models.CharField(max_length=12)
    #: 0 NS, 1 EW: the pair whose trump was chosen (the jack of clubs' pair); None for a redeal.
    pair_on_duty = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The seat holding the jack of clubs (records only; a sheet knows the pair).
    jack_holder = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, null=True, blank=True)
    #: The seat that asked for a redeal.
    redeal_seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES, null=True, blank=True)
    ns_points = models.PositiveSmallIntegerField(null=True, blank=True)
    ew_points = models.PositiveSmallIntegerField(null=True, blank=True)
    ns_eyes = models.PositiveSmallIntegerField(default=0)
    ew_eyes = models.PositiveSmallIntegerField(default=0)
    ns_score = models.PositiveSmallIntegerField(default=0)
    ew_score = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="archived_deal_unique")]
        ordering = ["match", "number"]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.number} {self.outcome}"

    @property
    def winner(self) -> int | None:
        """The pair that took the deal's eyes (None for a redeal or an unfinished deal)."""
        if self.ns_eyes > self.ew_eyes:
            return 0
        if self.ew_eyes > self.ns_eyes:
            return 1
        return None
