"""Standings, the crosstable and the league's coming matchdays, each as its format says.

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
from .prizes import entry_prizes


def standings(*, tournament: Tournament) -> Standings:
    """The table of pairs (or players) by match points and the format's tiebreaks, each line with
    its prizes once the event is finished (the one allocation, ``prizes.entry_prizes``)."""
    table = format_of(tournament).standings()
    if table.final:
        won = entry_prizes(tournament, table)
        for line in table.lines:
            line.prize = won.get(line.entry.pk, "")
    return table


def shown_standings(*, tournament: Tournament) -> Standings:
    """``standings`` as the standings page and the API show them, worked out once for both and kept
    until the tournament changes (``fresh``): after a result the page and the API each ranked a
    256-pair Swiss again, at once, in the one server process. Only for showing: a service deciding
    from the standings (pairing, prizes) reads the rows in its own transaction with ``standings``."""
    from config import fresh

    return fresh.cached("standings-table", tournament.slug,
                        lambda: (standings(tournament=tournament), True), current=True)


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


REQUESTED_BYES_COLUMN = Column("requested_byes", _("RB"), _("Requested byes (rounds sat out at the ask)"))


def standings_columns(*, tournament: Tournament) -> list[Column]:
    """The columns of the standings table: points, played, eye difference, then a column for each
    tiebreak the event states, in its order. A bracket event's places come from the bracket, so
    it shows no tiebreak columns. An event that grants requested byes counts them after "played"."""
    fmt = format_of(tournament)
    if fmt.places_from_bracket:
        return list(FIXED_COLUMNS)
    fixed = list(FIXED_COLUMNS)
    if fmt.grants_byes and tournament.bye_requests:
        fixed.insert(2, REQUESTED_BYES_COLUMN)
    return [*fixed, *(TIEBREAK_COLUMNS[t] for t in fmt.tiebreak_order() if t in TIEBREAK_COLUMNS)]


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


@dataclass(frozen=True)
class RoundCell:
    """One pair's round in a Swiss crosstable: whom it met (the opponent's line number in the
    table), where it sat ("NS": the pair listed first takes North-South, "EW") and the score."""

    opponent: int | None = None
    seat: str = ""
    score: str = ""
    won: bool | None = None
    bye: bool = False
    requested: str = ""
    """A bye the pair asked for: what it scored (``ByeKind``); empty for the pairing's bye."""


@dataclass
class RoundCrosstable:
    rounds: list[int]
    rows: list[tuple[int, StandingLine, list[RoundCell | None]]]


def round_crosstable(*, tournament: Tournament) -> RoundCrosstable:
    """A Swiss crosstable in standings order: for every round, the opponent (by his line number),
    the seat and the score, as chess crosstables show it. Two queries beside the standings."""
    table = standings(tournament=tournament)
    number = {line.entry.pk: i for i, line in enumerate(table.lines, start=1)}
    rounds = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    cells: dict[tuple[int, int], RoundCell] = {}
    for m in Match.objects.filter(tournament=tournament).select_related("round").order_by("round__number"):
        r = m.round.number
        if m.bye:
            cells[(m.home_id, r)] = RoundCell(bye=True, requested=m.requested_bye)
            continue
        confirmed = m.status == MatchStatus.CONFIRMED
        for me, other, seat, mine, theirs in (
            (m.home_id, m.away_id, "NS", m.home_eyes, m.away_eyes),
            (m.away_id, m.home_id, "EW", m.away_eyes, m.home_eyes),
        ):
            cells[(me, r)] = RoundCell(
                opponent=number.get(other),
                seat=seat,
                score=f"{mine}:{theirs}" if confirmed else "",
                won=(m.winner_id == me) if confirmed else None,
            )
    rows = [
        (i, line, [cells.get((line.entry.pk, r)) for r in rounds])
        for i, line in enumerate(table.lines, start=1)
    ]
    return RoundCrosstable(rounds=rounds, rows=rows)


def coming_matchdays(*, tournament: Tournament) -> list[Fixture]:
    """A league's matchdays not paired yet, from the same Berger table the pairing will use."""
    fmt = format_of(tournament)
    if not isinstance(fmt, RoundRobin) or tournament.status != TournamentStatus.RUNNING:
        return []
    return fmt.coming_matchdays()
