"""gameplay.services.rows (the move's statements as SQL built once) gives what the ORM gives, on PostgreSQL
and on SQLite (bin/site's embedded default)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tables_helpers import play_random

from gameplay.models import Seat, Table, TableEvent
from gameplay.services import rows

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]


def _values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_rows_read_the_same_objects_as_the_orm(table4):
    import random

    play_random(table4.pk, random.Random(5), 12)
    locked = rows.lock_table(table4.pk)
    assert _values(locked) == _values(Table.objects.get(pk=table4.pk))
    assert [_values(s) for s in rows.seats_of(locked)] == [
        _values(s) for s in Seat.objects.filter(table=table4).order_by("seat")]
    assert rows.lock_table(10**9) is None


def test_rows_write_what_the_orm_reads_back(table4):
    table = rows.lock_table(table4.pk)
    table.result = {"winner": "NS", "note": "Белка"}
    assert rows.advance_table(table, table.event_seq + 1)
    assert not rows.advance_table(table, table.event_seq + 1)  # the compare-and-set lost: nothing
    stored = Table.objects.get(pk=table4.pk)
    assert stored.event_seq == table4.event_seq + 1 and stored.result == table.result
    event = rows.insert_event(TableEvent(table=stored, number=stored.event_seq, kind="move",
                                         public={"a": [1, "Ж"]}, private={"N": {}}, spectator={},
                                         move_id="r1", move_seat=2))
    again = TableEvent.objects.get(pk=event.pk)
    assert _values(again) == _values(event)


SQLITE_SCRIPT = """
import os, random
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.conf import settings
settings.GAMEPLAY_QUEUE_TASKS = False
from gameplay import services
from gameplay.tables import broadcast
from gameplay.services.changes import lock_table
broadcast._send_many = lambda messages: None
from gameplay.models import Seat, Table, TableEvent
from gameplay.protocol.frames import view_of
table = services.create_table(rules={}, seating="in_order", session_key="k0")
# fixed seeds: the same deals on every run (with the system's, one match in fifty or so ends early)
Table.objects.filter(pk=table.pk).update(shuffle_seed="5a" * 32)
Seat.objects.filter(table=table).update(client_seed="fixed N")
for key, letter in (("k1", "E"), ("k2", "S"), ("k3", "W")):
    services.sit(table_id=table.pk, session_key=key, client_seed=f"fixed {letter}")
rng = random.Random(3)
for i in range(40):
    t = Table.objects.get(pk=table.pk)
    state = services.load_state(t)
    action = rng.choice(view_of(state, state.to_move)["legal"])
    outcome = services.play(table_id=t.pk, seat=state.to_move, action=action,
                            expected_event=t.event_seq, client_move_id=f"m{i}")
    assert outcome.ok, outcome
locked = lock_table(table.pk)
assert isinstance(locked.record, dict) and locked.move_deadline.tzinfo is not None
assert TableEvent.objects.filter(table=table).exclude(move_id="").count() == 40
print("ok")
"""


@pytest.mark.django_db(transaction=False)
def test_moves_work_on_sqlite(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'bilka.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", SQLITE_SCRIPT], cwd=REPO, env=env, capture_output=True,  # noqa: S603
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
