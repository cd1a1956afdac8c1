"""Sockets coming and going keep the pool's database connections: a signed-in person's handshake
(the user's look-up) and a socket's close open and close none of their own.

Ten flood sockets coming back at once used to cost some twenty PostgreSQL backends in a second,
and the other tables' moves waited for their CPU (config/socket_db.py).
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.db.backends.signals import connection_created
from test_tables_sockets import four_people_table, sock

from gameplay import services
from gameplay.tables import consumers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

SOCKETS = 24


async def seated_and_watching() -> tuple[int, list[bytes]]:
    """A started table of four signed-in people, and a signed-in spectator: their session cookies."""
    table_id, cookies, spectator = await four_people_table()
    return table_id, [*cookies, spectator]


async def open_and_close(table_id: int, cookie: bytes) -> None:
    """A socket that connects, reads its snapshot and closes."""
    s = sock(table_id, cookie)
    assert (await s.connect())[0]
    await s.send_json_to({"type": "sync", "last": -1})
    frame = await s.receive_json_from()
    while frame["type"] == "presence":  # a seat's coming or going may come first
        frame = await s.receive_json_from()
    assert frame["type"] == "snapshot"
    await s.disconnect()


async def test_sockets_that_come_and_go_open_no_database_connection_each(settings):
    settings.GAMEPLAY_SOCKET_DB_REUSE = True  # the site's path (the other table tests close per call)
    table_id, cookies = await seated_and_watching()
    opened: list[object] = []

    def count(sender, connection, **kwargs) -> None:  # noqa: ANN001, ANN003
        opened.append(connection)

    connection_created.connect(count)
    try:
        for k in range(SOCKETS):
            await open_and_close(table_id, cookies[k % len(cookies)])
    finally:
        connection_created.disconnect(count)
    # each pool thread opens one the first time it is used (at most the pool's size), and keeps it
    assert len(opened) <= 8, f"{len(opened)} database connections for {SOCKETS} sockets"


async def test_sockets_coming_at_once_do_their_database_work_one_at_a_time(settings, monkeypatch):
    """Ten sockets connecting together (a flood starting, phones after a restart) take one pool
    thread at a time for their connect, first snapshot and close, not all of them: the event loop
    that relays the other tables' moves keeps its share of the interpreter (config.socket_db.lane)."""
    settings.GAMEPLAY_SOCKET_DB_REUSE = True
    table_id, cookies = await seated_and_watching()
    busy, most, guard = [0], [0], threading.Lock()

    def counted(func):  # noqa: ANN001, ANN202
        def run(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            with guard:
                busy[0] += 1
                most[0] = max(most[0], busy[0])
            try:
                time.sleep(0.02)  # long enough for the others to come in, were they let
                return func(*args, **kwargs)
            finally:
                with guard:
                    busy[0] -= 1
        return run

    monkeypatch.setattr(services, "connection_changed", counted(services.connection_changed))
    monkeypatch.setattr(consumers, "catch_up", counted(consumers.catch_up))

    await asyncio.gather(*(open_and_close(table_id, cookies[k % len(cookies)]) for k in range(10)))
    assert most[0] == 1, f"{most[0]} sockets' database work at once"
