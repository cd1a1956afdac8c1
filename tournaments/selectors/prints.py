"""What the printed pages read: the tournament report and the score sheets of whole best-of series.

The figures come from the same selectors as the pages (standings, the prize list, the rounds, the
audit log), so a print never says other than the site; this module only gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clubs.audit_labels import AuditLine, describe

from ..formats import Standings, format_of
from ..formats.brackets import GROUP
from ..formats.series import tie_outcome
from ..models import Entry, EntryStatus, Match, MatchStatus, Round, Tournament
from . import audit as audit_selectors
from .events import entries, players
from .prizes import PrizeLine, prize_list
from .rounds import rounds_with_matches
from .standings import Column, standings, standings_columns

CORRECTION_ACTION = "match.correct"
"""The audit row of every change an organiser makes to a reported result (forfeits included)."""


def confirmed_corrections(*, tournament: Tournament) -> list[AuditLine]:
    """The arbiter's corrections of results that were already confirmed, oldest first, worded in
    the reader's language with their reasons (``clubs.audit_labels.describe``, as the audit log)."""
    rows = audit_selectors.audit_log(tournament=tournament, kind="match").filter(
        action=CORRECTION_ACTION, before__status=MatchStatus.CONFIRMED
    )
    return [describe(row) for row in reversed(list(rows))]


@dataclass
class Report:
    """The tournament report: the event, its entries, every round, the standings, prizes, corrections."""

    tournament: Tournament
    organiser: str
    entries: list[Any]
    withdrawn: int
    rounds: list[Round]
    table: Standings
    columns: list[Column]
    lines: list[tuple[Any, list]]
    prizes: list[PrizeLine]
    corrections: list[AuditLine]


def report(*, tournament: Tournament) -> Report:
    """Everything the printed report shows, from the pages' own selectors."""
    people = players(tournament=tournament) if tournament.is_individual else entries(tournament=tournament)
    table = standings(tournament=tournament)
    columns = standings_columns(tournament=tournament)
    creator = tournament.created_by
    organiser = ""
    if creator is not None:
        player = getattr(creator, "player", None)
        organiser = getattr(player, "display_name", "") or creator.get_username()
    return Report(
        tournament=tournament,
        organiser=organiser,
        entries=people,
        withdrawn=sum(1 for e in people if e.status == EntryStatus.WITHDRAWN),
        rounds=rounds_with_matches(tournament=tournament),
        table=table,
        columns=columns,
        lines=[(line, [getattr(line.row, c.key) for c in columns]) for line in table.lines],
        prizes=prize_list(tournament=tournament),
        corrections=confirmed_corrections(tournament=tournament),
    )


@dataclass(frozen=True)
class SeriesSheet:
    """One game of a best-of tie as its score sheet prints it. ``match`` is None for a game the site
    has not added yet (it is added once the game before is confirmed and the tie is undecided): its
    PINs are the tie's, which every game of a tie keeps (``services.progress.next_game``)."""

    table: int
    game: int
    best_of: int
    home: Entry
    away: Entry
    home_pin: str
    away_pin: str
    match: Match | None
    if_needed: bool


def series_sheets(*, tournament: Tournament, rnd: Round) -> list[SeriesSheet]:
    """Every game of every tie of a round of a best-of format, those to come included, in table
    order: a game the tie may not need (after a majority of games could already decide it) says
    so; a decided tie prints only the games it played. A format without series prints its matches."""
    fmt = format_of(tournament)
    ties: dict[tuple, list[Match]] = {}
    for m in rnd.matches.all():
        if m.bye:
            continue
        series = fmt.plays_series and m.bracket != GROUP  # a group's matches are never series
        ties.setdefault((m.bracket, m.stage, m.slot) if series else (m.pk,), []).append(m)
    sheets: list[SeriesSheet] = []
    for key, tie in ties.items():
        tie.sort(key=lambda g: g.game)
        last = tie[-1]
        best_of = fmt.tie_best_of(last) if len(key) > 1 else 1
        # A lone match prints its one sheet; only a series reads its games' eyes (a duplicate
        # round's matches are confirmed with none: their scores are the boards').
        decided = best_of > 1 and tie_outcome(tie, best_of).winner is not None
        count = len(tie) if decided else max(best_of, len(tie))
        sure = best_of // 2 + 1  # no tie is decided before this many games
        for game in range(1, count + 1):
            match = tie[game - 1] if game <= len(tie) else None
            sheets.append(
                SeriesSheet(
                    table=last.table, game=game, best_of=best_of, home=last.home, away=last.away,
                    home_pin=(match or last).home_pin, away_pin=(match or last).away_pin,
                    match=match, if_needed=match is None and game > sure,
                )
            )  # fmt: skip
    sheets.sort(key=lambda s: (s.table, s.game))
    return sheets


@dataclass(frozen=True)
class CrosstablePart:
    """A slice of an all-play-all grid's columns (opponents ``first``.. ``first + len(numbers) - 1``)
    with every row: a field of 40 to 60 pairs prints as a few such tables, each with its names."""

    numbers: list[int]
    rows: list[tuple[int, Any, list[tuple[bool, list[str]]]]]
    last: bool


CROSSTABLE_COLUMNS = 20
"""Opponent columns in one printed table of an all-play-all grid: on A4 landscape a cell of 20
keeps two scores ("12:7 3:12") legible at 7 points."""


def crosstable_parts(grid: Any, *, width: int = CROSSTABLE_COLUMNS) -> list[CrosstablePart]:
    """``selectors.crosstable``'s grid cut into tables of at most ``width`` opponent columns, as even
    as they come (not 20, 20 and 2); each cell says whether it is the row's own (the grey diagonal)."""
    count = len(grid.entries)
    width = -(-count // -(-count // width)) if count else width  # even parts: 42 prints as 3 × 14
    parts = []
    for start in range(0, max(count, 1), width):
        numbers = list(range(start + 1, min(start + width, count) + 1))
        rows = [
            (i, line, [(n == i, cells[n - 1]) for n in numbers])
            for i, (line, cells) in enumerate(grid.rows, start=1)
        ]
        parts.append(CrosstablePart(numbers=numbers, rows=rows, last=start + width >= count))
    return parts
