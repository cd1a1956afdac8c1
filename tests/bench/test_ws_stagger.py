"""bench/ws/tables.py's stagger: the tables start the run at different points of their first deal, so
their deals do not all end in the same seconds (which set clusters of slow moves into the same
windows of every run)."""

from __future__ import annotations

import random

import pytest

from bench.ws import tables as bench_tables
from gameplay import services
from gameplay.models import Table

pytestmark = pytest.mark.django_db


def test_the_tables_start_the_run_at_different_points_of_their_deal(settings):
    settings.GAMEPLAY_QUEUE_TASKS = True
    tables = [bench_tables.open_table() for _ in range(12)]
    before = {tid: Table.objects.get(pk=tid).event_seq for tid, _ in tables}
    bench_tables.stagger(tables, random.Random(5))
    after = {tid: Table.objects.get(pk=tid) for tid, _ in tables}
    moves = [after[tid].event_seq - before[tid] for tid, _ in tables]
    assert len(set(moves)) >= 6, moves  # spread over the deal, not all alike
    for table in after.values():
        assert table.status == "playing"
        state = services.load_state(table)  # the record replays
        assert state is not None
    assert settings.GAMEPLAY_QUEUE_TASKS  # restored after the moves that queued none
