"""What the tasks do at a live table: the bot to move plays, a move clock runs out (grace, forfeit),
and a table whose task was lost gets it again (`requeue_lost_tasks`).

Each carries the event number its task was queued for and does nothing once the table has
moved on (`current_table`), so a task that runs twice or late changes nothing.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from gameplay.engine import Phase
from gameplay.engine.cards import SEATS
from gameplay.engine.games import AnyMatch
from gameplay.engine.record_games import write_game_record
from gameplay.engine.table_games import bot_action
from gameplay.engine.table_games import mover as table_mover
from gameplay.models import BotLevel, Seat, Table, TableEvent, TableStatus
from gameplay.protocol.frames import grace_seconds
from gameplay.selectors import load_state
from gameplay.services import scheduling
from gameplay.services.bot_thinking import bot_to_answer
from gameplay.services.changes import (
    Conflict,
    append_event,
    current_table,
    queue_next_task,
    row_at,
    seat_rows,
    set_move_clock,
)
from gameplay.services.ending import finish_locked
from gameplay.services.moves import apply_locked
from gameplay.services.state_cache import keep_on_commit, take_state
from gameplay.tables import broadcast

logger = logging.getLogger(__name__)


@transaction.atomic
def bot_move(*, table_id: int, expected_event: int, seat: int | None = None,
             rng: random.Random | None = None) -> str:
    """Let the beginner bot to move play, if the table is still where the task was queued; else nothing.

    In the redeal phase the bot at `seat` answers (without `seat`: the first bot yet to answer),
    from its own observation, as a person would. The beginner decides in microseconds, so it
    decides under the lock; a bot of another level thinks outside it (`bot_think`, on the bots'
    queue), and is left alone here ("other_level")."""
    table = current_table(table_id, expected_event)
    if table is None:
        return "stale"
    state = take_state(table)
    if state is None:
        return "stale"
    row, why = bot_to_answer(table, state, seat)
    if row is None:
        return why
    if row.bot_level != BotLevel.BEGINNER:
        keep_on_commit(table, state)  # unchanged: back into the cache
        return "other_level"
    rng = rng or random.Random()  # noqa: S311 - a bot, not a secret
    action = bot_action(row.bot_level, state, row.seat, rng)
    try:
        apply_locked(table, state, row.seat, action)
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
        table_id_, seq = table.pk, table.decision_event or table.event_seq
        transaction.on_commit(lambda: scheduling.queue_clock(table_id_, seq, left), robust=True)
        return "early"
    state = load_state(table)
    assert state is not None and state.to_move is not None  # noqa: S101
    seats = seat_rows(table)
    if state.phase == Phase.REDEAL:
        return _close_redeal_question(table, state, seats)
    mover = row_at(seats, table_mover(state))  # type: ignore[arg-type]
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


def _close_redeal_question(table: Table, state: AnyMatch, seats: list[Seat]) -> str:
    """The redeal question's time ran out: whoever has not answered plays (no forfeit, no grace
    spent), and the play begins in one event that names nobody."""
    state.end_redeal_phase()
    table.record = write_game_record(state)
    set_move_clock(table, state, seats)
    try:
        append_event(table, "move", state, {"seat": None, "action": "play"}, seats)
    except Conflict:
        return "stale"
    queue_next_task(table, state, seats)
    keep_on_commit(table, state)
    return "closed"


def requeue_lost_tasks(now: datetime | None = None) -> list[int]:
    """Queue again the task of every playing table that has waited for it far too long; returns
    those tables.

    A change queues its table's next task only after it commits, and in a move worker a thread of
    that process sends it (`scheduling.send_in_background`): a process killed between the commit
    and the send loses the task, and the table would wait for ever, a person's clock that never
    runs out or a bot that never plays. So the beat looks for tables whose deadline (a person's
    move clock, the redeal question's) passed `GAMEPLAY_LOST_TASK_SECONDS` ago, and tables with a
    bot to move and no event for that long beyond a bot's pause and thinking budget, and queues
    their task again. A task is checked against the event it was queued for, so one that was
    merely late and runs after its copy changes nothing."""
    if not scheduling.enabled():
        return []
    now = now or timezone.now()
    late = timedelta(seconds=float(getattr(settings, "GAMEPLAY_LOST_TASK_SECONDS", 30)))
    playing = Table.objects.filter(status=TableStatus.PLAYING)
    requeued = []
    for table_id, seq, decision in (playing.filter(move_deadline__lt=now - late).order_by("pk")
                                    .values_list("pk", "event_seq", "decision_event")):
        scheduling.queue_clock(table_id, decision or seq, 0)
        requeued.append(table_id)
    bot_time = timedelta(seconds=scheduling.longest_bot_pause() + float(settings.BOT_BUDGET))
    last_event = TableEvent.objects.filter(table=OuterRef("pk"), number=OuterRef("event_seq"))
    waiting = (playing.filter(move_deadline__isnull=True)
               .annotate(last_event_at=Subquery(last_event.values("created_at")[:1]))
               .filter(last_event_at__lt=now - late - bot_time).order_by("pk"))
    for table in waiting:
        state = load_state(table)
        if state is None or state.to_move is None or state.phase == Phase.REDEAL:
            continue  # the redeal question always runs a clock: the first loop's
        mover = row_at(seat_rows(table), table_mover(state))  # type: ignore[arg-type]
        if mover.is_bot:
            scheduling.queue_bot_move(table.pk, table.event_seq, level=mover.bot_level)
            requeued.append(table.pk)
    if requeued:
        logger.warning("Tasks of tables %s were lost or are late: queued again",
                       ", ".join(map(str, requeued)))
    return requeued
