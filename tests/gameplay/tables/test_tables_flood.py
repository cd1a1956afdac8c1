"""Frame limits of the table socket (gameplay.tables.flood) through the real ASGI app and the real Redis."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from tables_helpers import legal_strings, state_of
from test_tables_sockets import _cookie_for, four_people_table, sock

from gameplay.models import Table
from gameplay.tables import flood

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]


@pytest.fixture
def limits(settings):
    """`limits(socket_burst=5, cool_off=3)` sets GAMEPLAY_FLOOD_SOCKET_BURST and _COOL_OFF for the test."""

    def set_limits(**values) -> None:
        for name, value in values.items():
            setattr(settings, f"GAMEPLAY_FLOOD_{name.upper()}", value)

    return set_limits


async def person(name: str) -> bytes:
    """A signed-in person's cookie, reading Russian."""
    create = database_sync_to_async(get_user_model().objects.create_user)
    user = await create(username=name, password="pw-x-1")
    return await database_sync_to_async(_cookie_for)(user) + b"; django_language=ru"


async def setup_table(name: str = "watcher") -> tuple[int, bytes]:
    table_id, _cookies, _spec = await four_people_table()
    return table_id, await person(name)


async def pings_answered(s, count: int) -> tuple[int, dict | None]:
    """Send `count` pings; how many pongs came before the socket was told it is too fast."""
    for _ in range(count):
        await s.send_json_to({"type": "ping"})
    pongs = 0
    while True:
        frame = await s.receive_json_from()
        if frame["type"] == "pong":
            pongs += 1
        elif frame["type"] == "refused":
            return pongs, frame
        if pongs == count:
            return pongs, None


async def closed_with(s) -> int:
    out = await s.receive_output()
    assert out["type"] == "websocket.close"
    return out["code"]


async def test_a_socket_over_its_burst_is_told_why_in_its_language_and_closed(limits):
    limits(socket_burst=5, socket_rate=0.01)
    table_id, cookie = await setup_table()
    s = sock(table_id, cookie)
    assert (await s.connect())[0]
    pongs, told = await pings_answered(s, 8)
    assert pongs == 5
    assert told["code"] == "too_fast" and told["retry_in"] >= 2
    assert told["message"].startswith("Слишком много сообщений")
    assert await closed_with(s) == 4429


async def test_reconnecting_does_not_reset_the_allowance(limits):
    limits(viewer_burst=flood.CONNECT_COST + 5, viewer_rate=0.01)
    table_id, cookie = await setup_table()
    s = sock(table_id, cookie)
    assert (await s.connect())[0]  # the connect takes CONNECT_COST, a ping one
    pongs, told = await pings_answered(s, 10)
    assert pongs == 5 and told["code"] == "too_fast"
    assert await closed_with(s) == 4429
    again = sock(table_id, cookie)  # a new socket of the same person: still nothing left
    assert (await again.connect())[0]
    told = await again.receive_json_from()
    assert told["type"] == "refused" and told["code"] == "too_fast"
    assert await closed_with(again) == 4429
    # somebody else at the same table is not held back by it
    other = sock(table_id, await person("other"))
    assert (await other.connect())[0]
    assert await pings_answered(other, 3) == (3, None)
    await other.disconnect()


async def test_a_client_told_too_fast_stays_out_for_the_cool_off(limits):
    limits(socket_burst=5, socket_rate=0.01, cool_off=3)
    table_id, cookie = await setup_table()
    s = sock(table_id, cookie)
    assert (await s.connect())[0]
    _, told = await pings_answered(s, 8)
    assert told["code"] == "too_fast" and told["retry_in"] >= 3  # the page waits out the cool-off
    assert await closed_with(s) == 4429
    # the viewer's own rate (20 tokens/s) would pay for a connect within 0.3 s: the cool-off keeps
    # the client out for its 3 s all the same, and a connect then is held before it is refused
    await asyncio.sleep(0.5)
    started = time.monotonic()
    again = sock(table_id, cookie)
    assert (await again.connect())[0]
    told = await again.receive_json_from()
    assert told["code"] == "too_fast" and told["retry_in"] >= 2
    assert time.monotonic() - started >= 0.25  # held (GAMEPLAY_FLOOD_HOLD) before the answer
    assert await closed_with(again) == 4429
    await asyncio.sleep(told["retry_in"] + 0.5)
    back = sock(table_id, cookie)  # after the cool-off the same person plays on
    assert (await back.connect())[0]
    assert await pings_answered(back, 3) == (3, None)
    await back.disconnect()


