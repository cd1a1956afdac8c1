"""A table called off (its tournament pairing withdrawn or changed): closed, no winner, nobody plays on."""

from __future__ import annotations

import random

import pytest
from tables_helpers import play_random

from gameplay import services
from gameplay.models import Seating, Table, TableEvent

pytestmark = pytest.mark.django_db


def test_a_table_in_play_is_called_off_with_no_winner(table4):
    play_random(table4.pk, random.Random(3), 6)

    outcome = services.cancel(table_id=table4.pk)

    assert outcome.ok
    table = Table.objects.get(pk=table4.pk)
    assert table.status == "finished" and table.move_deadline is None
    assert table.result["winner"] is None and table.result["reason"] == "cancelled"
    last = TableEvent.objects.filter(table=table).order_by("-number").first()
    assert last.kind == "cancelled" and last.public["table"]["status"] == "finished"
    late = services.play(table_id=table4.pk, seat=0, action="JC", expected_event=table.event_seq)
    assert not late.ok and late.code == "finished"


def test_an_open_table_and_a_finished_one(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    assert services.cancel(table_id=table.pk).ok
    assert Table.objects.get(pk=table.pk).result["score"] == {"NS": 0, "EW": 0}
    again = services.cancel(table_id=table.pk)
    assert not again.ok and again.code == "finished"  # already over: left as it is

