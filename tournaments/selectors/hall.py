"""Reads of the hall on the day: the round clock, the tables still playing past it, the organiser's
announcements and everything the wall screen shows. No writes.

The clock is worked out, never stored: a round starts when it is paired, or at its start time in
the day settings if that is later (``day.round_started``), and runs for its own length or the
tournament's. Changing either moves the clock on every page at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from ratings import selectors as rating_selectors

from ..models import (
    Announcement,
    DaySettings,
    HallView,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    SeatName,
    Tournament,
)
from .boards import live_percentages
from .day import round_started
from .events import MATCH_RELATED
from .prizes import playing_for, prize_list
from .standings import shown_standings

RECENT_RESULTS = 12
"""Results the wall screen lists: what fits one screen in large type."""


@dataclass(frozen=True)
class RoundClock:
    """When a round began and when its time is up; ``minutes`` is the length it runs for."""

    started: datetime
    ends: datetime
    minutes: int

    def over(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.ends


def round_length(rnd: Round, tournament: Tournament | None = None) -> int | None:
    """The round's own length in minutes, else the tournament's; None (or 0) means no clock."""
    tournament = tournament or rnd.tournament
    return rnd.length if rnd.length is not None else tournament.round_length


def round_clock(rnd: Round, *, tournament: Tournament | None = None, day: DaySettings | None = None,
                day_known: bool = False) -> RoundClock | None:
    """The clock of a round in play, or None: no length set, or the round is complete.

    ``day``: the tournament's day settings when the caller has them (``day_known``), to save a query."""
    if rnd.status == RoundStatus.COMPLETE:
        return None
    minutes = round_length(rnd, tournament)
    if not minutes:
        return None
    if not day_known:
        day = DaySettings.objects.filter(tournament_id=rnd.tournament_id).first()
    started = round_started(rnd, day)
    return RoundClock(started=started, ends=started + timedelta(minutes=minutes), minutes=minutes)


def current_round(*, tournament: Tournament) -> Round | None:
    """The round the hall looks at: the last one paired."""
    return tournament.rounds.order_by("-number").first()


def late_tables(*, tournament: Tournament, now: datetime | None = None) -> list[Match]:
    """Tables still playing (no result reported) in a round whose clock has run out, by round and
    table: the organiser walks over to them. Two queries whatever the number of rounds."""
    now = now or timezone.now()
    day = DaySettings.objects.filter(tournament_id=tournament.pk).first()
    rows = (
        Match.objects.filter(
            tournament=tournament, bye=False, status=MatchStatus.SCHEDULED, home_eyes__isnull=True,
            round__status=RoundStatus.PLAYING,
        )
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "table", "game")
    )
    clocks: dict[int, RoundClock | None] = {}
    late = []
    for m in rows:
        if m.round_id not in clocks:
            clocks[m.round_id] = round_clock(m.round, tournament=tournament, day=day, day_known=True)
        clock = clocks[m.round_id]
        if clock is not None and clock.over(now):
            m.clock = clock  # the dashboard says when the round ended
            late.append(m)
    return late


def latest_announcement(*, tournament: Tournament) -> Announcement | None:
    return tournament.announcements.filter(withdrawn_at__isnull=True).select_related("author").first()


def announcements(*, tournament: Tournament, limit: int = 10) -> list[Announcement]:
    """The organiser's list on the dashboard: the latest first, withdrawn ones too (marked)."""
    return list(tournament.announcements.select_related("author")[:limit])


@dataclass(frozen=True)
class NameAtTable:
    """One line of the pairings by name: "Name → table 7" (``table`` 0 is a bye)."""

    name: str
    table: int
    seat: str = ""


@dataclass
class HallScreen:
    """Everything the wall screen shows of one tournament, read at once."""

    tournament: Tournament
    round: Round | None
    clock: RoundClock | None
    tables: list[Match]
    names: list[NameAtTable]
    byes: list[str]
    standings: list = field(default_factory=list)
    prizes: list = field(default_factory=list)
    results: list[Match] = field(default_factory=list)
    announcement: Announcement | None = None
    views: list[str] = field(default_factory=list)
    pinned: str = ""
    percentages: list | None = None
    """A duplicate event's running standings (``boards.live_percentages``) in place of the standings;
    None for other formats."""


def _names(rnd: Round, tables: list[Match]) -> tuple[list[NameAtTable], list[str]]:
    """Each player once, alphabetically, with his table: a pair's two players (a substitute sits
    in for the player he replaces that round); in an individual event, his seat too."""
    seats = list(Seat.objects.filter(round=rnd).select_related("entry__player"))
    if seats:
        lines = [NameAtTable(s.entry.player.display_name, s.table, s.get_seat_display())
                 for s in seats if s.seat != SeatName.BYE]
        byes = [s.entry.player.display_name for s in seats if s.seat == SeatName.BYE]
    else:
        lines, byes = [], []
        for m in tables:
            subs = {}
            for entry in (m.home, m.away):
                if entry is None:
                    continue
                for sub in entry.substitutions.all():
                    if sub.round_id == rnd.pk:
                        subs[sub.player_out_id] = sub.player_in
            for entry in (m.home, m.away):
                if entry is None:
                    continue
                for player in (entry.player_a, entry.player_b):
                    name = subs.get(player.pk, player).display_name
                    if m.bye:
                        byes.append(name)
                    else:
                        lines.append(NameAtTable(name, m.table))
    lines.sort(key=lambda line: (line.name.casefold(), line.table))
    byes.sort(key=str.casefold)
    return lines, byes


def hall_screen(*, tournament: Tournament) -> HallScreen:
    """The current round's tables and who sits where, the standings with ratings and prizes, the
    latest results and announcement, and the round clock. A fixed number of queries."""
    rnd = current_round(tournament=tournament)
    tables: list[Match] = []
    names: list[NameAtTable] = []
    byes: list[str] = []
    clock = None
    if rnd is not None:
        rows = list(
            rnd.matches.select_related(*MATCH_RELATED)
            .prefetch_related("home__substitutions__player_in", "away__substitutions__player_in")
            .order_by("bye", "table", "slot", "game")
        )
        names, byes = _names(rnd, rows)
        tables = [m for m in rows if not m.bye]
        clock = round_clock(rnd, tournament=tournament)
    table = shown_standings(tournament=tournament)
    individual = tournament.is_individual
    rated = rating_selectors.entry_ratings([line.entry for line in table.lines], individual=individual)
    results = list(
        Match.objects.filter(tournament=tournament, bye=False, home_eyes__isnull=False)
        .exclude(Q(reported_at__isnull=True) & Q(confirmed_at__isnull=True))
        .select_related(*MATCH_RELATED)
        .order_by("-confirmed_at", "-reported_at", "-id")[:RECENT_RESULTS]
    )
    pinned = tournament.hall_view if tournament.hall_view in HallView.values else ""
    percentages = live_percentages(tournament=tournament) if tournament.is_duplicate else None
    return HallScreen(
        tournament=tournament,
        round=rnd,
        clock=clock,
        tables=tables,
        names=names,
        byes=byes,
        standings=[
            (line, rated.get(line.entry.pk),
             line.prize if table.final else playing_for(tournament, line.row.place))
            for line in table.lines
        ] if percentages is None else [],  # a duplicate's standings count boards still in play
        prizes=prize_list(tournament=tournament),
        results=results,
        announcement=latest_announcement(tournament=tournament),
        views=[pinned] if pinned else list(HallView.values),
        pinned=pinned,
        percentages=percentages,
    )
