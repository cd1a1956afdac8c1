"""Frames a table socket cannot read, sockets that end without a goodbye, and moves without their
event number: through the real ASGI app, the real Redis layer and PostgreSQL, and a real Daphne
process that is killed."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import websockets
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django_celery_beat.models import PeriodicTask
from tables_helpers import legal_strings

from config.asgi import application
from config.schedule import DEAD_SERVERS_TASK_NAME
from gameplay import services
from gameplay.models import Seat, SeatConnection, Table
from gameplay.tables import servers
from gameplay.tasks import reap_dead_servers_task
from tests.communicator import CEILING, Communicator
from tests.conftest import REPO_ROOT, _database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
UNREADABLE_RU = "Это сообщение не удалось прочитать."
TOO_LARGE_RU = "Это сообщение слишком длинное для стола."
# Daphne imports Django and the site before it listens: seconds on an idle machine, far more on a
# busy one; only a server that cannot start takes this long.
SERVER_START_CEILING = 120


def _cookie_for(user, lang: str = "ru") -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; django_language={lang}".encode()


def sock(table_id: int, cookie: bytes) -> Communicator:
    return Communicator(application, f"/ws/table/{table_id}/", headers=[ORIGIN, (b"cookie", cookie)])


async def drain(s: Communicator, timeout: float = 0.3) -> list[dict]:
    frames = []
    while not await s.receive_nothing(timeout=timeout):
        frames.append(await s.receive_json_from())
    return frames


async def answer(s: Communicator) -> dict:
    """The first frame that is not a presence frame."""
    while True:
        frame = await s.receive_json_from()
        if frame["type"] != "presence":
            return frame


def _seat(table_id: int, seat: int) -> Seat:
    return Seat.objects.get(table_id=table_id, seat=seat)


def _rows(table_id: int, seat: int) -> int:
    return SeatConnection.objects.filter(seat__table_id=table_id, seat__seat=seat).count()


UNREADABLE_FRAMES = {
    "broken json": {"text": '{"type": "move", "action": "JC", "n": 5'},
    "not json at all": {"text": "hello"},
    "empty text": {"text": ""},
    "binary": {"bytes": b"\x00\x01\x02"},
    "binary json": {"bytes": b'{"type": "ping"}'},
    "deeply nested arrays": {"text": "[" * 2000 + "]" * 2000},  # under the size cap, over the parser's depth
    "nested in a move": {"text": '{"type": "move", "action": ' + "[" * 900 + "]" * 900 + ', "n": 5}'},
}
# Longer than GAMEPLAY_FRAME_MAX_BYTES: refused before they are read (gameplay.tables.flood).
TOO_LARGE_FRAMES = {
    "deeply nested arrays, long": {"text": "[" * 100_000 + "]" * 100_000},
    "a number too long to read": {"text": '{"type": "sync", "last": ' + "9" * 5000 + "}"},
    "a hundred kilobytes": {"text": '{"type": "ping", "pad": "' + "ж" * 50_000 + '"}'},
    "binary, long": {"bytes": b"\x00" * 5000},
}


@pytest.mark.parametrize("frame", UNREADABLE_FRAMES.values(), ids=list(UNREADABLE_FRAMES))
async def test_a_frame_that_cannot_be_read_is_refused_and_the_socket_lives_on(table4, people, frame):
    north = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[0]))
    assert (await north.connect())[0]
    await drain(north)

    await north.send_input({"type": "websocket.receive", **frame})
    refused = await answer(north)
    assert refused == {"type": "refused", "id": None, "code": "invalid", "message": UNREADABLE_RU}

    # the same socket still plays: it answers, and the seat is still connected with its one row
    await north.send_json_to({"type": "ping"})
    assert await answer(north) == {"type": "pong"}
    assert (await database_sync_to_async(_seat)(table4.pk, 0)).connected
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 1

    await north.disconnect()
    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert not n.connected and n.disconnected_at is not None
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 0


@pytest.mark.parametrize("frame", TOO_LARGE_FRAMES.values(), ids=list(TOO_LARGE_FRAMES))
async def test_a_frame_over_the_size_cap_is_refused_in_words_then_the_socket_closes(table4, people, frame):
    """No page sends a frame over the cap: the client is told why in its language, then the
    socket is closed with the protocol's 1009, and the seat lets go of it as on any close."""
    north = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[0]))
    assert (await north.connect())[0]
    await drain(north)

    await north.send_input({"type": "websocket.receive", **frame})
    refused = await answer(north)
    assert refused == {"type": "refused", "id": None, "code": "too_large", "message": TOO_LARGE_RU}
    assert await north.receive_output() == {"type": "websocket.close", "code": 1009}
    await north.send_json_to({"type": "ping"})  # a frame after the close is dropped, unanswered
    assert await north.receive_nothing(timeout=0.3)

    await north.disconnect()
    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert not n.connected and n.disconnected_at is not None
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 0


def _seats(frame: dict) -> dict[str, dict]:
    return {s["seat"]: s for s in frame["table"]["seats"]} if frame["type"] == "presence" else {}


