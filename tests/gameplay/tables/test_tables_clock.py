"""Move clock, disconnection grace and bots, through the services and through a real Celery worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from tables_helpers import answer_play, legal_strings, table_locked_elsewhere, wait_for

from gameplay import services
from gameplay.engine.cards import SEATS
from gameplay.models import Seat, Table


@pytest.mark.django_db
def test_clock_is_a_no_op_when_a_move_came(table4):
    table4 = answer_play(table4.pk)
    n = table4.event_seq
    state = services.load_state(table4)
    services.play(table_id=table4.pk, seat=state.to_move, action=legal_strings(state)[0], expected_event=n)
    assert services.clock_expired(table_id=table4.pk, expected_event=n) == "stale"
    assert Table.objects.get(pk=table4.pk).status == "playing"


@pytest.mark.django_db
def test_clock_waits_for_its_deadline(table4):
    assert services.clock_expired(table_id=table4.pk, expected_event=5) == "early"


@pytest.mark.django_db
def test_timeout_forfeits_the_match_for_the_pair_to_move(table4):
    table4 = answer_play(table4.pk)
    mover = services.load_state(table4).to_move
    Table.objects.filter(pk=table4.pk).update(move_deadline=timezone.now() - timedelta(seconds=1))
    assert services.clock_expired(table_id=table4.pk, expected_event=table4.event_seq) == "timeout"
    table = Table.objects.get(pk=table4.pk)
    assert table.status == "finished"
    assert table.result["reason"] == "timeout" and table.result["seat"] == SEATS[mover]
    assert table.result["winner"] == ("EW" if mover % 2 == 0 else "NS")
    assert table.record["end"] == {"reason": "timeout", "seat": SEATS[mover]}
    assert services.clock_expired(table_id=table4.pk, expected_event=table.event_seq) == "stale"


@pytest.mark.django_db
def test_a_disconnected_player_spends_grace_before_forfeiting(table4, settings, monkeypatch):
    settings.GAMEPLAY_GRACE_SECONDS = 100
    table4 = answer_play(table4.pk)
    n = table4.event_seq
    mover = services.load_state(table4).to_move
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # the clock task runs as the player drops 30 s ago
    Seat.objects.filter(table=table4, seat=mover).update(connections=0,
                                                         disconnected_at=now - timedelta(seconds=30))
    Table.objects.filter(pk=table4.pk).update(move_deadline=now - timedelta(seconds=1))
    assert services.clock_expired(table_id=table4.pk, expected_event=n) == "grace"
    table = Table.objects.get(pk=table4.pk)
    left = (table.move_deadline - timezone.now()).total_seconds()
    assert left == 70  # 100 s of grace, 30 already spent
    # grace used up: the clock runs on and the pair forfeits
    Seat.objects.filter(table=table4, seat=mover).update(grace_used=100)
    Table.objects.filter(pk=table4.pk).update(move_deadline=timezone.now() - timedelta(seconds=1))
    assert services.clock_expired(table_id=table4.pk, expected_event=n) == "timeout"


@pytest.mark.django_db
def test_reconnecting_books_the_grace_used(table4, settings, monkeypatch):
    settings.GAMEPLAY_GRACE_SECONDS = 100
    services.connection_changed(table_id=table4.pk, seat=0, delta=1)
    services.connection_changed(table_id=table4.pk, seat=0, delta=-1)
    # The clock stands still from here: the seat comes back 12 s after it dropped, not 12 s and
    # however long this machine takes over the next statements.
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    Seat.objects.filter(table=table4, seat=0).update(disconnected_at=now - timedelta(seconds=12))
    services.connection_changed(table_id=table4.pk, seat=0, delta=1)
    seat = Seat.objects.get(table=table4, seat=0)
    assert seat.grace_used == 12 and seat.disconnected_at is None
    from gameplay.protocol.frames import seats_meta

    assert seats_meta(Table.objects.get(pk=table4.pk), [seat])[0]["grace_left"] == 88


@pytest.mark.django_db(transaction=True)
def test_worker_forfeits_a_player_who_does_not_move(celery_worker_process, settings, people):
    settings.GAMEPLAY_QUEUE_TASKS = True
    table = services.create_table(rules={"move_seconds": 60}, seating="in_order", user=people[0])
    for u in people[1:4]:
        services.sit(table_id=table.pk, user=u)
    # The redeal question's clock runs at the full 60 s, so however slow this machine is the worker
    # never answers it for a seat; three seats answer, then the last answer starts the first move's
    # clock in this process at 1/60 of its time (60 s per move -> 1 s; the rules are untouched).
    table = Table.objects.get(pk=table.pk)
    *first, last = services.load_state(table).redeal_pending
    for seat in first:
        assert services.play(table_id=table.pk, seat=seat, action="pass",
                             expected_event=table.decision_event).ok
    settings.GAMEPLAY_CLOCK_SCALE = 1 / 60
    assert services.play(table_id=table.pk, seat=last, action="pass", expected_event=table.decision_event).ok
    mover = services.load_state(Table.objects.get(pk=table.pk)).to_move
    assert Table.objects.get(pk=table.pk).rules["move_seconds"] == 60
    finished = wait_for(lambda: Table.objects.get(pk=table.pk).status == "finished")
    assert finished, celery_worker_process.log()[-3000:]
    table = Table.objects.get(pk=table.pk)
    assert table.result["reason"] == "timeout" and table.result["seat"] == SEATS[mover]


@pytest.mark.django_db(transaction=True)
def test_worker_bots_play_up_to_the_person(celery_worker_process, settings):
    settings.GAMEPLAY_QUEUE_TASKS = True
    table = services.play_now(session_key="w" * 32)

    def persons_turn():
        t = Table.objects.get(pk=table.pk)
        return services.load_state(t).to_move == 2 and t

    person_moves = 0
    for _ in range(6):
        t = wait_for(persons_turn)
        assert t, celery_worker_process.log()[-3000:]
        state = services.load_state(t)
        outcome = services.play(table_id=t.pk, seat=2, action=legal_strings(state)[0],
                                expected_event=t.event_seq)
        assert outcome.ok
        person_moves += 1
    bot_moves = Table.objects.get(pk=table.pk).events.filter(kind="move").count() - person_moves
    assert bot_moves >= 6  # the bots answered on their own, through the worker
    # end the match so the worker has nothing left to do when the test database is flushed
    services.resign(table_id=table.pk, seat=2)
    celery_worker_process.run_queued()


@pytest.mark.django_db(transaction=True)
def test_a_stale_clock_or_bot_task_does_not_wait_for_the_table_lock(table4):
    """Most clock tasks come after the move (stale): they must not queue behind, or hold up, the
    moves of that table. Another connection holds the row lock; a stale task still ends, at once."""
    from django.db import connection

    table4 = answer_play(table4.pk)
    n = table4.event_seq
    state = services.load_state(table4)
    services.play(table_id=table4.pk, seat=state.to_move, action=legal_strings(state)[0], expected_event=n)
    with table_locked_elsewhere(table4.pk):
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # a task that waited for the lock would fail
        try:
            assert services.clock_expired(table_id=table4.pk, expected_event=n) == "stale"
            assert services.bot_move(table_id=table4.pk, expected_event=n) == "stale"
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = 0")
