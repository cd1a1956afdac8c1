"""Drive a live table to its end with the engine's bot choosing for each player on his own observation."""

import random

from gameplay import services as tables
from gameplay.engine.bot import choose_action
from gameplay.models import Table, TableStatus


def action_text(action: int) -> str:
    return tables.public_action(action)


def play_out(table_id: int, *, seed: int = 1, max_moves: int = 5000) -> Table:
    """Each seated player moves through ``gameplay.services.play`` (the service the socket calls)."""
    rng = random.Random(seed)  # noqa: S311 - test players
    for _ in range(max_moves):
        table = Table.objects.get(pk=table_id)
        if table.status == TableStatus.FINISHED:
            return table
        state = tables.load_state(table)
        seat = state.to_move
        action = choose_action(state.observation(seat), rng)
        outcome = tables.play(
            table_id=table_id, seat=seat, action=action_text(action), expected_event=table.event_seq
        )
        assert outcome.ok, outcome.message
    raise AssertionError("the match did not end")
