"""How every change of a table is made: row lock, numbered event, move clock, next task, refusals.

Shared by the services of this package (public names, no service of its own): each locks the
table row with `lock_table`, appends its events with `append_event` (which advances `event_seq`
by compare-and-set and broadcasts on commit), then sets the clock and queues the next task.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine import Phase
from gameplay.engine.games import AnyMatch
from gameplay.engine.table_games import mover
from gameplay.models import Seat, Table, TableEvent, TableStatus
from gameplay.protocol.frames import event_parts, move_seconds, redeal_seconds, table_meta
from gameplay.services import rows, scheduling
from gameplay.tables import broadcast


class TableError(Exception):
    """A refusal with a message for the person who asked; nothing was changed."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class Conflict(Exception):
    """The compare-and-set on event_seq lost: another change committed first."""


@dataclass
class Outcome:
    """The answer to a move: accepted (with its event number) or refused (with a message)."""

    ok: bool
    event_number: int | None = None
    message: str = ""
    code: str = ""
    duplicate: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "n": self.event_number, "message": self.message, "code": self.code,
                "duplicate": self.duplicate}


def lock_table(table_id: int) -> Table:
    """The table, its row locked until the transaction ends; TableError if there is none."""
    table = rows.lock_table(table_id)
    if table is None:
        raise TableError(_("This table does not exist."), "missing")
    return table


def seat_rows(table: Table) -> list[Seat]:
    return rows.seats_of(table)


def row_at(seats: list[Seat], seat: int) -> Seat:
    """The row of the table's `seat` (0..3) among `seats` (a two-seat table has rows at N and S only)."""
    return next(s for s in seats if s.seat == seat)


def append_event(table: Table, kind: str, state: AnyMatch | None, public: dict[str, Any],
                 seats: list[Seat] | None = None, *, move_id: str = "",
                 move_seat: int | None = None) -> TableEvent:
    """Number and store one event, advancing `event_seq` by compare-and-set; broadcast on commit.

    `move_id` / `move_seat`: the client's id of the move that made the event (its receipt)."""
    if seats is None:
        seats = seat_rows(table)
    number = table.event_seq + 1
    private, spectator = event_parts(state, delayed_hands=table.spectators_see_hands_delayed)
    public = {**public, "table": table_meta(table, seats)}
    if not rows.advance_table(table, number):
        raise Conflict
    table.event_seq = number
    event = rows.insert_event(TableEvent(
        table=table, number=number, kind=kind, public=public, private=private, spectator=spectator,
        move_id=move_id or "", move_seat=move_seat if move_id else None,
    ))
    transaction.on_commit(lambda: broadcast.send_event(event), robust=True)
    return event


def set_move_clock(table: Table, state: AnyMatch | None, seats: list[Seat], *,
                   opened: bool = False) -> None:
    """Set the deadline of the seat to move (none for a bot, or when nobody is to move).

    The redeal question has one clock for all four seats, bots included, set when the question
    is put (`opened`: this change dealt a new deal) and left alone by the answers, so that neither
    the clock nor its absence says whose hand qualifies. `decision_event` is then the number of
    the event about to be appended, the one every answer is checked against."""
    if state is not None and state.phase == Phase.REDEAL and table.status == TableStatus.PLAYING:
        if opened or table.decision_event is None:
            table.move_deadline = timezone.now() + timedelta(seconds=redeal_seconds(table))
            table.decision_event = table.event_seq + 1
        return
    table.decision_event = None
    table.move_deadline = None
    if table.status != TableStatus.PLAYING or state is None or state.to_move is None:
        return
    if row_at(seats, mover(state)).is_bot:  # type: ignore[arg-type]
        return
    table.move_deadline = timezone.now() + timedelta(seconds=move_seconds(table))


def queue_next_task(table: Table, state: AnyMatch | None, seats: list[Seat]) -> None:
    """On commit, queue the task of the seat to move: a bot's move, or the move clock.

    For a redeal question just put (its event is the table's last), the question's clock and
    each bot's answer, every one after a pause drawn alike; an answer queues nothing."""
    if table.status != TableStatus.PLAYING or state is None or state.to_move is None:
        return
    table_id, expected = table.pk, table.event_seq
    if state.phase == Phase.REDEAL:
        if table.decision_event != expected:
            return
        seconds = redeal_seconds(table)
        transaction.on_commit(lambda: scheduling.queue_clock(table_id, expected, seconds), robust=True)
        for seat in state.redeal_pending:
            if seats[seat].is_bot:
                level = seats[seat].bot_level
                transaction.on_commit(
                    lambda s=seat, v=level: scheduling.queue_bot_move(table_id, expected, s, v), robust=True)
        return
    row = row_at(seats, mover(state))  # type: ignore[arg-type]
    if row.is_bot:
        level = row.bot_level
        transaction.on_commit(lambda: scheduling.queue_bot_move(table_id, expected, level=level), robust=True)
    else:
        seconds = move_seconds(table)
        transaction.on_commit(lambda: scheduling.queue_clock(table_id, expected, seconds), robust=True)


def current_table(table_id: int, expected_event: int) -> Table | None:
    """The table, its row locked, if it is still playing at `expected_event`; else None.

    A task's check that it is not stale. Most clock tasks are (the move came), so the check is
    first made without a lock: locking the row would make that table's moves wait and cost
    PostgreSQL a transaction ID and a WAL flush. The event number only grows, so a table read as
    moved on stays so; one read as current is read again under the lock.

    A task of a redeal question carries the number of the event that put it: it stays current
    through the answers, until the question closes."""
    row = Table.objects.filter(pk=table_id).values_list("status", "event_seq", "decision_event").first()
    if row is None or not is_current(*row, expected_event):
        return None
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or not is_current(table.status, table.event_seq, table.decision_event, expected_event):
        return None
    return table


def is_current(status: str, event_seq: int, decision_event: int | None, expected_event: int) -> bool:
    """A table still where a task was queued: playing, and at its event (or, in the redeal phase,
    still asking the question whose event the task carries)."""
    return status == TableStatus.PLAYING and expected_event in (event_seq, decision_event)
