"""A bot that thinks for long (the strong bot): it decides without the table's row lock, then plays
through the same locked path as a person's move.

The strong bot takes up to `settings.BOT_BUDGET` seconds a move. Holding the table's row lock that
long would make the person's resign, the redeal answers and every task of that table wait behind
it, so the decision is made from a plain read of the table (its record replayed, the seat's own
observation), and only the move is applied under the lock, checked against the event number the
task was queued for: a decision the table has moved past is dropped, and the table's next task
(queued by whatever moved it) decides afresh.

The time taken must say nothing of the hand (RULES.md): the move is played when the budget,
measured from the task's start, is spent (a task queued with the rest as its countdown), so a
forced card, a redeal answer and a hard choice all come after the same drawn pause
(`scheduling.bot_pause`) plus the same budget. Only a decision that overruns
the budget comes later; the strong bot keeps to its budget, so that is the machine being slow.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from gameplay.engine import MatchState, Phase, bots
from gameplay.engine.games import AnyMatch
from gameplay.engine.table_games import bot_action, mover
from gameplay.models import Seat, Table
from gameplay.selectors import load_state
from gameplay.services import scheduling
from gameplay.services.changes import Conflict, TableError, current_table, is_current
from gameplay.services.moves import apply_locked
from gameplay.services.state_cache import keep_on_commit, take_state

log = logging.getLogger(__name__)

#: The share of the budget the bot itself may think; the rest absorbs the reads before it and the
#: machine's hiccups, so that a reply is padded to the budget, not late.
THINK_SHARE = 0.9


@dataclass(frozen=True)
class Decision:
    """What a bot chose, and the table position it chose for (the event number its task carries)."""

    table_id: int
    expected_event: int
    seat: int
    action: int


def bot_to_answer(table: Table, state: AnyMatch, seat: int | None) -> tuple[Seat | None, str]:
    """The bot seat that is to act now, or None and why not ("stale" or "not_a_bot").

    In the redeal phase the bot at `seat` answers (without `seat`: the first bot yet to answer);
    else the seat to move, which `seat`, when given, must be."""
    if state.to_move is None:
        return None, "stale"
    rows = {s.seat: s for s in Seat.objects.filter(table=table)}
    if state.phase == Phase.REDEAL:
        bot_seats = {n for n, s in rows.items() if s.is_bot}
        waiting = [n for n in state.redeal_pending if n in bot_seats]
        if seat is None:
            seat = waiting[0] if waiting else None
        if seat is None or seat not in waiting:
            return None, "stale" if seat is None or seat in bot_seats else "not_a_bot"
        return rows[seat], ""
    if seat is not None and seat != mover(state):
        return None, "stale"
    row = rows.get(mover(state))  # type: ignore[arg-type]
    if row is None or not row.is_bot:
        return None, "not_a_bot"
    return row, ""


def decide(*, table_id: int, expected_event: int, seat: int | None = None,
           rng: random.Random | None = None, budget: float | None = None) -> Decision | str:
    """The bot's choice for the table as it stands at `expected_event`, made without any lock (no
    transaction is opened: each read is its own), or why there is none ("stale", "not_a_bot").

    `budget` is the whole reply's: the bot gets `THINK_SHARE` of it less the time the reads took,
    so that the reply is padded to the budget rather than late."""
    started = time.monotonic()
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not is_current(table.status, table.event_seq, table.decision_event, expected_event):
        return "stale"
    state = load_state(table)
    if state is None:
        return "stale"
    row, why = bot_to_answer(table, state, seat)
    if row is None:
        return why
    rng = rng or random.Random()  # noqa: S311 - a bot, not a secret
    budget = float(settings.BOT_BUDGET if budget is None else budget)
    thinking = max(0.0, budget * THINK_SHARE - (time.monotonic() - started))
    if isinstance(state, MatchState):
        action = bots.choose(row.bot_level, state.observation(row.seat), rng, budget=thinking)
    else:  # another game's bot (Kozyol's beginner), from its own view
        action = bot_action(row.bot_level, state, row.seat, rng, budget=thinking)
    return Decision(table_id=table_id, expected_event=expected_event, seat=row.seat, action=action)


@transaction.atomic
def submit(decision: Decision) -> str:
    """Play a decision through the locked path: "moved", or "stale" if the table moved past it."""
    table = current_table(decision.table_id, decision.expected_event)
    if table is None:
        return "stale"
    state = take_state(table)
    if state is None:
        return "stale"
    row, _why = bot_to_answer(table, state, decision.seat)
    if row is None:
        return "stale"
    try:
        apply_locked(table, state, decision.seat, decision.action)
    except (Conflict, TableError):
        transaction.set_rollback(True)
        return "stale"
    keep_on_commit(table, state)
    return "moved"


def bot_think(*, table_id: int, expected_event: int, seat: int | None = None,
              rng: random.Random | None = None) -> str:
    """The task of a thinking bot: decide outside the lock, then play when its budget is spent.

    The rest of the budget is waited out by a task queued with that countdown ("decided"), so the
    worker thinks for other tables meanwhile; where tasks are not queued (tests driving bots by
    hand) it waits here and plays ("moved" or "stale")."""
    started = time.monotonic()
    budget = float(settings.BOT_BUDGET)
    decision = decide(table_id=table_id, expected_event=expected_event, seat=seat, rng=rng, budget=budget)
    if isinstance(decision, str):
        return decision
    left = budget - (time.monotonic() - started)
    if left < -0.05:
        log.warning("bot at table %s took %.2f s over its budget of %.2f s", table_id, -left, budget)
    if left > 0 and scheduling.queue_bot_play(decision.table_id, decision.expected_event, decision.seat,
                                              decision.action, left):
        return "decided"
    if left > 0:
        time.sleep(left)
    return submit(decision)


def bot_play(*, table_id: int, expected_event: int, seat: int, action: int) -> str:
    """The task that plays a decided move once its bot's budget is spent (`bot_think`)."""
    return submit(Decision(table_id=table_id, expected_event=expected_event, seat=seat, action=action))
