"""A whole online Swiss of 8 pairs through the real stack, checked against the engine's scorer.

A Celery worker (its own queue) opens the tables at each round start, records each finished
table's result, and pairs the next round; 32 players each hold a table socket (the ASGI app with
its real Redis channel layer and PostgreSQL) and send their moves over it, each move the engine's
bot's choice on that player's own observation. At the end every stored record is scored by
``python -m gameplay.engine score FILE``, and the standings recomputed from those scores must be
the site's standings. A fast rules setting (the 28-card deck) goes in the tournament's rules.
"""

import asyncio
import json
import random
import subprocess
import sys
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.test import Client

from config.asgi import application
from gameplay import services as tables
from gameplay.engine.bot import choose_action
from gameplay.models import Seat, Table, TableStatus
from tests.communicator import Communicator
from tests.conftest import REPO_ROOT
from tournaments import selectors, services
from tournaments.models import Match

from .conftest import swiss_with_accounts
from .helpers import action_text
from .workers import KillableWorker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("clean_channel_layer"),
]
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
ROUNDS = 3


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@database_sync_to_async
def _round_tables(tournament, number):
    matches = list(
        Match.objects.filter(tournament=tournament, round__number=number, bye=False, live_table__isnull=False)
    )
    if len(matches) != 4:
        return None
    return {
        m.live_table: {
            s.seat: _cookie(s.user) for s in Seat.objects.filter(table_id=m.live_table).select_related("user")
        }
        for m in matches
    }


@database_sync_to_async
def _next_move(table_id: int, rng: random.Random):
    table = Table.objects.get(pk=table_id)
    if table.status == TableStatus.FINISHED:
        return None
    state = tables.load_state(table)
    seat = state.to_move
    return seat, action_text(choose_action(state.observation(seat), rng)), table.event_seq


async def _play(table_id: int, cookies: dict[int, bytes], seed: int) -> int:
    sockets = {}
    for seat, cookie in cookies.items():
        ws = Communicator(
            application, f"/ws/table/{table_id}/", headers=[ORIGIN, (b"cookie", cookie)]
        )
        assert (await ws.connect())[0]
        sockets[seat] = ws
    rng = random.Random(seed)  # noqa: S311 - test players
    moves = 0
    while (move := await _next_move(table_id, rng)) is not None:
        seat, action, n = move
        move_id = uuid.uuid4().hex
        await sockets[seat].send_json_to({"type": "move", "action": action, "n": n, "id": move_id})
        while True:
            frame = await sockets[seat].receive_json_from()
            if frame.get("type") in ("ack", "refused") and frame.get("id") == move_id:
                break
        assert frame["type"] == "ack" or frame["code"] == "stale", frame
        moves += 1
    for ws in sockets.values():
        await ws.disconnect()
    return moves


async def _wait(predicate, what, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await predicate()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def _close_pool_connections() -> None:
    """The table sockets keep one database connection per pool thread (gameplay.tables.consumers); close
    each thread's, so that the test database can be dropped at the end of the run."""
    import threading

    from django.db import connections

    loop = asyncio.get_running_loop()
    size = getattr(loop._default_executor, "_max_workers", 0)  # noqa: SLF001
    if not size:
        return
    barrier = threading.Barrier(size, timeout=60)

    def close() -> None:
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
        connections.close_all()

    await asyncio.gather(*(loop.run_in_executor(None, close) for _ in range(size)))
    await sync_to_async(connections.close_all, thread_sensitive=True)()


def _scored(match: Match) -> tuple[str, dict]:
    """The engine's scorer on the stored record: (home side NS/EW, its bilka-score/1 report)."""
    import tempfile

    table = Table.objects.get(pk=match.live_table)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(table.record, f)
    out = subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "-m", "gameplay.engine", "score", f.name],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    )
    seats = {s.seat: s.user_id for s in Seat.objects.filter(table=table)}
    home_users = {match.home.player_a.user_id, match.home.player_b.user_id}
    return ("NS" if {seats[0], seats[2]} == home_users else "EW"), json.loads(out.stdout)


async def test_an_online_swiss_of_eight_pairs_plays_itself_through(
    club, organiser, day_queue, tmp_path, settings
):
    # the test's players answer at machine speed, several moves a second a seat: faster than any
    # person, so the sockets' flood limits (tested in tests/gameplay/tables/test_tables_flood.py) stand aside
    settings.GAMEPLAY_FLOOD_LIMITS = False
    started = time.monotonic()
    t = await database_sync_to_async(swiss_with_accounts)(
        club, organiser, 8, name="Онлайн-швейцарка", rounds=ROUNDS, play_mode="online", online=True,
        rules={"deck": "28"},
    )  # fmt: skip
    worker = KillableWorker(day_queue, tmp_path)
    await database_sync_to_async(worker.start)()
    spectator = Communicator(application, f"/ws/tournament/{t.pk}/", headers=[ORIGIN])
    assert (await spectator.connect())[0]
    moves = 0
    try:
        await database_sync_to_async(services.pair_next_round)(actor=organiser, tournament=t)
        for number in range(1, ROUNDS + 1):
            seats = await _wait(lambda number=number: _round_tables(t, number), f"round {number}'s tables")
            played = await asyncio.gather(*(_play(tid, c, seed=tid) for tid, c in seats.items()))
            moves += sum(played)

        async def finished():
            await database_sync_to_async(t.refresh_from_db)()
            return t.status == "finished"

        await _wait(finished, "the tournament to finish")
    finally:
        await database_sync_to_async(worker.stop)()
    changed = 0

    def heard(frame: dict) -> bool:  # the spectator hears every result, however late a busy machine sends it
        nonlocal changed
        changed += frame["type"] == "changed"
        return changed >= 4 * ROUNDS

    await spectator.receive_until(heard)
    await spectator.disconnect()

    @database_sync_to_async
    def check():
        points: dict[int, int] = {e.pk: 0 for e in t.entries.all()}
        matches = list(Match.objects.filter(tournament=t).select_related("home", "away", "round"))
        assert len(matches) == 4 * ROUNDS and all(m.live_table for m in matches)
        for m in matches:
            home_side, report = _scored(m)
            away_side = "EW" if home_side == "NS" else "NS"
            winner = m.home_id if report["winner"] == home_side else m.away_id
            assert (m.winner_id, m.home_eyes, m.away_eyes) == (
                winner, report["score"][home_side], report["score"][away_side]
            ), m  # fmt: skip
            points[winner] += t.points_win
        standings = selectors.standings(tournament=t)
        assert {line.entry.pk: line.row.match_points for line in standings.lines} == points
        assert standings.final

    await check()
    await _close_pool_connections()
    assert changed >= 4 * ROUNDS  # the spectator heard every result
    print(
        f"\n8-pair online Swiss, {ROUNDS} rounds, {moves} moves over sockets"
        f" in {time.monotonic() - started:.1f} s"
    )
