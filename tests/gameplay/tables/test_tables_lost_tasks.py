"""A table whose clock or bot task was lost (its process killed between the move's commit and the
send) gets it again from the beat (`services.requeue_lost_tasks`), and plays on."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from tables_helpers import answer_play, legal_strings, wait_for

from config.schedule import LOST_TASKS_TASK, LOST_TASKS_TASK_NAME
from gameplay import services
from gameplay.engine.cards import SEATS
from gameplay.models import Table, TableEvent
from gameplay.services import scheduling
from gameplay.tasks import requeue_lost_tasks_task


def bot_to_move(session_key: str) -> Table:
    """A "play now" table in play with a bot to move, its task never queued (tasks are off)."""
    table = answer_play(services.play_now(session_key=session_key).pk)
    state = services.load_state(table)
    while not services.seat_rows(table)[state.to_move].is_bot:
        assert services.play(table_id=table.pk, seat=state.to_move, action=legal_strings(state)[0],
                             expected_event=table.event_seq).ok
        table = Table.objects.get(pk=table.pk)
        state = services.load_state(table)
    return table


def age_last_event(table: Table, seconds: float) -> None:
    TableEvent.objects.filter(table=table, number=table.event_seq).update(
        created_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_only_tables_waiting_far_past_their_task_are_queued_again(table4, settings, monkeypatch):
    person = answer_play(table4.pk)  # a person to move, the move clock running
    bot = bot_to_move("b" * 32)
    sent = []
    monkeypatch.setattr(scheduling, "_send", lambda name, args, countdown, **kw: sent.append((name, args)))
    settings.GAMEPLAY_QUEUE_TASKS = True
    settings.GAMEPLAY_LOST_TASK_SECONDS = 30
    assert services.requeue_lost_tasks() == []  # on time: their tasks are on their way
    # the clock ran out 20 s ago, the bot's last event 25 s ago: late, not yet taken for lost
    Table.objects.filter(pk=person.pk).update(move_deadline=timezone.now() - timedelta(seconds=20))
    age_last_event(bot, 25)
    assert services.requeue_lost_tasks() == [] and sent == []
    Table.objects.filter(pk=person.pk).update(move_deadline=timezone.now() - timedelta(seconds=31))
    age_last_event(bot, 35)  # 30 s past a bot's longest pause and thinking budget
    assert services.requeue_lost_tasks() == [person.pk, bot.pk]
    assert sent == [(scheduling.MOVE_CLOCK_TASK, (person.pk, person.event_seq)),
                    (scheduling.BOT_MOVE_TASK, (bot.pk, bot.event_seq))]
    # a finished table waits for nothing
    services.resign(table_id=bot.pk, seat=2)
    sent.clear()
    assert services.requeue_lost_tasks() == [person.pk]


@pytest.mark.django_db
def test_a_lost_redeal_question_clock_is_queued_with_the_question_event(people, settings, monkeypatch):
    table = services.play_now(session_key="r" * 32)  # the redeal question open, its clock running
    table = Table.objects.get(pk=table.pk)
    assert table.decision_event is not None
    sent = []
    monkeypatch.setattr(scheduling, "_send", lambda name, args, countdown, **kw: sent.append((name, args)))
    settings.GAMEPLAY_QUEUE_TASKS = True
    Table.objects.filter(pk=table.pk).update(move_deadline=timezone.now() - timedelta(seconds=60))
    assert services.requeue_lost_tasks() == [table.pk]
    assert sent == [(scheduling.MOVE_CLOCK_TASK, (table.pk, table.decision_event))]
    assert services.clock_expired(table_id=table.pk, expected_event=table.decision_event) == "closed"


@pytest.mark.django_db
def test_the_beat_runs_the_sweep_every_half_minute():
    plan = PeriodicTask.objects.select_related("interval").get(name=LOST_TASKS_TASK_NAME)
    assert plan.task == LOST_TASKS_TASK and plan.enabled
    assert (plan.interval.every, plan.interval.period) == (30, "seconds")
    assert plan.expire_seconds == 30  # a run the worker was away for is dropped, not piled up


@pytest.mark.django_db(transaction=True)
def test_a_lost_clock_and_a_lost_bot_move_run_after_the_sweep(celery_worker_process, settings, people):
    """Both tasks are lost (queued by nobody, as when the move worker was killed after the
    commit); after the sweep the real worker forfeits the person who does not move and the bot
    plays."""
    table = services.create_table(rules={}, seating="in_order", user=people[0])
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    person = answer_play(table.pk)
    mover = services.load_state(person).to_move
    Table.objects.filter(pk=person.pk).update(move_deadline=timezone.now() - timedelta(seconds=60))
    bot = bot_to_move("k" * 32)
    age_last_event(bot, 60)
    time.sleep(3)
    assert Table.objects.get(pk=person.pk).status == "playing"  # nobody would ever end it
    assert Table.objects.get(pk=bot.pk).event_seq == bot.event_seq  # nor play the bot

    settings.GAMEPLAY_QUEUE_TASKS = True
    assert requeue_lost_tasks_task() == 2
    finished = wait_for(lambda: Table.objects.get(pk=person.pk).status == "finished")
    assert finished, celery_worker_process.log()[-3000:]
    result = Table.objects.get(pk=person.pk).result
    assert result["reason"] == "timeout" and result["seat"] == SEATS[mover]
    moved = wait_for(lambda: Table.objects.get(pk=bot.pk).event_seq > bot.event_seq)
    assert moved, celery_worker_process.log()[-3000:]
    assert TableEvent.objects.get(table=bot, number=bot.event_seq + 1).kind == "move"
    # end the match so the worker has nothing left to do when the test database is flushed
    services.resign(table_id=bot.pk, seat=2)
    celery_worker_process.run_queued()
