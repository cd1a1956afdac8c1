"""The one interface every tournament format stands behind, and what the formats share.

A format says how its next round is drawn (``next_round``: a plan of plain data that
``services.rounds`` writes), how many rounds it has, when it is over, its standings, tiebreaks
and places, and which pages it has. It reads rows but never writes them: the services own every
change. Adding a format is one class in one file of this package, registered in ``__init__``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from ..core.seating import PlayerId, Table
from ..core.standings import MatchPoints, MatchResult, StandingRow, compute_standings
from ..core.tiebreaks import SWISS_TIEBREAKS, Tiebreak
from ..models import (
    WAITING_STATUSES,
    ByeRequest,
    Entry,
    EntryStatus,
    Match,
    MatchStatus,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from .places import follow_places

ENTRY_PLAYERS = ("player_a", "player_b")


@dataclass(frozen=True)
class Game:
    """One match of a round to draw, or a bye (``away`` None), with its table and place in the bracket."""

    home: int
    away: int | None
    table: int = 0
    slot: int = 0
    bracket: str = ""
    stage: int = 0
    requested: str = ""
    """A bye the pair asked for: what it scores (``ByeKind``); empty for the pairing's bye."""


@dataclass
class RoundPlan:
    """What the next round is. Pairs formats give ``games`` between entries; individual events give
    ``tables`` of four players and the players sitting out (``byes``), ``players`` their rows.

    ``audit``: what the round's audit row keeps, when the format says more than the matches written.
    """

    games: list[Game] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    byes: list[PlayerId] = field(default_factory=list)
    players: dict[PlayerId, Any] = field(default_factory=dict)
    audit: dict | None = None
    requested: dict[PlayerId, str] = field(default_factory=dict)
    """Individual events: the players sitting the round out at their own ask, and what it scores."""


@dataclass
class StandingLine:
    row: StandingRow
    entry: Any
    """The pair (an ``Entry``), or in an individual event the player (an ``IndividualEntry``)."""
    prize: str = ""
    last_place: int = 0
    """The last place a shared place covers (8 for "5–8"), where the bracket decides the places."""

    @property
    def place_label(self) -> str:
        """ "3", "5–8" (a bracket's shared place) or "4=" (a tie on everything in a table)."""
        place = self.row.place
        if self.last_place > place:
            return f"{place}\u2013{self.last_place}"
        return f"{place}=" if self.row.shared else str(place)


@dataclass
class Standings:
    lines: list[StandingLine]
    tiebreaks: list[str]
    final: bool


def matchday_deadline(tournament: Tournament, number: int) -> datetime | None:
    """A league's matchday ``number`` is due ``matchday_days`` days after the previous one, at 23:59."""
    if not tournament.matchday_days:
        return None
    day = tournament.starts_on + timedelta(days=tournament.matchday_days * number)
    return timezone.make_aware(datetime.combine(day, time(23, 59)))


def points_of(tournament: Tournament) -> MatchPoints:
    return MatchPoints(win=tournament.points_win, loss=tournament.points_loss, bye=tournament.points_bye)


def results_of(matches: Sequence[Match]) -> list[MatchResult]:
    """The confirmed matches and byes as the pure standings read them (load them with their round)."""
    return [
        _result_of_row(
            m.home_id,
            m.away_id,
            m.home_eyes,
            m.away_eyes,
            m.winner_id,
            m.home_lucy,
            m.away_lucy,
            m.forfeit,
            m.bye,
            m.round.number,
            m.requested_bye,
        )
        for m in matches
        if m.status == MatchStatus.CONFIRMED
    ]


#: What ``results_of`` reads of a match, in ``_result_of_row``'s order.
RESULT_FIELDS = (
    "home_id",
    "away_id",
    "home_eyes",
    "away_eyes",
    "winner_id",
    "home_lucy",
    "away_lucy",
    "forfeit",
    "bye",
    "round__number",
    "requested_bye",
)


