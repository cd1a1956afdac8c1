"""Online duplicate rounds: each live table dealt its match's board set, and its boards' results taken.

A duplicate event's match plays the board set of its ``slot`` (``formats.duplicate.set_boards``).
Online, its live table is dealt exactly those boards from the event seed (``bilka-board/1``,
``gameplay.engine.boards``): no shuffle, no redeal, the set's suits fixed by its first board, and
the table ends after the last board. The table holds only its own set's hands, never the seed.

When the table ends, each board's NS card points become the match's ``BoardResult`` rows
(``entered_how = "online"``) and the match is confirmed as a table that typed its results in would
be. A table ended early by a resignation or the clock: the boards it did not finish get adjusted
scores, average minus for the pair at fault and average plus for the other (docs/duplicate.md).
The record is checked first (``check_board_record``): every board dealt as the event seed deals it,
so a table's refusal writes nothing.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy

from gameplay.engine import EngineError, MatchState, Rules, read_record
from gameplay.engine.boards import BoardSet
from gameplay.engine.cards import SEATS

from ..formats.duplicate import event_seed, set_boards
from ..models import Adjusted, BoardResult, Match, MatchStatus, Tournament

#: Why a duplicate table's result is not taken, beside ``live.REFUSALS`` (which includes these).
BOARD_REFUSALS = {
    "no_board_seed": gettext_lazy("This event has no boards' seed yet, so its tables cannot be dealt."),
    "not_the_boards": gettext_lazy("Table %(n)d did not play this match's boards (%(error)s)."),
}
ONLINE = "online"


def _refuse(code: str, **params) -> ValidationError:
    return ValidationError(BOARD_REFUSALS[code], code=code, params=params)


def board_set_for(match: Match, tournament: Tournament) -> BoardSet:
    """The boards the table of ``match`` plays, dealt from the event seed (its hands are secret)."""
    seed = event_seed(tournament)
    if seed is None:
        raise _refuse("no_board_seed")
    deck = Rules.from_json(tournament.rules or {}).deck
    return BoardSet.from_seed(seed, set_boards(tournament, match.slot), deck=deck, event=tournament.slug)


def _replayed(table) -> MatchState:
    try:
        return read_record(table.record or {})
    except EngineError as error:
        raise _refuse("not_the_boards", n=table.pk, error=str(error)) from error


def check_board_record(match: Match, table, tournament: Tournament) -> MatchState:
    """The finished table's record is this match's board set, each board dealt as the event seed
    deals it, and it ended as the table says: after the last board, or by a resignation or the clock.
    Returns the replayed state; raises a ValidationError whose code is a key of ``BOARD_REFUSALS``."""
    expected = board_set_for(match, tournament)
    state = _replayed(table)
    n = table.pk
    if state.boards is None:
        raise _refuse("not_the_boards", n=n, error="the record names no board set")
    if state.boards.numbers != expected.numbers or state.boards.commitment != expected.commitment:
        raise _refuse("not_the_boards", n=n, error=f"boards {list(state.boards.numbers)}")
    for k, log in enumerate(state.deals, start=1):
        if log.hands != expected.hands(k):
            raise _refuse("not_the_boards", n=n, error=f"board {expected.board(k)} was dealt other cards")
    result = table.result or {}
    if state.end is not None:
        ended = {"reason": state.end[0], "seat": SEATS[state.end[1]]}
    elif state.deals_finished == len(expected.numbers):
        ended = {"reason": "boards", "seat": None}
    else:
        raise _refuse("not_the_boards", n=n, error="the set was not played to its last board")
    if {key: result.get(key) for key in ended} != ended:
        raise _refuse("not_the_boards", n=n, error=f"the table says {result.get('reason')!r}")
    return state


def board_rows(match: Match, state: MatchState, tournament: Tournament) -> list[BoardResult]:
    """The match's board results from the replayed table, unsaved: NS's card points on every board
    played to its end; on the others (the table ended early) average minus for the pair at fault,
    average plus for the other."""
    now = timezone.now()
    at_fault = state.end[1] % 2 if state.end is not None else None
    rows = []
    for k, board in enumerate(set_boards(tournament, match.slot), start=1):
        row = BoardResult(match=match, board=board, entered_by=None, entered_how=ONLINE, entered_at=now)
        log = state.deals[k - 1] if k <= len(state.deals) else None
        if log is not None and log.outcome is not None:
            row.ns_points = log.points[0]
        else:
            row.ns_adjusted = Adjusted.MINUS if at_fault == 0 else Adjusted.PLUS
            row.ew_adjusted = Adjusted.MINUS if at_fault == 1 else Adjusted.PLUS
        rows.append(row)
    return rows


def save_board_results(match: Match, state: MatchState, tournament: Tournament) -> list[BoardResult]:
    """Write the checked table's boards and confirm the match (in the caller's transaction, the match
    locked). A board the organiser already entered keeps his result. Returns the rows written."""
    existing = set(match.board_results.select_for_update().values_list("board", flat=True))
    written = [row for row in board_rows(match, state, tournament) if row.board not in existing]
    BoardResult.objects.bulk_create(written)
    now = timezone.now()
    match.reported_at, match.reported_side = now, "table"
    match.played_at = match.played_at or now
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at, match.confirmed_how = None, now, "table"
    match.save(update_fields=["reported_at", "reported_side", "played_at", "status", "confirmed_by",
                              "confirmed_at", "confirmed_how", "live_table", "reported_by"])
    return written


def board_rows_text(rows: list[BoardResult]) -> str:
    """The boards written, as the audit log keeps them: "5: 74, 6: plus/minus"."""
    said = (r.ns_points if r.ns_points is not None else f"{r.ns_adjusted}/{r.ew_adjusted}" for r in rows)
    return ", ".join(f"{r.board}: {text}" for r, text in zip(rows, said, strict=True))
