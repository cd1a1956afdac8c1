"""Tasks sent by a thread of the process (`scheduling.send_in_background`, the move workers): the
move's caller goes on before the broker is reached, and the countdown is kept exact."""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import timedelta

import pytest
from celery.canvas import Signature
from django.utils import timezone

from config import collector
from gameplay.services import scheduling
from gameplay.tables import move_pool


@pytest.fixture
def background_sender():
    assert scheduling._sender is None  # noqa: SLF001 - the test process sends in the caller
    scheduling.send_in_background()
    yield
    sender, scheduling._sender = scheduling._sender, None  # noqa: SLF001
    sender.shutdown(wait=True)


def test_a_clock_task_is_queued_after_the_caller_has_gone_on_with_its_countdown_kept(
        background_sender, monkeypatch, settings):
    settings.GAMEPLAY_QUEUE_TASKS = True
    broker_slow = threading.Event()
    sent: list[tuple[str, tuple, object, str]] = []

    def apply_async(sig, args=None, **options):
        broker_slow.wait(60)  # the broker answers only once the caller has returned
        sent.append((sig.task, args, options.get("eta"), threading.current_thread().name))

    monkeypatch.setattr(Signature, "apply_async", apply_async)
    before = timezone.now()
    scheduling.queue_clock(7, 12, 25.0)
    scheduling.queue_bot_move(7, 13)
    queued = timezone.now()
    assert sent == []  # the caller did not wait for the broker
    time.sleep(0.05)
    broker_slow.set()
    scheduling._sender.submit(lambda: None).result(60)  # noqa: SLF001 - the thread has sent both
    (clock, clock_args, eta, thread), (bot, bot_args, _bot_eta, _) = sent
    assert (clock, clock_args, bot, bot_args) == (scheduling.MOVE_CLOCK_TASK, (7, 12),
                                                   scheduling.BOT_MOVE_TASK, (7, 13))
    assert thread.startswith("task-sender")
    # 25 s from when the move queued it, not from when the broker was reached
    assert before + timedelta(seconds=25) <= eta <= queued + timedelta(seconds=25)


def test_a_failed_send_is_logged_and_the_next_one_still_goes(background_sender, monkeypatch, settings,
                                                             caplog):
    settings.GAMEPLAY_QUEUE_TASKS = True
    sent = []

    def apply_async(sig, args=None, **options):
        if args == (1, 1):
            raise ConnectionError("broker away")
        sent.append(args)

    monkeypatch.setattr(Signature, "apply_async", apply_async)
    scheduling.queue_clock(1, 1, 5.0)
    scheduling.queue_clock(2, 2, 5.0)
    scheduling._sender.submit(lambda: None).result(5)  # noqa: SLF001
    assert sent == [(2, 2)]
    assert "could not be queued" in caplog.text


def test_without_it_the_caller_sends_the_task_itself(monkeypatch, settings):
    settings.GAMEPLAY_QUEUE_TASKS = True
    sent = []
    here = threading.current_thread()

    def apply_async(sig, args=None, **options):
        sent.append((args, options, threading.current_thread()))

    monkeypatch.setattr(Signature, "apply_async", apply_async)
    scheduling.queue_clock(3, 4, 10.0)
    assert sent == [((3, 4), {"countdown": 10.0}, here)]


def test_a_move_worker_sends_its_tasks_in_the_background(monkeypatch):
    monkeypatch.setattr(scheduling, "_sender", None)
    monkeypatch.setattr(collector, "settle", lambda: False)  # this test process keeps its collector
    # A worker ignores SIGTERM and SIGINT; this test process must not keep that: a process it starts
    # later would inherit the ignored signals, and a shell started so cannot trap them (bin/site's
    # test then waited for a SIGTERM that never came through).
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    # what each worker runs first; its server here is this process's parent, which outlives the test
    move_pool._init_worker("config.settings.test", {}, os.getppid())  # noqa: SLF001
    try:
        assert scheduling._sender is not None  # noqa: SLF001
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
        scheduling._sender.shutdown(wait=True)  # noqa: SLF001