def _result_of_row(
    home, away, home_eyes, away_eyes, winner, home_lucy, away_lucy, forfeit, bye, number, requested=""
) -> MatchResult:
    if bye:
        return MatchResult(home=home, away=None, bye=True, round=number, requested=requested)
    return MatchResult(
        home=home,
        away=away,
        home_eyes=home_eyes,
        away_eyes=away_eyes,
        winner=winner,
        home_lucy=home_lucy,
        away_lucy=away_lucy,
        forfeit=forfeit,
        round=number,
    )


def confirmed_results(tournament: Tournament, entries: dict) -> list[MatchResult]:
    """``results_of`` the tournament's confirmed matches between ``entries`` (ids), read as plain
    rows: a 256-pair Swiss's 1,300 matches made as model instances, each with its round, were
    most of its standings' time, and a result is on the public pages only once they are
    worked out again (bench/web/load.py)."""
    rows = Match.objects.filter(tournament=tournament, status=MatchStatus.CONFIRMED).values_list(
        *RESULT_FIELDS
    )
    return [
        _result_of_row(*row) for row in rows if row[0] in entries and (row[1] is None or row[1] in entries)
    ]


def requested_byes(tournament: Tournament, number: int, *, individual: bool) -> dict[int, str]:
    """The entries (players, in an individual event) that asked to sit out round ``number`` and
    have not taken the ask back: entry id -> what the bye scores (``services.byes``)."""
    column = "individual_entry_id" if individual else "entry_id"
    rows = ByeRequest.objects.filter(tournament=tournament, round_number=number, withdrawn_at__isnull=True)
    return dict(rows.values_list(column, "kind"))


def check_round_number(number: int, total: int) -> None:
    if number > total:
        raise ValidationError(_("All %(n)d rounds have been paired.") % {"n": total})


