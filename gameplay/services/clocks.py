"""What the tasks do at a live table: the bot to move plays, a move clock runs out (grace, forfeit).

Each carries the event number its task was queued for and does nothing once the table has
moved on (`current_table`), so a task that runs twice or late changes nothing.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from gameplay import broadcast, scheduling
from gameplay.engine.bot import choose_action
from gameplay.engine.cards import SEATS
from gameplay.models import Seat, Table, TableStatus
from gameplay.protocol.frames import grace_seconds
from gameplay.selectors import load_state
from gameplay.services.changes import Conflict, seat_rows
from gameplay.services.ending import finish_locked
from gameplay.services.moves import apply_locked
from gameplay.services.state_cache import keep_on_commit, take_state


def current_table(table_id: int, expected_event: int) -> Table | None:
    """The table, its row locked, if it is still playing at `expected_event`; else None.

    A task's check that it is not stale. Most clock tasks are (the move came), so the check is
    first made without a lock: locking the row would make that table's moves wait and cost
    PostgreSQL a transaction ID and a WAL flush. The event number only grows, so a table read as
    moved on stays so; one read as current is read again under the lock."""
    row = Table.objects.filter(pk=table_id).values_list("status", "event_seq").first()
    if row is None or row != (TableStatus.PLAYING, expected_event):
        return None
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or (table.status, table.event_seq) != (TableStatus.PLAYING, expected_event):
        return None
    return table


@transaction.atomic
def bot_move(*, table_id: int, expected_event: int, rng: random.Random | None = None) -> str:
    """Let the bot to move play, if the table is still where the task was queued; else nothing."""
    table = current_table(table_id, expected_event)
    if table is None:
        return "stale"
    state = take_state(table)
    if state is None or state.to_move is None:
        return "stale"
    seat = Seat.objects.filter(table=table, seat=state.to_move).first()
    if seat is None or not seat.is_bot:
        return "not_a_bot"
    rng = rng or random.Random()  # noqa: S311 - a bot, not a secret
    action = choose_action(state.observation(state.to_move), rng)
    try:
        apply_locked(table, state, state.to_move, action)
    except Conflict:
        return "stale"
    keep_on_commit(table, state)
    return "moved"


@transaction.atomic
def clock_expired(*, table_id: int, expected_event: int) -> str:
    """The move clock of the seat to move ran out: spend its disconnection grace, or forfeit."""
    table = current_table(table_id, expected_event)
    if table is None:
        return "stale"
    if table.move_deadline is None:
        return "stale"
    now = timezone.now()
    left = (table.move_deadline - now).total_seconds()
    if left > 0.05:
        table_id_, seq = table.pk, table.event_seq
        transaction.on_commit(lambda: scheduling.queue_clock(table_id_, seq, left), robust=True)
        return "early"
    state = load_state(table)
    assert state is not None and state.to_move is not None  # noqa: S101
    seats = seat_rows(table)
    mover = seats[state.to_move]
    if not mover.connected and mover.disconnected_at is not None:
        used = mover.grace_used + (now - mover.disconnected_at).total_seconds()
        grace_left = grace_seconds() - used
        if grace_left > 0.05:
            Table.objects.filter(pk=table.pk).update(move_deadline=now + timedelta(seconds=grace_left))
            table_id_, seq = table.pk, table.event_seq
            transaction.on_commit(lambda: scheduling.queue_clock(table_id_, seq, grace_left), robust=True)
            transaction.on_commit(lambda: broadcast.send_presence(table_id_), robust=True)
            return "grace"
    state.end_match("timeout", state.to_move)
    finish_locked(table, state, seats, "timeout", {"seat": SEATS[mover.seat]})
    return "timeout"
