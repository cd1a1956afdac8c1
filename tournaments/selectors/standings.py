"""Standings, the crosstable, the prize list and the league's coming matchdays, each as its format says.

Each runs a fixed number of SQL queries whatever the number of entries (tested).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..core.tiebreaks import Tiebreak
from ..formats import StandingLine, Standings, format_of
from ..formats.round_robin import Fixture, RoundRobin
from ..models import Match, MatchStatus, Tournament, TournamentStatus


def standings(*, tournament: Tournament) -> Standings:
    """The table of pairs (or players) by match points and the format's tiebreaks."""
    return format_of(tournament).standings()


def tiebreak_order(tournament: Tournament) -> list[Tiebreak]:
    """The tiebreaks as the event states them (its own order, or its format's default)."""
    return format_of(tournament).tiebreak_order()


@dataclass
class Crosstable:
    entries: list
    cells: dict[tuple[int, int], list[str]]
    rows: list[tuple[StandingLine, list[list[str]]]] = field(default_factory=list)


def crosstable(*, tournament: Tournament) -> Crosstable:
    """All-play-all grid in standings order; each cell lists the row pair's scores against the column."""
    table = standings(tournament=tournament)
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for m in Match.objects.filter(tournament=tournament, bye=False, status=MatchStatus.CONFIRMED).order_by(
        "round__number"
    ):
        cells[(m.home_id, m.away_id)].append(f"{m.home_eyes}:{m.away_eyes}")
        cells[(m.away_id, m.home_id)].append(f"{m.away_eyes}:{m.home_eyes}")
    order = [line.entry for line in table.lines]
    result = Crosstable(entries=order, cells=cells)
    for line in table.lines:
        result.rows.append((line, [cells.get((line.entry.pk, other.pk), []) for other in order]))
    return result


@dataclass
class PrizeLine:
    place: int
    prize: str
    winners: list


def prize_list(*, tournament: Tournament) -> list[PrizeLine]:
    """The prizes by place with their winners once the tournament is finished (shared places share)."""
    prizes = tournament.prizes or []
    winners = format_of(tournament).prize_winners()
    count = max(len(prizes), 3 if winners else 0)
    return [
        PrizeLine(place=p, prize=prizes[p - 1] if p <= len(prizes) else "", winners=winners.get(p, []))
        for p in range(1, count + 1)
    ]


def coming_matchdays(*, tournament: Tournament) -> list[Fixture]:
    """A league's matchdays not paired yet, from the same Berger table the pairing will use."""
    fmt = format_of(tournament)
    if not isinstance(fmt, RoundRobin) or tournament.status != TournamentStatus.RUNNING:
        return []
    return fmt.coming_matchdays()
