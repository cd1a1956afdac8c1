"""Read-only queries for individual events: players, seated rounds, individual standings, the prize list.

A fixed number of queries whatever the number of players (``individual_services.individual_state``
loads every seat in one go).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch

from .core.individual import IndividualStandingRow, individual_standings
from .individual_services import individual_state, points_of
from .models import EntryStatus, IndividualEntry, Match, Round, Seat, SeatName, Tournament, TournamentStatus

SEAT_ORDER = {SeatName.NORTH: 0, SeatName.SOUTH: 1, SeatName.EAST: 2, SeatName.WEST: 3}


def players(*, tournament: Tournament) -> list[IndividualEntry]:
    return list(tournament.individual_entries.select_related("player").order_by("seed", "id"))


def _field(tournament: Tournament) -> list[IndividualEntry]:
    qs = tournament.individual_entries.select_related("player").exclude(status=EntryStatus.PENDING)
    if tournament.status == TournamentStatus.REGISTRATION:
        qs = qs.exclude(status=EntryStatus.WITHDRAWN)
    else:
        qs = qs.filter(seed__gt=0)
    return list(qs.order_by("seed", "id"))


@dataclass
class IndividualLine:
    row: IndividualStandingRow
    entry: IndividualEntry
    prize: str = ""


@dataclass
class IndividualTable:
    lines: list[IndividualLine]
    final: bool


def individual_standings_view(*, tournament: Tournament) -> IndividualTable:
    """Match points, eye difference, eyes, Buchholz of both opponents (``core.individual``). Three queries."""
    entries = _field(tournament)
    by_id = {e.pk: e for e in entries}
    state = individual_state(tournament)
    rows = individual_standings(
        [e.pk for e in entries],
        [r for r in state.results if all(p in by_id for p in r.table.players)],
        [p for p in state.byes if p in by_id],
        points=points_of(tournament),
        withdrawn=[e.pk for e in entries if e.status == EntryStatus.WITHDRAWN],
    )
    final = tournament.status == TournamentStatus.FINISHED
    prizes = tournament.prizes or []
    return IndividualTable(
        lines=[
            IndividualLine(
                row=row,
                entry=by_id[row.player],
                prize=prizes[row.place - 1] if final and row.place <= len(prizes) else "",
            )
            for row in rows
        ],
        final=final,
    )


@dataclass
class PrizeLine:
    place: int
    prize: str
    winners: list[IndividualEntry]


def prize_list(*, tournament: Tournament) -> list[PrizeLine]:
    prizes = tournament.prizes or []
    winners: dict[int, list[IndividualEntry]] = defaultdict(list)
    if tournament.status == TournamentStatus.FINISHED:
        for line in individual_standings_view(tournament=tournament).lines:
            winners[line.row.place].append(line.entry)
    count = max(len(prizes), 3 if winners else 0)
    return [
        PrizeLine(place=p, prize=prizes[p - 1] if p <= len(prizes) else "", winners=winners.get(p, []))
        for p in range(1, count + 1)
    ]


@dataclass
class SeatedTable:
    number: int
    match: Match
    seats: list[Seat] = field(default_factory=list)

    @property
    def north_south(self) -> list[Seat]:
        return self.seats[:2]

    @property
    def east_west(self) -> list[Seat]:
        return self.seats[2:]


@dataclass
class SeatedRound:
    round: Round
    tables: list[SeatedTable]
    byes: list[Seat]


def seated_round(*, tournament: Tournament, number: int) -> SeatedRound:
    """A round's tables with each player's seat (N, S, E, W) and the players sitting out. Three queries."""
    rnd = tournament.rounds.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
        Prefetch("matches", queryset=Match.objects.select_related("home", "away").order_by("table")),
    ).get(number=number)
    tables = {m.pk: SeatedTable(number=m.table, match=m) for m in rnd.matches.all()}
    byes = []
    for s in rnd.seats.all():
        if s.seat == SeatName.BYE:
            byes.append(s)
        elif s.match_id in tables:
            tables[s.match_id].seats.append(s)
    for t in tables.values():
        t.seats.sort(key=lambda s: SEAT_ORDER[s.seat])
    return SeatedRound(
        round=rnd,
        tables=sorted(tables.values(), key=lambda t: t.number),
        byes=sorted(byes, key=lambda s: s.entry.player.display_name),
    )


def seat_rows(*, tournament: Tournament):
    """Every seat of the event, for the CSV/JSON export: round, table, seat, player, result."""
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .select_related("round", "entry__player", "match")
        .order_by("round__number", "table", "seat")
    )
    for s in seats:
        m = s.match
        ours = theirs = None
        if m is not None and m.has_result:
            home = s.seat in (SeatName.NORTH, SeatName.SOUTH)
            ours, theirs = (m.home_eyes, m.away_eyes) if home else (m.away_eyes, m.home_eyes)
        yield {
            "round": s.round.number,
            "table": s.table,
            "seat": s.seat,
            "player": s.entry.player.display_name,
            "player_id": s.entry.player_id,
            "eyes_for": ours,
            "eyes_against": theirs,
            "won": None if ours is None else ours > theirs,
            "no_show": s.absent and bool(m and m.forfeit),
            "status": m.status if m else "bye",
        }
