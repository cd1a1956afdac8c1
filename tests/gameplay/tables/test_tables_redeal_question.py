"""The redeal question at a live table: put to all four seats at once, the same way whether or not
a hand qualifies; answered in any order against the event that put it; closed by a redeal, by the
fourth answer or by its clock (which counts as "play"). Onlookers learn only who has answered, and
that a redeal was asked and by whom, or that play begins (RULES.md, "Redeal")."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from celery.signals import before_task_publish
from django.utils import timezone
from tables_helpers import answer_play

from config.celery import app as celery_app
from gameplay import services
from gameplay.engine import Phase
from gameplay.models import Table, TableEvent
from gameplay.selectors import snapshot
from gameplay.services import scheduling
from gameplay.services.scheduling import BOT_MOVE_TASK, MOVE_CLOCK_TASK

PRIVATE_KEYS = {"seat", "hand", "legal", "can_redeal"}


def _table(people, rules=None, **kwargs):
    table = services.create_table(rules=rules or {}, seating="in_order", user=people[0], **kwargs)
    for u in people[1:4]:
        services.sit(table_id=table.pk, user=u)
    return Table.objects.get(pk=table.pk)


def _qualifying_table(people, want=lambda q: any(q) and not all(q)):
    """A started table (redeal below 30 points) whose deal has qualifying and other hands."""
    for _ in range(30):
        table = _table(people, {"redeal_below": 30})
        state = services.load_state(table)
        if want([state.may_redeal(s) for s in range(4)]):
            return table, state
    pytest.fail("no deal of the wanted kind in 30 tries")


def _public(view):
    return {k: v for k, v in view.items() if k not in PRIVATE_KEYS}


@pytest.mark.django_db
def test_every_seat_gets_the_same_question_at_the_same_moment_qualifying_or_not(people, monkeypatch):
    table, state = _qualifying_table(people)
    assert state.phase == Phase.REDEAL and table.decision_event == table.event_seq
    # The clock stands still at the moment the question was put: five snapshots, taken one after
    # another, read the same time left however long a busy machine takes over them.
    put = TableEvent.objects.get(table=table, number=table.decision_event).created_at
    monkeypatch.setattr(timezone, "now", lambda: put)
    snaps = {s: snapshot(table, s) for s in (0, 1, 2, 3, None)}
    deadline = {snap["table"]["deadline_in"] for snap in snaps.values()}
    assert len(deadline) == 1 and 10 < deadline.pop() <= 15  # one clock for all, bots or not
    public = [_public(snap["view"]) for snap in snaps.values()]
    assert all(p == public[0] for p in public)  # nothing but the seat's own hand and answers differ
    assert public[0]["phase"] == "redeal" and public[0]["to_move"] is None and public[0]["answered"] == []
    for s in range(4):
        view = snaps[s]["view"]
        assert view["legal"] == (["redeal", "pass"] if state.may_redeal(s) else ["pass"])
        assert view["can_redeal"] == state.may_redeal(s)
    assert snaps[None]["view"]["legal"] == [] and snaps[None]["view"]["hand"] is None


@pytest.mark.django_db
def test_four_answers_in_any_order_are_accepted_each_a_numbered_event_naming_its_seat(people):
    table = _table(people)
    opened = table.event_seq
    before = {s: _public(snapshot(table, s)["view"]) for s in (0, None)}
    numbers = []
    for seat in (2, 0, 3, 1):  # all against the event that put the question
        outcome = services.play(table_id=table.pk, seat=seat, action="pass", expected_event=opened)
        assert outcome.ok, outcome.message
        numbers.append(outcome.event_number)
        event = TableEvent.objects.get(table=table, number=outcome.event_number)
        assert (event.public["seat"], event.public["action"]) == ("NESW"[seat], "pass")
        table.refresh_from_db()
        if seat == 0:
            # the others learn who answered, and nothing else
            after = {s: _public(snapshot(table, s)["view"]) for s in (0, None)}
            for s in (0, None):
                assert after[s]["answered"] == ["S", "N"]
                assert {k: v for k, v in after[s].items() if k != "answered"} == \
                    {k: v for k, v in before[s].items() if k != "answered"}
    assert numbers == list(range(opened + 1, opened + 5))
    state = services.load_state(table)
    assert state.phase == Phase.PLAY and table.decision_event is None
    assert table.move_deadline is not None  # now the leader's move clock


@pytest.mark.django_db
def test_a_redeal_ends_the_question_names_who_asked_and_a_late_answer_is_stale(people):
    table, state = _qualifying_table(people)
    asker = next(s for s in range(4) if state.may_redeal(s))
    other = next(s for s in range(4) if not state.may_redeal(s))
    opened = table.event_seq
    refused = services.play(table_id=table.pk, seat=other, action="redeal", expected_event=opened)
    assert not refused.ok and refused.code == "illegal"
    assert "не даёт права на пересдачу" in refused.message  # in the player's language
    assert services.play(table_id=table.pk, seat=other, action="pass", expected_event=opened).ok
    outcome = services.play(table_id=table.pk, seat=asker, action="redeal", expected_event=opened)
    assert outcome.ok
    event = TableEvent.objects.get(table=table, number=outcome.event_number)
    assert event.public["seat"] == "NESW"[asker] and event.public["deal_end"]["outcome"] == "redeal"
    table.refresh_from_db()
    assert table.record["deals"][0]["redeal"] == "NESW"[asker] and "passed" not in table.record["deals"][0]
    # the new deal puts a new question, checked against its own event
    assert table.decision_event == outcome.event_number and services.load_state(table).phase == Phase.REDEAL
    third = next(s for s in range(4) if s not in (asker, other))
    late = services.play(table_id=table.pk, seat=third, action="pass", expected_event=opened)
    assert not late.ok and late.code == "stale"


@pytest.mark.django_db
def test_an_answer_twice_is_refused_and_a_resent_answer_is_answered_from_its_receipt(people):
    table = _table(people)
    opened = table.event_seq
    answer = {"table_id": table.pk, "seat": 1, "action": "pass", "expected_event": opened,
              "client_move_id": "m1"}
    first = services.play(**answer)
    again = services.play(**answer)
    assert first.ok and again.ok and again.duplicate and again.event_number == first.event_number
    twice = services.play(table_id=table.pk, seat=1, action="pass", expected_event=opened + 1)
    assert not twice.ok and twice.code == "answered"
    card = services.play(table_id=table.pk, seat=0, action="JC", expected_event=opened + 1)
    assert not card.ok and card.code == "illegal"
    assert set(services.load_state(Table.objects.get(pk=table.pk)).redeal_pending) == {0, 2, 3}


@pytest.mark.django_db
def test_the_question_runs_out_as_play_with_no_forfeit_and_names_nobody(people):
    table = _table(people)
    opened = table.event_seq
    assert services.play(table_id=table.pk, seat=3, action="pass", expected_event=opened).ok
    assert services.clock_expired(table_id=table.pk, expected_event=opened) == "early"
    Table.objects.filter(pk=table.pk).update(move_deadline=timezone.now() - timedelta(seconds=1))
    assert services.clock_expired(table_id=table.pk, expected_event=opened) == "closed"
    table.refresh_from_db()
    assert table.status == "playing" and table.decision_event is None
    event = TableEvent.objects.get(table=table, number=table.event_seq)
    assert (event.public["seat"], event.public["action"]) == (None, "play")
    state = services.load_state(table)
    assert state.phase == Phase.PLAY
    assert table.record["deals"][0]["passed"][0] == "W"  # the answer given; the rest ran out
    assert services.clock_expired(table_id=table.pk, expected_event=opened) == "stale"


@pytest.mark.django_db
def test_a_table_saved_in_the_middle_of_the_question_comes_back_exactly(people):
    table = _table(people)
    opened = table.event_seq
    for seat in (3, 1):
        assert services.play(table_id=table.pk, seat=seat, action="pass", expected_event=opened).ok
    table.refresh_from_db()
    assert table.record["deals"][0]["passed"] == ["W", "E"]
    state = services.load_state(table)  # replayed from the stored record, not from the cache
    assert state.phase == Phase.REDEAL and set(state.redeal_pending) == {0, 2}
    assert answer_play(table.pk).decision_event is None


@pytest.fixture
def published(settings):
    """(task name, args, seconds to wait) of every bot and clock task published from here on."""
    settings.GAMEPLAY_QUEUE_TASKS = True
    settings.GAMEPLAY_BOT_PAUSE, settings.GAMEPLAY_BOT_PAUSE_SPREAD = 0.4, 1.2
    out = []

    def record(sender=None, headers=None, body=None, **_):
        if sender not in (BOT_MOVE_TASK, MOVE_CLOCK_TASK):
            return
        out.append((sender, tuple(body[0]) if body else (), (headers or {}).get("eta")))

    before_task_publish.connect(record, weak=False)
    try:
        yield out
    finally:
        before_task_publish.disconnect(record)
        celery_app.control.purge()


@pytest.mark.django_db
def test_each_bot_answers_on_its_own_after_a_pause_that_knows_nothing_of_its_hand(
    published, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(scheduling, "pause_rng", random.Random(7))
    with django_capture_on_commit_callbacks(execute=True):
        table = services.play_now(session_key="q" * 32)
    table.refresh_from_db()
    opened = table.decision_event
    bots = sorted(args for name, args, _ in published if name == BOT_MOVE_TASK)
    clocks = [args for name, args, _ in published if name == MOVE_CLOCK_TASK]
    # one task per bot, whatever the hands, and the one clock of the question
    assert bots == [(table.pk, opened, 0), (table.pk, opened, 1), (table.pk, opened, 3)]
    assert clocks == [(table.pk, opened)]
    assert all(eta is not None for _, _, eta in published)
    published.clear()
    answered = []
    with django_capture_on_commit_callbacks(execute=True):
        for seat in (3, 0, 1):
            assert services.bot_move(table_id=table.pk, expected_event=opened, seat=seat) == "moved"
            answered.append("NESW"[seat])
            if Table.objects.get(pk=table.pk).decision_event != opened:
                break  # that bot asked for a redeal: a new deal, a new question
            assert published == []  # an answer queues nothing: the clock of the question runs on
    assert services.bot_move(table_id=table.pk, expected_event=opened, seat=2) in ("not_a_bot", "stale")
    table.refresh_from_db()
    seats = [TableEvent.objects.get(table=table, number=n).public["seat"]
             for n in range(opened + 1, opened + 1 + len(answered))]
    assert seats == answered