async def test_a_socket_the_server_cancels_lets_go_of_its_seat(table4, people):
    """Daphne cancels a socket's application that does not end in time after its client left: its
    disconnect never runs, yet the seat must turn disconnected and start spending its grace."""
    north = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[0]))
    east = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[1]))
    assert (await north.connect())[0] and (await east.connect())[0]
    await east.receive_until(lambda f: all(_seats(f).get(x, {}).get("connected") for x in "NE"))
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 1

    north.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await north.future

    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert not n.connected and n.disconnected_at is not None
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 0
    told = await east.receive_until(lambda f: f["type"] == "presence")
    assert _seats(told[-1])["N"]["connected"] is False
    await east.disconnect()


def _to_move(table_id: int) -> tuple[int, int, str]:
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    return state.to_move, table.event_seq, legal_strings(state)[0]


@pytest.mark.parametrize("n", [None, "5", True, 5.0], ids=["missing", "text", "bool", "float"])
async def test_a_move_without_its_event_number_is_refused(table4, people, n):
    mover, seq, action = await database_sync_to_async(_to_move)(table4.pk)
    s = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[mover]))
    assert (await s.connect())[0]
    await drain(s)

    move = {"type": "move", "action": action, "id": "no-n"}
    if n is not None:
        move["n"] = n
    await s.send_json_to(move)
    refused = await answer(s)
    assert refused["type"] == "refused" and refused["code"] == "invalid" and refused["id"] == "no-n"
    assert refused["message"] == "Ход должен нести номер последнего увиденного события."
    assert (await database_sync_to_async(_to_move)(table4.pk))[1] == seq  # nothing was played

    await s.send_json_to({**move, "n": seq})  # the same move with its number is played
    ack = await answer(s)
    assert ack["type"] == "ack" and ack["n"] == seq + 1
    await s.disconnect()


@pytest.mark.parametrize("n", [None, "5", True], ids=["missing", "text", "bool"])
def test_the_move_service_refuses_a_move_without_its_event_number(table4, n):
    mover, seq, action = _to_move(table4.pk)
    outcome = services.play(table_id=table4.pk, seat=mover, action=action, expected_event=n)
    assert not outcome.ok and outcome.code == "invalid"
    assert _to_move(table4.pk)[1] == seq


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def daphne_process(django_db_setup):
    """A Daphne server process on a free port, on the test database; killed by the test or here."""
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": _database_url(settings.DATABASES["default"]), "REDIS_URL": settings.REDIS_URL,
           "BILKA_RUN_ID": settings.RUN_ID, "PYTHONUNBUFFERED": "1"}
    log = Path(REPO_ROOT / "var" / f"daphne-frames-{port}.log")
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        process = subprocess.Popen(  # noqa: S603 - fixed command line
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + SERVER_START_CEILING
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"daphne did not start:\n{log.read_text()}")
            time.sleep(0.2)
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


async def test_a_killed_server_process_lets_go_of_its_seats_within_a_minute(table4, people, daphne_process):
    """Up to a heartbeat TTL (30 s) of waiting for the dead server's key to end, then one run of the
    reaper, as the beat runs it."""
    process, port = daphne_process
    cookie = (await database_sync_to_async(_cookie_for)(people[0])).decode()
    headers = {"Origin": "http://127.0.0.1:8000", "Cookie": cookie}
    url = f"ws://127.0.0.1:{port}/ws/table/{table4.pk}/"
    async with websockets.connect(url, additional_headers=headers) as ws:
        await ws.send('{"type": "sync", "last": -1')  # a broken frame is answered, the socket lives on
        assert '"invalid"' in await asyncio.wait_for(ws.recv(), CEILING)
        row = await database_sync_to_async(SeatConnection.objects.get)(seat__table_id=table4.pk, seat__seat=0)
        assert row.server_id != servers.SERVER_ID  # recorded by the Daphne process
        os.kill(process.pid, signal.SIGKILL)  # no disconnect runs anywhere
        killed = time.monotonic()
        process.wait()

    plan = await database_sync_to_async(PeriodicTask.objects.select_related("interval").get)(
        name=DEAD_SERVERS_TASK_NAME)
    assert plan.enabled and plan.interval.period == "seconds"
    # The server's heartbeat key outlives it by at most its TTL, and the beat runs the reaper every
    # `every` seconds: the first run after the key is gone lets go of the seat, within a minute.
    assert servers.HEARTBEAT_TTL + plan.interval.every < 60
    rds = redis.Redis.from_url(settings.REDIS_URL)
    key = servers.server_key(row.server_id)
    assert 0 < rds.ttl(key) <= servers.HEARTBEAT_TTL
    while rds.exists(key):  # Redis ends it on its own clock, whatever this machine's speed
        assert time.monotonic() - killed < servers.HEARTBEAT_TTL + CEILING, "the heartbeat key never ended"
        await asyncio.sleep(0.5)
    rds.close()
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 1  # nothing has let go of it yet
    await database_sync_to_async(reap_dead_servers_task)()
    assert await database_sync_to_async(_rows)(table4.pk, 0) == 0
    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert not n.connected and n.disconnected_at is not None
