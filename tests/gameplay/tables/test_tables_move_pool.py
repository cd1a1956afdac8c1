"""Moves in worker processes (GAMEPLAY_MOVE_PROCESSES): the same frames, receipts and refusals as in
the server's threads, and a worker killed before or during a move loses and doubles nothing."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import override_settings
from tables_helpers import hand_strings, legal_strings
from test_tables_sockets import _state, answered, drain, four_people_table, open_all, sync, until_event

from config import collector
from gameplay.models import TableEvent
from gameplay.tables import move_pool
from tests.conftest import REPO_ROOT, _database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]


@pytest.fixture
def worker_pool():
    """One move worker process for the test, shut down after it.

    The table's clocks are stretched a hundredfold: a deal that opens with a redeal question has
    one 15 s clock, set as the table starts, and when the run's Celery worker is up (another test
    file started it in this process) it closed the question with an event of its own mid-test,
    after a killed worker's replacement was slow to spawn on a busy machine."""
    with override_settings(GAMEPLAY_MOVE_PROCESSES=1, GAMEPLAY_CLOCK_SCALE=100):
        yield
        pool = move_pool._pool
        if pool is not None:
            move_pool.replace_broken(pool)
            pool.shutdown(wait=True)


def _worker_pids() -> list[int]:
    pool = move_pool.pool()
    pool.submit(int).result(timeout=60)  # started and answering
    return list(pool._processes)


@database_sync_to_async
def _events(table_id: int) -> list[tuple[int, str, int | None]]:
    return list(TableEvent.objects.filter(table_id=table_id).order_by("number")
                .values_list("number", "move_id", "move_seat"))


def test_a_move_worker_keeps_the_collector_off_its_start_up_objects(worker_pool):
    """Every move in a worker would wait out the collector's full passes over Django's own objects
    (~90 ms each, bench/ws/load.py BENCH_GC_LOG): a worker freezes what start-up left and collects
    its young generation rarely, as the server does (config/collector.py)."""
    pool = move_pool.pool()
    frozen = pool.submit(gc.get_freeze_count).result(timeout=60)
    threshold = pool.submit(gc.get_threshold).result(timeout=60)
    assert frozen > 10_000  # Django, the apps and the models, out of the collector's view
    assert threshold[0] == collector.DEFAULT_THRESHOLD0


async def test_a_move_made_in_a_worker_process_reaches_every_viewer_filtered(worker_pool):
    table_id, cookies, spec = await four_people_table()
    socks = await open_all(table_id, cookies, spec)
    worker = _worker_pids()
    assert worker and all(pid != os.getpid() for pid in worker)
    state = await database_sync_to_async(_state)(table_id)
    mover = state.to_move
    action = legal_strings(state)[0]
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "w1"})
    frames = [await until_event(s, 6, acked=seat == mover) for seat, s in enumerate(socks)]
    after = await database_sync_to_async(_state)(table_id)
    for seat, got in enumerate(frames):
        events = [f for f in got if f["type"] == "event"]
        assert [e["n"] for e in events] == [6], got
        if seat < 4:
            assert set(events[0]["view"]["hand"]) == hand_strings(after, seat)
        else:
            assert events[0]["view"]["hand"] is None
        assert [f for f in got if f["type"] == "ack"] == (
            [{"type": "ack", "id": "w1", "n": 6, "duplicate": False}] if seat == mover else [])
    # A resend is answered from the receipt, applied nowhere; an illegal card is refused to him only.
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "w1"})
    again = await socks[mover].receive_json_from()
    assert again["type"] == "ack" and again["duplicate"] and again["n"] == 6
    nxt = after.to_move
    await socks[nxt].send_json_to({"type": "move", "action": "ZZ", "n": 6, "id": "w2"})
    refused = await socks[nxt].receive_json_from()
    assert refused["type"] == "refused" and refused["id"] == "w2" and refused["message"]
    assert (await _events(table_id))[-1] == (6, "w1", mover)
    for s in socks:
        assert not [f for f in await drain(s) if f["type"] == "event"]
        await s.disconnect()


