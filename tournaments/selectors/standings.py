"""Standings, the crosstable, the prize list and the league's coming matchdays, each as its format says.

Each runs a fixed number of SQL queries whatever the number of entries (tested).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

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


@dataclass(frozen=True)
class Column:
    """A figure of the standings table: the row's attribute, its short head and what it means."""

    key: str
    short: str
    meaning: str


FIXED_COLUMNS = (
    Column("match_points", _("Pts"), _("Match points")),
    Column("played", _("P"), _("Played")),
    Column("eye_difference", "±", _("Eye difference")),
)
TIEBREAK_COLUMNS = {
    Tiebreak.EYES_SCORED: Column("eyes_for", _("Eyes"), _("Eyes scored")),
    Tiebreak.BUCHHOLZ: Column("buchholz", _("Bh"), _("Buchholz")),
    Tiebreak.SONNEBORN_BERGER: Column("sonneborn_berger", _("SB"), _("Sonneborn-Berger")),
    Tiebreak.LUCY: Column("lucy", _("L"), _("Lucy deals")),
}
"""The tiebreaks with a figure of their own (head-to-head has none; eye difference is "±")."""


def standings_columns(*, tournament: Tournament) -> list[Column]:
    """The columns of the standings table: points, played, eye difference, then a column for each
    tiebreak the event states, in its order. A bracket event's places come from the bracket, so
    it shows no tiebreak columns."""
    fmt = format_of(tournament)
    if fmt.places_from_bracket:
        return list(FIXED_COLUMNS)
    return [*FIXED_COLUMNS, *(TIEBREAK_COLUMNS[t] for t in fmt.tiebreak_order() if t in TIEBREAK_COLUMNS)]


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
