"""The end of a match at a live table: by eyes, by the clock or by resignation; the players are told."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.notify import notify_user
from gameplay.engine.cards import SEATS
from gameplay.engine.games import AnyMatch
from gameplay.engine.record_games import write_game_record
from gameplay.engine.table_games import engine_player, sides, table_seat
from gameplay.models import Seat, Table, TableEvent, TableStatus
from gameplay.selectors import load_state, record_with_seed
from gameplay.services.archiving import archive_table
from gameplay.services.changes import Outcome, append_event, lock_table, seat_rows
from gameplay.tables import broadcast


def score_of(state: AnyMatch) -> dict[str, int]:
    """The match's score by side: {"NS", "EW"} for the pairs, {"N", "S"} in Bilka for two."""
    first, second = sides(state)
    return {first: state.capped_score[0], second: state.capped_score[1]}


def finish_locked(table: Table, state: AnyMatch, seats: list[Seat], reason: str,
                  public: dict[str, Any], *, move_id: str = "", move_seat: int | None = None) -> TableEvent:
    """Store the result of the locked table's decided match and append its last event."""
    table.status = TableStatus.FINISHED
    table.finished_at = timezone.now()
    table.move_deadline = None
    table.decision_event = None
    table.record = write_game_record(state)  # a decided match: the record reveals the shuffle seed
    table.record = record_with_seed(table)
    if getattr(state, "boards", None) is not None and state.end is None:
        # a board set played to its last board: no pair wins the table, each board is scored apart
        winner, reason = None, "boards"
    else:
        winner = sides(state)[state.winner or 0]  # a pair (NS, EW), or Bilka for two's player (N, S)
    table.result = {
        "winner": winner,
        "reason": reason,
        "seat": SEATS[table_seat(state, state.end[1])] if state.end else None,
        "score": score_of(state),
    }
    event = append_event(table, "end", state, {**public, "result": table.result}, seats,
                         move_id=move_id, move_seat=move_seat)
    archive_table(table)
    for s in seats:
        if s.user_id:
            notify_user(s.user_id, {"type": "table.finished", "table": table.pk, "result": table.result,
                                    "url": table.get_absolute_url()})
    transaction.on_commit(broadcast.lobby_changed, robust=True)
    return event


@transaction.atomic
def resign(*, table_id: int, seat: int) -> Outcome:
    """The player at `seat` gives up: his pair loses the match."""
    table = lock_table(table_id)
    if table.status != TableStatus.PLAYING:
        return Outcome(ok=False, message=_("The match at this table is over."), code="finished")
    state = load_state(table)
    assert state is not None  # noqa: S101
    state.end_match("resign", engine_player(state, seat))
    event = finish_locked(table, state, seat_rows(table), "resign", {"seat": SEATS[seat]})
    return Outcome(ok=True, event_number=event.number)


@transaction.atomic
def cancel(*, table_id: int) -> Outcome:
    """The match at the table is called off (its tournament pairing was withdrawn or changed): the
    table closes with no winner, the players are told, and nothing is scored. A table already
    over is left as it is."""
    table = lock_table(table_id)
    if table.status == TableStatus.FINISHED:
        return Outcome(ok=False, message=_("The match at this table is over."), code="finished")
    state = load_state(table) if table.status == TableStatus.PLAYING else None
    score = score_of(state) if state is not None else {"NS": 0, "EW": 0}
    table.status = TableStatus.FINISHED
    table.finished_at = timezone.now()
    table.move_deadline = None
    table.decision_event = None
    table.result = {"winner": None, "reason": "cancelled", "seat": None, "score": score}
    table.record = record_with_seed(table)  # called off: the shuffle seed is revealed all the same
    seats = seat_rows(table)
    event = append_event(table, "cancelled", state, {"result": table.result}, seats)
    for s in seats:
        if s.user_id:
            notify_user(s.user_id, {"type": "table.finished", "table": table.pk, "result": table.result,
                                    "url": table.get_absolute_url()})
    transaction.on_commit(broadcast.lobby_changed, robust=True)
    return Outcome(ok=True, event_number=event.number)