async def test_each_refusal_before_the_allowance_has_refilled_doubles_the_cool_off(limits):
    limits(viewer_burst=2, viewer_rate=1, address_factor=1, cool_off=2, cool_off_jitter=0)
    scope = {"session": None, "client": (f"10.9.{random.randrange(250)}.{random.randrange(250)}", 1)}
    assert (await flood.take(scope, None, 2)).ok
    waits = [(await flood.take(scope, None, 2)).retry_in for _ in range(3)]
    # in debt by 2 s, then 2 + 4, then 2 + 4 + 8 (each refusal's cool-off doubles), plus the cost
    assert waits == [4, 8, 16], waits


async def test_viewers_throttled_together_come_back_spread_over_the_cool_off(limits):
    """Each cool-off is stretched by a random share of itself (up to COOL_OFF_JITTER), so sockets
    throttled in the same instant do not all reconnect, and load the server, in the same second."""
    limits(viewer_burst=2, viewer_rate=1, address_factor=1, cool_off=10, cool_off_jitter=0.5)
    waits = []
    run = random.randrange(250)  # addresses of their own per run, each used once: a repeat would be in debt
    for i in range(20):
        scope = {"session": None, "client": (f"10.8.{run}.{i}", 1)}
        assert (await flood.take(scope, None, 2)).ok
        waits.append((await flood.take(scope, None, 2)).retry_in)
    # in debt by 10 to 15 s of its rate, plus the cost (2 s): never less than the cool-off
    assert all(12 <= w <= 17 for w in waits), waits
    assert len(set(waits)) >= 3, waits  # all twenty within two whole seconds: about 1e-7


async def test_refused_connects_beyond_a_few_held_at_once_are_turned_away_before_the_handshake(limits):
    limits(viewer_burst=flood.CONNECT_COST + 1, viewer_rate=0.01, hold=1.0)
    table_id, cookie = await setup_table()
    first = sock(table_id, cookie)
    assert (await first.connect())[0]  # spends the allowance
    await first.disconnect()
    tries = [sock(table_id, cookie) for _ in range(flood.HOLD_PER_VIEWER + 3)]
    started = time.monotonic()
    results = await asyncio.gather(*(t.connect() for t in tries))
    turned_away = [r for r in results if not r[0]]
    assert len(turned_away) == 3 and all(code == 4429 for _, code in turned_away)
    held = [t for t, r in zip(tries, results, strict=True) if r[0]]
    for t in held:
        told = await t.receive_json_from()
        assert told["code"] == "too_fast"
    assert time.monotonic() - started >= 0.9  # the held ones were answered after the hold


async def test_an_oversize_frame_is_refused_before_its_cost_is_taken_and_the_socket_closes(limits):
    limits(socket_burst=1, socket_rate=0.01)  # a frame's cost taken first would be "too fast"
    table_id, cookie = await setup_table()
    s = sock(table_id, cookie)
    assert (await s.connect())[0]
    await s.send_json_to({"type": "move", "action": "JC", "id": "x", "pad": "ж" * 2100})  # 4 KiB + in UTF-8
    told = await s.receive_json_from()
    assert told["type"] == "refused" and told["code"] == "too_large"
    assert told["message"] == "Это сообщение слишком длинное для стола."
    assert await s.receive_output() == {"type": "websocket.close", "code": 1009}
    await s.disconnect()


def _mover(table_id: int, rng: random.Random) -> tuple[int, str, int] | None:
    table = Table.objects.get(pk=table_id)
    if table.status != "playing":
        return None
    state = state_of(table_id)
    return state.to_move, rng.choice(legal_strings(state)), table.event_seq


async def test_a_whole_match_by_a_fast_client_is_never_limited():
    """Under the default limits: each seat moves 0.1 s after its turn comes (nobody taps faster; at
    a table of four that is several moves a second) with a ping beside every move, and syncs again
    after every deal (the page syncs only on connect and on a gap). A Lucy deal (random play does
    take every trick now and then) resets the other pair instead of winning the match at once, so
    the match lasts more than one deal."""
    table_id, cookies, _spec = await four_people_table(rules={"lucy": "zero"})
    socks = [sock(table_id, c) for c in cookies]
    for s in socks:
        assert (await s.connect())[0]
        await s.send_json_to({"type": "sync", "last": -1})
    rng = random.Random(7)
    t0 = time.monotonic()
    moves = 0
    while (turn := await database_sync_to_async(_mover)(table_id, rng)) is not None:
        seat, action, n = turn
        await asyncio.sleep(0.1)
        await socks[seat].send_json_to({"type": "move", "action": action, "n": n, "id": f"m{moves}"})
        await socks[seat].send_json_to({"type": "ping"})
        for k, s in enumerate(socks):
            need = {"event"} | ({"ack", "pong"} if k == seat else set())
            while need:
                frame = await s.receive_json_from()
                assert frame.get("code") != "too_fast", (moves, time.monotonic() - t0, frame)
                assert frame["type"] != "refused", frame
                if frame["type"] == "event" and frame.get("deal_end"):
                    await s.send_json_to({"type": "sync", "last": frame["n"]})
                if frame["type"] != "event" or frame["n"] > n:
                    need.discard(frame["type"])
        moves += 1
    assert moves > 50
    status = await database_sync_to_async(lambda: Table.objects.get(pk=table_id).status)()
    assert status == "finished"
    for s in socks:
        await s.disconnect()