class TournamentFormat:
    """A format of pairs; individual events override what differs (``formats.players``)."""

    code: ClassVar[str]
    plays_alone: ClassVar[bool] = False
    """Players enter alone and get a new partner every round (tables of four)."""
    late_entries: ClassVar[bool] = False
    """Entries may still come once round 1 is paired (Swiss-style rounds)."""
    rounds_from_setting: ClassVar[bool] = False
    """The organiser sets how many rounds (``swiss_rounds``); it cannot be less than those paired."""
    eliminates: ClassVar[bool] = False
    """Results decide who plays next: a winner changed after the next round is paired is refused."""
    plays_series: ClassVar[bool] = False
    """A tie is a best-of-N series: ``services.rounds`` adds its next game until it is decided."""
    places_from_bracket: ClassVar[bool] = False
    """The final places follow the bracket (``bracket_places``), not the standings table."""
    standings_page: ClassVar[str] = "table"
    """What the standings page shows: "table" (pairs), "players" or "bracket"."""
    pages: ClassVar[frozenset[str]] = frozenset()
    """Pages of its own beside the common ones: "crosstable", "bracket"."""
    default_tiebreaks: ClassVar[tuple[Tiebreak, ...]] = SWISS_TIEBREAKS
    grants_byes: ClassVar[bool] = False
    """An entry may ask to sit out a round not yet paired (``services.byes``): rounds drawn one by
    one from the scores, where leaving an entry out harms nobody's bracket."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    # --- the field ------------------------------------------------------------------------------

    def field(self) -> list[Entry]:
        """The entries that took part from the start (seeded), in seed order, withdrawn ones included."""
        return list(
            self.tournament.entries.filter(seed__gt=0)
            .exclude(status__in=WAITING_STATUSES)
            .order_by("seed", "id")
        )

    def field_size(self) -> int:
        return self.tournament.entries.filter(seed__gt=0).exclude(status__in=WAITING_STATUSES).count()

    def entries(self):
        """The event's entries: its pairs here, its players in an individual event."""
        return self.tournament.entries

    def entry_rows(self):
        """The event's entries with who they are."""
        return self.entries().select_related(*ENTRY_PLAYERS)

    def ranked_entries(self) -> list[Entry]:
        """Entries that belong in the table: the seeded field once started, else every approved one."""
        qs = self.entry_rows().exclude(status__in=WAITING_STATUSES)
        if self.tournament.status == TournamentStatus.REGISTRATION:
            qs = qs.exclude(status=EntryStatus.WITHDRAWN)
        else:
            qs = qs.filter(seed__gt=0)
        return list(qs.order_by("seed", "id"))

    def rounds_notice(self) -> str:
        """What the organiser should know about the number of rounds before the start ("" if nothing)."""
        return ""

    def check_start(self, entries: Sequence[Any]) -> None:
        """Refuse a field that cannot start (called when round 1 is paired)."""
        if len(entries) < 2:
            raise ValidationError(_("At least two approved pairs are needed to start."))

    # --- rounds ---------------------------------------------------------------------------------

    def round_count(self, field_size: int) -> int:
        raise NotImplementedError

    def takes_late_entries(self) -> bool:
        """Whether an entry may still come once the event runs: a format that takes late entries,
        while a round is still to be paired (a pair entering after the last one would play nothing)."""
        if not self.late_entries:
            return False
        return self.tournament.rounds.count() < self.round_count(self.field_size())

    def next_round(self, number: int) -> RoundPlan:
        """The games of round ``number``; raises ValidationError when it cannot be drawn."""
        raise NotImplementedError

    def tie_best_of(self, match: Match) -> int:
        """How many games the tie ``match`` belongs to is played over (``plays_series`` formats)."""
        return 1

    def finished(self, rounds: Sequence[Any]) -> bool:
        """Every round is complete and there are as many as the format plays."""
        return (
            bool(rounds)
            and all(r.status == RoundStatus.COMPLETE for r in rounds)
            and len(rounds) >= self.round_count(self.field_size())
        )

    # --- standings and places -------------------------------------------------------------------

    def tiebreak_order(self) -> list[Tiebreak]:
        return [Tiebreak(t) for t in (self.tournament.tiebreaks or self.default_tiebreaks)]

    def standings(self) -> Standings:
        """The table by match points and the tournament's tiebreak order (core.standings). Two queries."""
        tournament = self.tournament
        field_entries = self.ranked_entries()
        by_id = {e.pk: e for e in field_entries}
        order = self.tiebreak_order()
        rows = compute_standings(
            [e.pk for e in field_entries],
            confirmed_results(tournament, by_id),
            points=points_of(tournament),
            tiebreaks=order,
            withdrawn=[e.pk for e in field_entries if e.status == EntryStatus.WITHDRAWN],
        )
        ranked = [(row, 0) for row in rows]
        if self.places_from_bracket and len(field_entries) >= 2:
            places = self.bracket_places(field_entries)
            if places:  # the champion is known: the bracket decides, not the points
                ranked = follow_places(rows, places)
        return self._standings(ranked, by_id, [t.value for t in order])

    def _standings(
        self, ranked: list[tuple[StandingRow, int]], by_id: dict, tiebreaks: list[str]
    ) -> Standings:
        """Lines from (row, last place shared) pairs; the prizes are the selectors' (``selectors.prizes``)."""
        final = self.tournament.status == TournamentStatus.FINISHED
        lines = [
            StandingLine(
                row=row,
                entry=by_id[row.entry],
                last_place=last,
            )
            for row, last in ranked
        ]
        return Standings(lines=lines, tiebreaks=tiebreaks, final=final)

    def places(self) -> list[tuple[int, Any]]:
        """The final places (place, entry), shared places repeated: from the bracket where the format
        has one (``bracket_places``), else from the standings."""
        if not self.places_from_bracket:
            return [(line.row.place, line.entry) for line in self.standings().lines]
        field = self.ranked_entries()
        if len(field) < 2:
            return []
        by_id = {e.pk: e for e in field}
        return [(place, by_id[e]) for place, e in self.bracket_places(field)]

    def bracket_places(self, field: list) -> list[tuple[int, int]]:
        """Places (place, entry id) as the bracket decides them (``places_from_bracket`` formats)."""
        raise NotImplementedError