async def test_a_killed_worker_loses_and_doubles_nothing(worker_pool):
    table_id, cookies, spec = await four_people_table()
    socks = await open_all(table_id, cookies, spec)
    for pid in _worker_pids():
        os.kill(pid, signal.SIGKILL)
    state = await database_sync_to_async(_state)(table_id)
    mover = state.to_move
    action = legal_strings(state)[0]
    # The pool finds its worker dead: the move is not confirmed, the client is brought up to what
    # the database holds (here: nothing was applied, no event is missing), and may send it again.
    got = await answered(socks[mover], {"type": "move", "action": action, "n": 5, "id": "k1"})
    assert got and got[0]["type"] == "refused" and got[0]["code"] == "stale", got
    assert not [f for f in got if f["type"] == "event"], got
    assert [n for n, *_ in await _events(table_id)] == [1, 2, 3, 4, 5]
    # A new worker takes the resend; the move is applied once.
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "k1"})
    ack = (await socks[mover].receive_until(lambda f: f["type"] in ("ack", "refused")))[-1]
    assert ack == {"type": "ack", "id": "k1", "n": 6, "duplicate": False}
    # Killed after that move committed: the resend is recognised, not applied twice.
    for pid in _worker_pids():
        os.kill(pid, signal.SIGKILL)
    await answered(socks[mover], {"type": "move", "action": action, "n": 5, "id": "k1"})
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "k1"})
    dup = (await socks[mover].receive_until(lambda f: f["type"] in ("ack", "refused")))[-1]
    assert dup["type"] == "ack" and dup["duplicate"] and dup["n"] == 6
    assert [n for n, *_ in await _events(table_id)] == [1, 2, 3, 4, 5, 6]
    snap = next(f for f in await sync(socks[mover]) if f["type"] == "snapshot")
    assert snap["n"] == 6
    for s in socks:
        await s.disconnect()


async def test_a_worker_finishes_its_move_when_the_server_is_stopped(worker_pool):
    """systemd stops a server's unit with SIGTERM to every process of its group, its move workers
    too (KillMode=control-group). A worker that died then, after its move committed and before it
    handed the move back, lost the move's frames and the task queued after it: a bot never moved
    again (tests/tournaments/day/test_deploy_two_processes.py). A worker lets the signal pass and
    goes on; the server, shutting down gracefully, gets the move back, and its workers end with it
    (the next test)."""
    table_id, cookies, spec = await four_people_table()
    socks = await open_all(table_id, cookies, spec)
    workers = _worker_pids()
    for pid in workers:
        os.kill(pid, signal.SIGTERM)
    state = await database_sync_to_async(_state)(table_id)
    mover = state.to_move
    await socks[mover].send_json_to({"type": "move", "action": legal_strings(state)[0], "n": 5, "id": "t1"})
    frames = [await until_event(s, 6, acked=seat == mover) for seat, s in enumerate(socks)]
    assert {"type": "ack", "id": "t1", "n": 6, "duplicate": False} in frames[mover]
    assert all(any(f["type"] == "event" and f["n"] == 6 for f in got) for got in frames)
    assert _worker_pids() == workers  # the same worker, still there
    for s in socks:
        await s.disconnect()


#: A server process as uvicorn ends one stopped by SIGTERM: its move workers started, it dies by
#: the signal (uvicorn raises it again at itself once it has shut down), no exit handler runs.
_SERVER = """
import django
django.setup()
from django.test import override_settings
from gameplay.tables import move_pool
with override_settings(GAMEPLAY_MOVE_PROCESSES=1):
    pool = move_pool.pool()
    pool.submit(int).result(timeout=120)
    print(*pool._processes, flush=True)
    input()
"""


def _running_in_group(group: int) -> list[int]:
    """The processes of process group `group` that are neither gone nor zombies."""
    running = []
    for entry in Path("/proc").iterdir():
        try:
            state, _, pgid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgid) == group and state != "Z":
            running.append(int(entry.name))
    return running


def test_a_worker_ends_with_its_server_however_the_server_ends():
    """uvicorn, stopped by SIGTERM, shuts down and raises the signal again at itself: the server
    dies without running its exit handlers, the pool's shutdown among them. Its workers, which
    ignore SIGTERM, stayed on for good: bin/site killed them 5 s later, systemd at the unit's
    TimeoutStopSec. A worker now sees that its server is gone, and exits."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": _database_url(settings.DATABASES["default"]), "REDIS_URL": settings.REDIS_URL,
           "BILKA_RUN_ID": settings.RUN_ID, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(  # noqa: S603 - fixed command line
        [sys.executable, "-c", _SERVER], cwd=REPO_ROOT, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers, "the server started no worker"
        os.killpg(server.pid, signal.SIGTERM)  # as systemd stops the unit: its whole group
        assert server.wait(timeout=30) == -signal.SIGTERM
        deadline = time.monotonic() + 10
        while _running_in_group(server.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running_in_group(server.pid), "a move worker outlived its server"
    finally:
        for pid in _running_in_group(server.pid):
            os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
            server.wait()
