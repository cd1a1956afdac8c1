"""The engine states of the tables this process moved last, so a move need not replay the record.

A hit saves replaying the record, which grows with the match (hundreds of plays by its end). The
database still owns the state: an entry is used only under the table's row lock and only if its
event number and the table's random invite token are the table's (a table id can come again, as
in a test database that was emptied), it is taken out while a move works on it and put back
(with the new number) only after that move commits, so a refused or rolled-back move leaves
nothing behind.
"""

from __future__ import annotations

import threading

from django.db import transaction

from gameplay.engine import Phase
from gameplay.engine.games import AnyMatch
from gameplay.models import Table
from gameplay.selectors import load_state

#: By table id: ((event_seq, invite token), state).
_STATES: dict[int, tuple[tuple[int, str], AnyMatch]] = {}
_STATES_LOCK = threading.Lock()
STATE_CACHE_SIZE = 2000


def take_state(table: Table) -> AnyMatch | None:
    """The state of a locked table: from this process's cache when it is current, else replayed."""
    with _STATES_LOCK:
        hit = _STATES.pop(table.pk, None)
    if hit is not None and hit[0] == (table.event_seq, table.invite_token):
        return hit[1]
    return load_state(table)


def keep_on_commit(table: Table, state: AnyMatch) -> None:
    """Cache the state a move left once that move commits (a finished match is not kept)."""
    if state.phase != Phase.OVER:
        table_id, key = table.pk, (table.event_seq, table.invite_token)
        transaction.on_commit(lambda: _keep_state(table_id, key, state))


def _keep_state(table_id: int, key: tuple[int, str], state: AnyMatch) -> None:
    """After commit: remember `state` as the table's at `key` (oldest entries go first)."""
    with _STATES_LOCK:
        _STATES.pop(table_id, None)
        _STATES[table_id] = (key, state)
        while len(_STATES) > STATE_CACHE_SIZE:
            del _STATES[next(iter(_STATES))]
