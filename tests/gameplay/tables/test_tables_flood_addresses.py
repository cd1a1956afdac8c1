"""Whom the table sockets' limits count (gameplay.tables.flood): each session first, an address only
for a client without one, read as clubs.addresses reads it; and how long a flooding client stays out.

Through the real ASGI app and the real Redis; a socket's peer address is set as the server would
(`scope["client"]`), the headers as the client or a proxy sent them.
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from test_tables_flood import closed_with, pings_answered
from test_tables_sockets import ORIGIN, four_people_table

from config.asgi import application
from gameplay.tables import flood
from tests.communicator import Communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]


@pytest.fixture
def limits(settings):
    def set_limits(**values) -> None:
        for name, value in values.items():
            setattr(settings, f"GAMEPLAY_FLOOD_{name.upper()}", value)

    return set_limits


def _address() -> str:
    return f"198.51.{random.randrange(100, 250)}.{random.randrange(1, 250)}"


def sock_from(
    peer: str, table_id: int, cookie: bytes | None = None, forwarded: str | None = None
) -> Communicator:
    """A table socket whose connection comes from `peer` (the ASGI server's `client`)."""

    async def from_peer(scope, receive, send):
        return await application({**scope, "client": (peer, 40000)}, receive, send)

    headers = [ORIGIN, (b"cookie", b"django_language=ru" + (b"; " + cookie if cookie else b""))]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    return Communicator(from_peer, f"/ws/table/{table_id}/", headers=headers)


@database_sync_to_async
def page_session(table_id: int, address: str) -> bytes:
    """The session cookie an anonymous visitor gets from the table's page."""
    browser = Client()
    response = browser.get(f"/tables/{table_id}/", REMOTE_ADDR=address)
    assert response.status_code == 200
    return f"sessionid={browser.cookies['sessionid'].value}".encode()


@database_sync_to_async
def open_table(name: str) -> int:
    """Another table, open for players, made by a person of its own."""
    from django.contrib.auth import get_user_model

    from gameplay import services

    user = get_user_model().objects.create_user(username=f"host-{name}", password="pw-x-1")
    return services.create_table(rules={}, seating="in_order", user=user).pk


@database_sync_to_async
def guest_sessions(count: int) -> list[SessionStore]:
    sessions = []
    for _ in range(count):
        session = SessionStore()
        session["bilka_guest"] = True
        session.create()
        sessions.append(session)
    return sessions


async def told_too_fast(s) -> dict:
    assert (await s.connect())[0]
    told = await s.receive_json_from()
    assert told["type"] == "refused" and told["code"] == "too_fast", told
    assert await closed_with(s) == 4429
    return told


async def test_an_anonymous_flood_at_one_table_never_locks_out_another_spectator_on_its_address(limits):
    """A hall's one address: somebody floods table X, without a session and then with a guest
    session of his own, again and again; a spectator there on the same address, who opened table Y
    as a guest, keeps watching. The flooder is kept out, each time for a minute at most."""
    limits(socket_burst=5, socket_rate=0.01, hold=0)  # five frames close a socket (as 60 would)
    hall = _address()
    table_x, _cookies, _spec = await four_people_table()
    table_y = await open_table("y")
    spectator = await page_session(table_y, hall)
    flooder = await page_session(table_x, hall)

    waits = []
    for cookie in (None, flooder):
        s = sock_from(hall, table_x, cookie, forwarded="10.9.9.9")
        assert (await s.connect())[0]
        pongs, told = await pings_answered(s, 8)
        assert pongs == 5 and told["code"] == "too_fast"
        assert await closed_with(s) == 4429
        waits.append(told["retry_in"])
        for n in range(6):  # it comes straight back, with a new forged header each time
            waits.append(
                (await told_too_fast(sock_from(hall, table_x, cookie, forwarded=f"10.9.8.{n}")))["retry_in"]
            )
    # kept out for real (the cool-off is 10 s and more), and never for more than a minute
    assert all(2 <= wait <= 60 for wait in waits) and min(waits[0], waits[7]) >= 10, waits

    watcher = sock_from(hall, table_y, spectator)
    assert (await watcher.connect())[0]
    assert await pings_answered(watcher, 3) == (3, None)
    await watcher.disconnect()
    # and at the flooded table too, a spectator with his own session is not held back
    other = sock_from(hall, table_x, await page_session(table_x, hall))
    assert (await other.connect())[0]
    assert await pings_answered(other, 3) == (3, None)
    await other.disconnect()


async def test_the_table_page_gives_a_guest_a_session_of_his_own():
    table_id, _cookies, _spec = await four_people_table()  # playing: nobody can sit down
    first, second = await page_session(table_id, "203.0.113.60"), await page_session(table_id, "203.0.113.60")
    assert first != second


async def test_a_flooding_client_is_cooled_off_for_at_most_a_minute():
    """Under the default limits a client that keeps flooding after every refusal doubles its
    cool-off each time (10 s, then 20, 40 ...) but is never kept out more than a minute, as its
    page is told and as the gate sees it."""
    for scope in (
        {"session": None, "client": (_address(), 1), "headers": []},
        {"session": _Session("flooder-" + _address()), "client": (_address(), 1), "headers": []},
    ):
        verdicts = []
        for _ in range(5000):  # a burst's worth of frames, then one refusal after another
            verdict = await flood.take(scope, None, 1)
            if not verdict.ok:
                verdicts.append(verdict.retry_in)
            if len(verdicts) == 8:
                break
        assert len(verdicts) == 8
        # 10 to 15 s, then longer with each refusal, up to 40 to 60 s (the longest is jittered too)
        assert verdicts[0] >= 10 and max(verdicts) >= 40 and all(w <= 60 for w in verdicts), verdicts
        viewer, _is_address = flood.viewer_of(scope)
        rate = flood.Limits.current().viewer_rate * (
            flood.Limits.current().address_factor if _is_address else 1
        )
        wait = float(
            await flood._script(peek=True)(
                keys=[f"{flood._prefix()}:{viewer}"],  # noqa: SLF001
                args=[flood.CONNECT_COST, rate],
            )
        )
        assert 30 < wait <= 60


class _Session:
    """A session as the session middleware hands it to a socket: only its key is read."""

    def __init__(self, key: str) -> None:
        self.session_key = key


async def test_a_hall_of_200_phones_behind_one_address_is_never_limited():
    """200 guests behind one address open a table's socket at once (the hall's wifi came back),
    each syncs and pings: nothing is refused, since each phone is counted by its own session."""
    hall = _address()
    for n, session in enumerate(await guest_sessions(200)):
        scope = {"session": session, "client": (hall, 40000 + n), "headers": []}
        socket_id = f"phone-{n}-{hall}"
        assert (await flood.take(scope, None, flood.CONNECT_COST)).ok
        assert (await flood.take(scope, socket_id, flood.COSTS["sync"])).ok
        for _ in range(5):
            assert (await flood.take(scope, socket_id, 1)).ok


async def test_a_forged_forwarded_for_makes_no_new_address_for_a_socket(limits):
    """No proxy is trusted: a client without a session who writes a new X-Forwarded-For on every
    connect is still the one address he connects from."""
    limits(viewer_burst=2 * flood.CONNECT_COST, viewer_rate=0.01, address_factor=1, hold=0)
    table_id, _cookies, _spec = await four_people_table()
    peer = _address()
    for n in range(2):
        s = sock_from(peer, table_id, forwarded=f"10.{n}.{n}.{n}")
        assert (await s.connect())[0]
        await s.disconnect()
    await told_too_fast(sock_from(peer, table_id, forwarded="10.2.2.2"))
    # another address is another client
    s = sock_from(_address(), table_id)
    assert (await s.connect())[0]
    await s.disconnect()


async def test_behind_a_trusted_proxy_each_client_counts_apart(limits, settings):
    limits(viewer_burst=2 * flood.CONNECT_COST, viewer_rate=0.01, address_factor=1, hold=0)
    settings.TRUSTED_PROXIES = ["10.0.0.2"]
    table_id, _cookies, _spec = await four_people_table()
    client_a, client_b = _address(), _address()
    for n in range(2):  # what client A writes before the proxy's entry is his own invention
        s = sock_from("10.0.0.2", table_id, forwarded=f"6.6.6.{n}, {client_a}")
        assert (await s.connect())[0]
        await s.disconnect()
    await told_too_fast(sock_from("10.0.0.2", table_id, forwarded=f"6.6.6.9, {client_a}"))
    s = sock_from("10.0.0.2", table_id, forwarded=client_b)
    assert (await s.connect())[0]
    await s.disconnect()
