"""A server process that dies lets go of its players: heartbeat keys in the real Redis, socket rows
in the real PostgreSQL, the reaper beat task, and the real ASGI app for the sockets."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections, transaction
from django.test import Client

from config.asgi import application
from gameplay import services
from gameplay.models import Seat, SeatConnection, Table
from gameplay.tables import presence, servers
from gameplay.tasks import reap_dead_servers_task
from tests.communicator import CEILING, Communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@pytest.fixture
def rds():
    client = redis.Redis.from_url(settings.REDIS_URL)
    yield client
    client.close()


@pytest.fixture
def alive_server(rds):
    """The id of another server process that is alive: its heartbeat key is in Redis."""
    server_id = f"live-{uuid.uuid4().hex}"
    rds.set(servers.server_key(server_id), "1", ex=60)
    yield server_id
    rds.delete(servers.server_key(server_id))


@pytest.fixture
def dead_server(rds):
    """The id of a server process that was killed: rows in the database, no key in Redis."""
    server_id = f"dead-{uuid.uuid4().hex}"
    assert not rds.exists(servers.server_key(server_id))
    return server_id


def _open(table: Table, seat: int, server_id: str, n: int = 1) -> None:
    for _ in range(n):
        services.connection_changed(table_id=table.pk, seat=seat, delta=1, server_id=server_id,
                                    channel_name=f"specific.{uuid.uuid4().hex}!x")


def _seat(table_id: int, seat: int) -> Seat:
    return Seat.objects.get(table_id=table_id, seat=seat)


def _cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def sock(table_id: int, cookie: bytes) -> Communicator:
    return Communicator(application, f"/ws/table/{table_id}/", headers=[ORIGIN, (b"cookie", cookie)])


def _by_letter(frame: dict) -> dict[str, dict]:
    return {s["seat"]: s for s in frame["table"]["seats"]}


async def told(s: Communicator, *letters: str, connected: bool) -> dict:
    """The first presence frame the socket gets in which every seat of `letters` shows `connected`:
    the one it waits for, however long a busy machine takes to send it."""
    def wanted(frame: dict) -> bool:
        return frame["type"] == "presence" and all(
            _by_letter(frame)[x]["connected"] is connected for x in letters)

    return (await s.receive_until(wanted))[-1]


async def test_a_dead_servers_player_becomes_disconnected_and_everyone_is_told(
        table4, people, dead_server, alive_server):
    table = table4
    assert table.status == "playing"
    await database_sync_to_async(_open)(table, 0, dead_server, n=2)  # two tabs, one dead process
    await database_sync_to_async(_open)(table, 1, alive_server)
    # the presence those opened sent went out as they committed, before the spectator came
    spectator = sock(table.pk, await database_sync_to_async(_cookie_for)(people[4]))
    assert (await spectator.connect())[0]
    n = await database_sync_to_async(_seat)(table.pk, 0)
    assert n.connected and n.connections == 2 and n.disconnected_at is None

    assert await database_sync_to_async(reap_dead_servers_task)() == 1

    frames = await spectator.receive_until(lambda f: f["type"] == "presence")
    assert await spectator.receive_nothing(timeout=0.5)  # one frame for the one seat changed
    seats = _by_letter(frames[-1])
    assert seats["N"]["connected"] is False and seats["N"]["grace_left"] is not None
    assert seats["E"]["connected"] is True
    n = await database_sync_to_async(_seat)(table.pk, 0)
    assert n.connections == 0 and not n.connected and n.disconnected_at is not None
    assert not await database_sync_to_async(SeatConnection.objects.filter(server_id=dead_server).exists)()
    e = await database_sync_to_async(_seat)(table.pk, 1)
    assert e.connections == 1 and e.disconnected_at is None
    await spectator.disconnect()


def test_a_live_servers_connections_are_left_alone(table4, alive_server):
    _open(table4, 0, alive_server)
    _open(table4, 2, alive_server, n=2)
    assert reap_dead_servers_task() == 0
    assert (_seat(table4.pk, 0).connections, _seat(table4.pk, 2).connections) == (1, 2)
    assert SeatConnection.objects.filter(server_id=alive_server).count() == 3
    assert _seat(table4.pk, 0).disconnected_at is None


def test_a_socket_opening_or_closing_costs_a_few_queries(table4, alive_server, django_assert_max_num_queries):
    """A seated player's socket opening or closing: the seat row locked (with its table's status),
    its connection row written, the count, the seat (with BEGIN and COMMIT, six), then the presence
    sent on commit (the table and its seats): eight statements each, ten before. Ten flood sockets
    come and go at once, and each query is the server's CPU the other tables' moves wait for."""
    channel = f"specific.{uuid.uuid4().hex}!x"
    with django_assert_max_num_queries(8):
        assert services.connection_changed(table_id=table4.pk, seat=1, delta=1, server_id=alive_server,
                                           channel_name=channel)
    with django_assert_max_num_queries(8):
        assert services.connection_changed(table_id=table4.pk, seat=1, delta=-1, channel_name=channel)
    assert _seat(table4.pk, 1).connections == 0
    assert not SeatConnection.objects.filter(channel_name=channel).exists()


def test_a_socket_recorded_again_only_moves_to_its_new_server(table4, alive_server, dead_server):
    channel = f"specific.{uuid.uuid4().hex}!x"
    services.connection_changed(table_id=table4.pk, seat=2, delta=1, server_id=dead_server,
                                channel_name=channel)
    opened = SeatConnection.objects.get(channel_name=channel).opened_at
    assert not services.connection_changed(table_id=table4.pk, seat=2, delta=1, server_id=alive_server,
                                           channel_name=channel)  # the count stays one
    row = SeatConnection.objects.get(channel_name=channel)
    assert (row.server_id, row.opened_at, _seat(table4.pk, 2).connections) == (alive_server, opened, 1)


def test_reaping_twice_or_at_once_changes_nothing_more(table4, dead_server, alive_server):
    for seat in (0, 1, 2):
        _open(table4, seat, dead_server, n=2)
    _open(table4, 3, alive_server)

    barrier = threading.Barrier(4)
    results: list = []

    def beat() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(reap_dead_servers_task())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=beat) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 4 and sum(results) == 3  # each seat changed by exactly one beat
    gone = {s: _seat(table4.pk, s).disconnected_at for s in (0, 1, 2)}
    assert all(at is not None for at in gone.values())
    assert all(_seat(table4.pk, s).connections == 0 for s in (0, 1, 2))

    assert reap_dead_servers_task() == 0
    assert {s: _seat(table4.pk, s).disconnected_at for s in (0, 1, 2)} == gone
    assert _seat(table4.pk, 3).connections == 1


def test_a_seat_held_by_another_transaction_is_done_on_the_next_beat(table4, dead_server):
    _open(table4, 0, dead_server)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Seat.objects.select_for_update().get(table=table4, seat=0)
                locked.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(timeout=60)
        assert reap_dead_servers_task() == 0  # skipped, not waited for
        assert _seat(table4.pk, 0).connections == 1
    finally:
        release.set()
        holder.join(timeout=30)
    assert reap_dead_servers_task() == 1
    assert _seat(table4.pk, 0).connections == 0 and _seat(table4.pk, 0).disconnected_at is not None


def test_a_count_left_by_an_old_process_without_rows_is_recounted(table4):
    Seat.objects.filter(table=table4, seat=1).update(connections=3)  # counted before rows existed
    assert reap_dead_servers_task() == 1
    assert _seat(table4.pk, 1).connections == 0 and _seat(table4.pk, 1).disconnected_at is not None


async def test_a_socket_is_recorded_under_a_live_heartbeat_and_dropped_when_its_server_dies(
        table4, people, rds):
    north = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[0]))
    east = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[1]))
    assert (await north.connect())[0] and (await east.connect())[0]
    await told(east, "N", "E", connected=True)  # both connects have written their rows
    row = await database_sync_to_async(SeatConnection.objects.select_related("seat").get)(seat__seat=0)
    assert row.server_id == servers.SERVER_ID and row.seat.table_id == table4.pk
    assert 0 < rds.ttl(servers.server_key(servers.SERVER_ID)) <= servers.HEARTBEAT_TTL

    assert await database_sync_to_async(reap_dead_servers_task)() == 0  # alive: left alone
    assert (await database_sync_to_async(_seat)(table4.pk, 0)).connections == 1

    # the process is killed: its key expires and its sockets never say goodbye
    rds.delete(servers.server_key(servers.SERVER_ID))
    assert await database_sync_to_async(reap_dead_servers_task)() == 2
    await told(east, "N", connected=False)
    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert n.connections == 0 and n.disconnected_at is not None
    await north.disconnect()  # a late goodbye changes nothing
    assert (await database_sync_to_async(_seat)(table4.pk, 0)).disconnected_at == n.disconnected_at
    await east.disconnect()


async def test_a_server_whose_heartbeat_lapsed_records_its_sockets_again(table4, people, rds, monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT_EVERY", 0.1)
    north = sock(table4.pk, await database_sync_to_async(_cookie_for)(people[0]))
    assert (await north.connect())[0]
    await told(north, "N", connected=True)  # its connect has finished: the row is written
    first_id = servers.SERVER_ID
    old_rows = SeatConnection.objects.filter(seat__seat=0, server_id=first_id)
    assert await database_sync_to_async(old_rows.exists)()
    rds.delete(servers.server_key(first_id))  # e.g. the loop stalled past the TTL

    async def moved() -> SeatConnection | None:
        return await database_sync_to_async(SeatConnection.objects.filter(seat__seat=0).exclude(
            server_id=first_id).first)()

    deadline = time.monotonic() + CEILING  # the heartbeat (every 0.1 s here) records it again
    while (row := await moved()) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert row is not None and row.server_id == servers.SERVER_ID != first_id
    assert rds.exists(servers.server_key(servers.SERVER_ID))
    assert await database_sync_to_async(reap_dead_servers_task)() == 0
    assert (await database_sync_to_async(_seat)(table4.pk, 0)).connections == 1
    await north.disconnect()
    n = await database_sync_to_async(_seat)(table4.pk, 0)
    assert n.connections == 0 and n.disconnected_at is not None
