"""The table socket through the real ASGI app (session auth, origin check) and the real Redis layer."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from tables_helpers import answer_play, hand_strings, legal_strings, play_random

from config.asgi import application
from gameplay import services
from gameplay.engine.cards import SEATS
from gameplay.models import Seat, Table
from tests.communicator import Communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@database_sync_to_async
def four_people_table(rules: dict | None = None) -> tuple[int, list[bytes], bytes]:
    """A started table (N E S W in order, house rules `rules`), each seat's cookie and a spectator's
    cookie."""
    User = get_user_model()
    users = [User.objects.create_user(username=f"s{i}", password="pw-x-1") for i in range(5)]
    table = services.create_table(rules=rules or {}, seating="in_order", user=users[0])
    for u in users[1:4]:
        services.sit(table_id=table.pk, user=u)
    return table.pk, [_cookie_for(u) for u in users[:4]], _cookie_for(users[4])


def sock(table_id: int, cookie: bytes | None = None, origin=ORIGIN) -> Communicator:
    headers = [origin] if origin else []
    if cookie:
        headers.append((b"cookie", cookie))
    return Communicator(application, f"/ws/table/{table_id}/", headers=headers)


def everyone_connected(frame: dict) -> bool:
    return frame["type"] == "presence" and all(seat["connected"] for seat in frame["table"]["seats"])


async def open_all(table_id, cookies, spectator_cookie):
    """The four seats' sockets and a spectator's, with every presence frame their opening sends read.

    Each seat's opening tells the table in a presence frame, one after another, the last one with
    all four connected; the spectator comes after every seat has heard that one, and his opening
    tells nobody. Nothing is left on its way to any socket, however slow the machine."""
    seats = [sock(table_id, c) for c in cookies]
    for s in seats:
        assert (await s.connect())[0]
    for s in seats:
        await s.receive_until(everyone_connected)
    spectator = sock(table_id, spectator_cookie)
    assert (await spectator.connect())[0]
    return [*seats, spectator]


async def drain(s, timeout=0.2) -> list[dict]:
    """What reaches the socket until it has been quiet for `timeout`: only for checking that nothing
    more comes (a slow machine may deliver a frame later than that, so never to collect one)."""
    frames = []
    while not await s.receive_nothing(timeout=timeout):
        frames.append(await s.receive_json_from())
    return frames


async def answered(s, message: dict) -> list[dict]:
    """Send `message`, then a ping: the socket handles its messages one at a time, so every frame
    the message is answered with comes before the pong (frames of the table, presence, may come
    between them too)."""
    await s.send_json_to(message)
    await s.send_json_to({"type": "ping"})
    return (await s.receive_until(lambda f: f["type"] == "pong"))[:-1]


async def sync(s, last=-1) -> list[dict]:
    return await answered(s, {"type": "sync", "last": last})


async def reply(s) -> dict:
    """The answer to the socket's own message: the next frame that is an ack or a refusal (frames
    of the table, presence or the move's event, may come first)."""
    return (await s.receive_until(lambda f: f["type"] in ("ack", "refused")))[-1]


async def until_event(s, n: int, *, acked: bool = False) -> list[dict]:
    """The frames up to the table's event `n`, and with `acked` up to the answer to the socket's own
    move too (the answer comes straight back, the event through the channel layer: either first)."""
    seen = set()

    def wanted(frame: dict) -> bool:
        if frame["type"] == "event" and frame["n"] == n:
            seen.add("event")
        if frame["type"] in ("ack", "refused"):
            seen.add("answer")
        return seen == ({"event", "answer"} if acked else {"event"})

    return await s.receive_until(wanted)


def _state(table_id):
    return services.load_state(Table.objects.get(pk=table_id))


async def test_each_viewer_gets_its_own_snapshot_and_frames():
    table_id, cookies, spec = await four_people_table()
    socks = await open_all(table_id, cookies, spec)
    state = await database_sync_to_async(_state)(table_id)
    for seat, s in enumerate(socks):
        snap = next(f for f in await sync(s) if f["type"] == "snapshot")
        assert snap["n"] == 5
        if seat < 4:
            assert snap["you"]["seat"] == SEATS[seat]
            assert set(snap["view"]["hand"]) == hand_strings(state, seat)
        else:
            assert snap["you"]["seat"] is None and snap["view"]["hand"] is None

    mover = state.to_move
    action = legal_strings(state)[0]
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "m1"})
    all_frames = [await until_event(s, 6, acked=seat == mover) for seat, s in enumerate(socks)]
    after = await database_sync_to_async(_state)(table_id)
    for seat in range(len(socks)):
        frames = all_frames[seat]
        events = [f for f in frames if f["type"] == "event"]
        assert len(events) == 1 and events[0]["n"] == 6, frames
        view = events[0]["view"]
        if seat < 4:
            assert set(view["hand"]) == hand_strings(after, seat)
        else:
            assert view["hand"] is None
        acks = [f for f in frames if f["type"] == "ack"]
        assert (acks == [{"type": "ack", "id": "m1", "n": 6, "duplicate": False}]) == (seat == mover)
    # the same move id again (a lost acknowledgement): answered, not applied
    await socks[mover].send_json_to({"type": "move", "action": action, "n": 5, "id": "m1"})
    again = await socks[mover].receive_json_from()
    assert again["type"] == "ack" and again["duplicate"] and again["n"] == 6
    for s in socks:
        assert not [f for f in await drain(s) if f["type"] == "event"]
    for s in socks:
        await s.disconnect()


