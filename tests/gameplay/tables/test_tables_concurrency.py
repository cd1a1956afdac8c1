"""Fifty submissions of the same move, released together against the real PostgreSQL: one wins."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from tables_helpers import legal_strings

from gameplay import services
from gameplay.models import Table, TableEvent

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 50
ROUNDS = 20


def _race(table_id: int, seat: int, action: str, expected: int, same_id: bool) -> list:
    barrier = threading.Barrier(THREADS)
    results: list = [None] * THREADS

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = services.play(
                table_id=table_id, seat=seat, action=action, expected_event=expected,
                client_move_id="same" + str(expected) if same_id else f"t{expected}-{i}",
            )
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def test_fifty_identical_moves_exactly_one_accepted(table4):
    assert connection.vendor == "postgresql"
    for round_ in range(ROUNDS):
        table = Table.objects.get(pk=table4.pk)
        state = services.load_state(table)
        same_id = round_ % 2 == 1
        results = _race(table.pk, state.to_move, legal_strings(state)[0], table.event_seq, same_id)
        assert all(r is not None for r in results)
        applied = [r for r in results if r.ok and not r.duplicate]
        assert len(applied) == 1, [r.to_json() for r in results if r.ok]
        if same_id:  # resends of one move id: every one is answered with the same event
            assert all(r.ok and r.event_number == applied[0].event_number for r in results)
        else:
            assert sum(1 for r in results if not r.ok) == THREADS - 1
            assert {r.code for r in results if not r.ok} <= {"stale", "not_your_turn", "answered"}
        after = Table.objects.get(pk=table4.pk)
        assert after.event_seq == table.event_seq + 1
        assert TableEvent.objects.filter(table=table4).count() == after.event_seq
    assert TableEvent.objects.filter(table=table4).exclude(move_id="").count() == ROUNDS
