"""A bot's pause before its move tells nothing of its hand: a forced card waits as long as a free choice.

The bot moves are queued through the real path (a move commits, the next bot's task is published
to the real broker) and the time each task is to run is read off Celery's own
`before_task_publish` signal.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from celery.signals import before_task_publish
from tables_helpers import legal_strings

from config.celery import app as celery_app
from gameplay import services
from gameplay.engine import Phase
from gameplay.models import Table
from gameplay.services import scheduling
from gameplay.services.scheduling import BOT_MOVE_TASK

SEED = 20261201
SLACK = timedelta(milliseconds=1)  # Celery writes the time it is to run to the microsecond


@pytest.fixture
def published_bot_etas(settings, monkeypatch):
    """Every bot task published from here on, as the time it is to run (None: at once)."""
    settings.GAMEPLAY_QUEUE_TASKS = True
    settings.GAMEPLAY_BOT_PAUSE = 0.4
    settings.GAMEPLAY_BOT_PAUSE_SPREAD = 1.2
    etas: list[datetime | None] = []

    def record(sender=None, headers=None, **_):
        if sender != BOT_MOVE_TASK:
            return
        eta = (headers or {}).get("eta")
        etas.append(None if eta is None else datetime.fromisoformat(eta))

    before_task_publish.connect(record, weak=False)
    try:
        yield etas
    finally:
        before_task_publish.disconnect(record)
        celery_app.control.purge()  # nobody runs these tasks; drop them from this run's queue


def _expected_pause() -> float:
    scheduling.pause_rng = random.Random(SEED)
    expected = scheduling.bot_pause()
    scheduling.pause_rng = random.Random(SEED)  # the move that follows draws the same number
    return expected


def test_a_forced_card_and_a_free_choice_wait_the_same_drawn_pause(
    db, published_bot_etas, monkeypatch, django_capture_on_commit_callbacks
):
    """Each bot task is to run the drawn pause after its move: between the pause after the move
    began and the pause after it was done, however long a busy machine took over the move."""
    monkeypatch.setattr(scheduling, "pause_rng", random.Random(SEED))
    table = services.play_now(session_key="p" * 32)
    rng = random.Random(3)
    seen: dict[bool, list[float]] = {True: [], False: []}  # forced card? -> delays
    for _ in range(400):
        table = Table.objects.get(pk=table.pk)
        if table.status != "playing" or (seen[True] and seen[False] and len(seen[True]) >= 3):
            break
        state = services.load_state(table)
        expected = _expected_pause()
        before = len(published_bot_etas)
        began = datetime.now().astimezone()
        with django_capture_on_commit_callbacks(execute=True):
            if state.to_move == 2:
                assert services.play(table_id=table.pk, seat=2, action=rng.choice(legal_strings(state)),
                                     expected_event=table.event_seq).ok
            else:
                moved = services.bot_move(table_id=table.pk, expected_event=table.event_seq, rng=rng)
                assert moved == "moved"
        done = datetime.now().astimezone()
        after_table = Table.objects.get(pk=table.pk)
        after = services.load_state(after_table)
        if after.phase == Phase.REDEAL:
            # the question is put to all four at once: each bot's answer is queued when it is
            # put, after its own drawn pause; an answer queues nothing
            opened = after_table.decision_event == after_table.event_seq
            assert len(published_bot_etas) == before + (3 if opened else 0)
            continue
        if after.to_move in (None, 2):
            assert len(published_bot_etas) == before  # a person's turn: his clock, no bot task
            continue
        assert len(published_bot_etas) == before + 1
        eta = published_bot_etas[-1]
        assert eta is not None, "a bot move was queued without its pause"
        pause = timedelta(seconds=expected)
        assert began + pause - SLACK <= eta <= done + pause + SLACK
        if after.phase == Phase.PLAY:
            seen[len(after.legal_actions()) == 1].append((eta - began).total_seconds())
    assert len(seen[True]) >= 3 and seen[False], seen


def test_bot_pauses_are_drawn_over_the_whole_range_from_one_distribution(settings, monkeypatch):
    settings.GAMEPLAY_BOT_PAUSE = 0.4
    settings.GAMEPLAY_BOT_PAUSE_SPREAD = 1.2
    monkeypatch.setattr(scheduling, "pause_rng", random.Random(SEED))
    pauses = [scheduling.bot_pause() for _ in range(2000)]
    assert all(0.4 <= p <= 1.6 for p in pauses)
    assert min(pauses) < 0.5 and max(pauses) > 1.5  # not one fixed pause a forced card could beat
    monkeypatch.setattr(scheduling, "pause_rng", random.Random(SEED))
    assert [scheduling.bot_pause() for _ in range(2000)] == pauses  # nothing but the rng goes in