@pytest.fixture
def snapshots_built(monkeypatch):
    """How many times a table socket read a snapshot or catch-up from the database (the real
    `catch_up`, counted)."""
    from gameplay.tables import consumers

    built = []
    real = consumers.catch_up

    def counted(table, seat, last):
        frames = real(table, seat, last)
        built.append(frames[0]["type"] if frames else None)
        return frames

    monkeypatch.setattr(consumers, "catch_up", counted)
    return built


async def test_a_socket_repeating_its_sync_is_answered_without_the_database_until_told_too_fast(
        snapshots_built, limits, monkeypatch):
    """A flood of syncs costs the server one snapshot: the repeats get the same picture (its
    clock moved on), the limit counts them at the pace they come and closes the socket."""
    from gameplay.tables import consumers

    limits(socket_rate=0.01)  # nothing refills while a loaded machine builds the first snapshot
    monkeypatch.setattr(consumers.TableConsumer, "KEEP_SNAPSHOT_SECONDS", 30.0)
    table_id, _cookies, spectator = await four_people_table()
    s = sock(table_id, spectator)  # a spectator's connect sends no presence frame that would refresh it
    assert (await s.connect())[0]
    for _ in range(10):
        await s.send_json_to({"type": "sync", "last": -1})
    snapshots = []
    while True:
        frame = await s.receive_json_from()
        if frame["type"] == "refused":
            break
        if frame["type"] == "snapshot":
            snapshots.append(frame)
    assert frame["code"] == "too_fast"
    assert await closed_with(s) == 4429
    assert len(snapshots) == 6  # the socket's burst (60 tokens) pays for six syncs
    assert snapshots_built == ["snapshot"]
    first, last = snapshots[0], snapshots[-1]
    assert {**last, "table": {**last["table"], "deadline_in": 0}} == {
        **first, "table": {**first["table"], "deadline_in": 0}}
    assert last["table"]["deadline_in"] <= first["table"]["deadline_in"]


async def test_a_sync_after_anything_has_reached_the_socket_reads_the_table_again(snapshots_built):
    table_id, cookies, _spec = await four_people_table()
    socks = [sock(table_id, c) for c in cookies]
    for s in socks:
        assert (await s.connect())[0]
    watcher = socks[0]
    await watcher.send_json_to({"type": "sync", "last": -1})
    first = await watcher.receive_json_from()
    while first["type"] != "snapshot":
        first = await watcher.receive_json_from()
    # a seat answers the redeal question (or plays): an event reaches the watcher
    turn = await database_sync_to_async(_mover)(table_id, random.Random(3))
    assert turn is not None
    seat, action, n = turn
    await socks[seat].send_json_to({"type": "move", "action": action, "n": n, "id": "m1"})
    while (frame := await watcher.receive_json_from())["type"] != "event":
        pass
    await watcher.send_json_to({"type": "sync", "last": -1})
    while (again := await watcher.receive_json_from())["type"] != "snapshot":
        pass
    assert again["n"] == frame["n"] > first["n"]
    assert snapshots_built.count("snapshot") == 2
    for s in socks:
        await s.disconnect()


async def test_a_reconnect_in_the_cool_off_is_refused_before_any_database_read(limits, monkeypatch):
    """Closed for flooding, the client comes back at once: the gate answers it from Redis alone,
    in the client's language, before the session, the user or the table are read."""
    from django.contrib.sessions.backends.db import SessionStore

    from gameplay.tables import consumers

    limits(socket_burst=5, socket_rate=0.01, cool_off=30, hold=0)
    table_id, cookie = await setup_table()
    s = sock(table_id, cookie)
    assert (await s.connect())[0]
    _, told = await pings_answered(s, 8)
    assert told["code"] == "too_fast"
    assert await closed_with(s) == 4429
    reads = []
    real_load, real_identify = SessionStore.load, consumers.TableConsumer._identify  # noqa: SLF001
    monkeypatch.setattr(SessionStore, "load", lambda store: reads.append("session") or real_load(store))
    monkeypatch.setattr(consumers.TableConsumer, "_identify",
                        lambda consumer: reads.append("table") or real_identify(consumer))
    for _ in range(3):
        again = sock(table_id, cookie)
        assert (await again.connect())[0]
        refused = await again.receive_json_from()
        assert refused["code"] == "too_fast" and refused["retry_in"] >= 20
        assert refused["message"].startswith("Слишком много сообщений")
        assert await closed_with(again) == 4429
    assert reads == []
