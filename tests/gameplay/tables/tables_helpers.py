"""Helpers shared by the live-table tests."""

from __future__ import annotations

import contextlib
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.db import connections, transaction

from gameplay import services
from gameplay.engine.cards import SEATS, card_to_str, mask_cards
from gameplay.models import Table

CARD_RE = re.compile(r"(?<![A-Za-z0-9])([6789TJQKA][CDHS])(?![A-Za-z0-9])")


def state_of(table_id: int):
    return services.load_state(Table.objects.get(pk=table_id))


def legal_strings(state) -> list[str]:
    out = []
    for a in state.legal_actions():
        out.append("redeal" if a == 36 else "pass" if a == 37 else card_to_str(a))
    return out


def play_random(table_id: int, rng: random.Random, moves: int) -> int:
    """Make up to `moves` random legal moves through the service; the number made."""
    made = 0
    for _ in range(moves):
        table = Table.objects.get(pk=table_id)
        if table.status != "playing":
            break
        state = services.load_state(table)
        action = rng.choice(legal_strings(state))
        outcome = services.play(table_id=table_id, seat=state.to_move, action=action,
                                expected_event=table.event_seq)
        assert outcome.ok, outcome.message
        made += 1
    return made


def answer_play(table_id: int) -> Table:
    """Every seat yet to answer the redeal question answers "play" (through the service); the
    table, now in play (or as it was, if no question was open)."""
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    for seat in state.redeal_pending if state is not None else ():
        outcome = services.play(table_id=table_id, seat=seat, action="pass",
                                expected_event=table.decision_event)
        assert outcome.ok, outcome.message
    return Table.objects.get(pk=table_id)


def wait_for(predicate: Callable[[], Any], seconds: float = 120.0) -> Any:
    """Ask `predicate` every 0.1 s until it gives something true or `seconds` pass (a real worker's
    task to land); its last answer. The ceiling only matters when the worker is broken: on a machine
    busy with other work a task takes many times what it takes on an idle one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def hand_strings(state, seat: int) -> set[str]:
    return {card_to_str(c) for c in mask_cards(state.hands[seat])}


__all__ = ["CARD_RE", "SEATS", "answer_play", "hand_strings", "legal_strings", "play_random", "state_of",
           "wait_for"]


@contextlib.contextmanager
def table_locked_elsewhere(table_id: int) -> Iterator[list[bool]]:
    """Hold the table's row lock in another thread's transaction (another connection) while the
    block runs. Yields a list that gets True when the holder let go because the block ended
    (False: it gave up after 120 s, so the block must have waited for the lock; a block that did
    not wait may still take seconds on a busy machine)."""
    locked, release, held_until_released = threading.Event(), threading.Event(), []

    def hold_the_lock():
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table_id)
                locked.set()
                held_until_released.append(release.wait(120))
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert locked.wait(60)
        yield held_until_released
    finally:
        release.set()
        holder.join(125)