async def test_refusals_go_to_that_client_only_and_change_nothing():
    table_id, cookies, spec = await four_people_table()
    n = (await database_sync_to_async(answer_play)(table_id)).event_seq  # past the redeal question
    socks = await open_all(table_id, cookies, spec)
    state = await database_sync_to_async(_state)(table_id)
    mover = state.to_move
    other = (mover + 1) % 4
    action = legal_strings(state)[0]
    cases = [
        (socks[other], {"type": "move", "action": action, "n": n, "id": "x1"}, "not_your_turn"),
        (socks[mover], {"type": "move", "action": action, "n": n, "id": "x2", "seat": SEATS[other]},
         "forbidden"),
        (socks[4], {"type": "move", "action": action, "n": n, "id": "x3"}, "forbidden"),
        (socks[mover], {"type": "move", "action": "ZZ", "n": n, "id": "x4"}, "invalid"),
        (socks[mover], {"type": "bogus"}, "invalid"),
    ]
    foreign = sorted(hand_strings(state, other))[0]
    cases.append((socks[mover], {"type": "move", "action": foreign, "n": n, "id": "x5"}, "illegal"))
    for s, message, code in cases:
        await s.send_json_to(message)
        answer = await s.receive_json_from()
        assert answer["type"] == "refused" and answer["code"] == code, (message, answer)
        assert answer["message"]
        for t in socks:
            assert await t.receive_nothing(timeout=0.1)
    table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    assert table.event_seq == n
    # a stale move is refused and the client gets what it missed
    await database_sync_to_async(play_random)(table_id, random.Random(1), 1)
    for t in socks:
        await until_event(t, n + 1)
    state = await database_sync_to_async(_state)(table_id)
    await socks[state.to_move].send_json_to(
        {"type": "move", "action": legal_strings(state)[0], "n": n, "id": "late"})
    answer = await socks[state.to_move].receive_json_from()
    assert answer["type"] == "refused" and answer["code"] == "stale"
    caught = await socks[state.to_move].receive_json_from()
    assert caught["type"] == "event" and caught["n"] == n + 1
    for s in socks:
        await s.disconnect()


async def test_a_finished_table_refuses_moves():
    table_id, cookies, spec = await four_people_table()
    await database_sync_to_async(services.resign)(table_id=table_id, seat=0)
    s = sock(table_id, cookies[1])
    assert (await s.connect())[0]
    await s.send_json_to({"type": "move", "action": "JC", "n": 6, "id": "f"})
    refused = await reply(s)
    assert refused["type"] == "refused" and refused["code"] == "finished"
    await s.disconnect()


@pytest.mark.parametrize("origin", [
    b"https://127.0.0.1:8000",  # the site's host and port, another scheme
    b"http://127.0.0.1:9999",  # another server on the site's host
    b"http://127.0.0.1",  # the site's host, the default port
    b"https://evil.example",
    b"http://127.0.0.1.evil.example:8000",
    b"null",
    None,  # no Origin header at all
])
async def test_a_socket_from_anything_but_the_sites_own_origin_is_refused_and_cannot_move(origin):
    table_id, cookies, _ = await four_people_table()
    state = await database_sync_to_async(_state)(table_id)
    s = sock(table_id, cookies[state.to_move], origin=(b"origin", origin) if origin else None)
    connected, _ = await s.connect()
    assert not connected
    await s.disconnect()
    after = await database_sync_to_async(_state)(table_id)
    assert len(after.deals[-1].plays) == len(state.deals[-1].plays)


async def test_a_socket_from_the_sites_own_origin_plays():
    table_id, cookies, _ = await four_people_table()
    state = await database_sync_to_async(_state)(table_id)
    s = sock(table_id, cookies[state.to_move], origin=(b"origin", b"http://127.0.0.1:8000"))
    assert (await s.connect())[0]
    await s.send_json_to({"type": "move", "action": legal_strings(state)[0], "n": 5, "id": "own"})
    assert await reply(s) == {"type": "ack", "id": "own", "n": 6, "duplicate": False}
    await s.disconnect()


async def test_an_unknown_table_is_refused():
    s = sock(999999)
    connected, code = await s.connect()
    assert not connected


async def test_reconnect_mid_deal_brings_the_state_back_exactly():
    table_id, cookies, spec = await four_people_table()
    rng = random.Random(4)
    await database_sync_to_async(play_random)(table_id, rng, 6)
    s = sock(table_id, cookies[0])
    assert (await s.connect())[0]
    frames = await sync(s, -1)
    last = max(f["n"] for f in frames if "n" in f)  # presence frames carry no number
    await s.disconnect()  # the phone goes into a tunnel
    await database_sync_to_async(play_random)(table_id, rng, 5)
    s = sock(table_id, cookies[0])
    assert (await s.connect())[0]
    missed = [f for f in await sync(s, last) if f["type"] != "presence"]
    assert [f["n"] for f in missed] == list(range(last + 1, last + 6))
    fresh = sock(table_id, cookies[0])
    assert (await fresh.connect())[0]
    snapshot = next(f for f in await sync(fresh, -1) if f["type"] == "snapshot")
    assert missed[-1]["view"] == snapshot["view"]
    assert missed[-1]["n"] == snapshot["n"]
    await s.disconnect()
    await fresh.disconnect()


async def test_anonymous_play_now_player_is_known_by_session():
    @database_sync_to_async
    def make():
        session = SessionStore()
        session.create()
        return session.session_key, services.play_now(session_key=session.session_key).pk

    key, table_id = await make()
    s = sock(table_id, f"sessionid={key}".encode())
    assert (await s.connect())[0]
    snap = next(f for f in await sync(s) if f["type"] == "snapshot")
    assert snap["you"]["seat"] == "S" and len(snap["view"]["hand"]) == 8
    seat = await database_sync_to_async(Seat.objects.get)(table_id=table_id, seat=2)
    assert seat.connections == 1
    await s.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(table_id=table_id, seat=2)
    assert seat.connections == 0 and seat.disconnected_at is not None
