"""Benchmark: live tables over websockets on loopback — sockets held, memory per socket, move latency.

Opens `--tables` tables (four anonymous seated players each, 400 sockets by default) and
`--watchers` spectator sockets per table (16 -> 1,600), so 2,000 sockets in all; each table
makes one move every `--interval` seconds for `--seconds`. Prints the sockets held, the server's
memory per socket (RSS growth from before the first socket to all held, divided by sockets) and
the move-to-all-seats latency (from sending a move to the last of the four seats receiving its
event) p50/p99, plus the same to every watcher.

The server runs in a child process (daphne or uvicorn) with bench/ws_settings.py; BENCH_LAYER picks
RedisChannelLayer or RedisPubSubChannelLayer. Bounded in count and time; needs PostgreSQL and
Redis (`DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/bilka_bench, created when
missing; `REDIS_URL`, default redis://127.0.0.1:6379/14) and `pip install websockets uvicorn`.

    .venv/bin/python bench/ws_load.py [--server daphne|uvicorn] [--layer redis|pubsub]
                                      [--tables 100] [--watchers 16] [--seconds 40] [--interval 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(args) -> list[tuple[int, list[str]]]:
    """Create the bench database if needed, migrate, and open the tables; [(table id, 4 session keys)]."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)  # noqa: S603

    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from gameplay import services
    from gameplay.models import Table

    Table.objects.all().delete()
    tables = []
    for _ in range(args.tables):
        keys = []
        for _seat in range(4):
            session = SessionStore()
            session["bilka_guest"] = True
            session.create()
            keys.append(session.session_key)
        table = services.create_table(rules={"move_seconds": 3600}, seating="in_order", session_key=keys[0])
        for key in keys[1:]:
            services.sit(table_id=table.pk, session_key=key)
        tables.append((table.pk, keys))
    return tables


def start_server(args, port: int) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.ws_settings", "BENCH_LAYER": args.layer,
           "BENCH_PREFIX": f"bilka-bench-{uuid.uuid4().hex[:6]}", "PYTHONUNBUFFERED": "1"}
    if args.server == "uvicorn":
        cmd = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--ws", "websockets", "--lifespan", "off", "--log-level", "warning",
               "--no-access-log"]
    else:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
               "config.asgi:application"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # noqa: S603
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: {proc.stderr.read().decode()[-2000:]}") from None
            time.sleep(0.2)


def rss(proc_pid: int) -> int:
    import psutil

    p = psutil.Process(proc_pid)
    return p.memory_info().rss + sum(c.memory_info().rss for c in p.children(recursive=True))


class Table:
    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.views: dict[str, dict] = {}
        self.n = 0
        self.sent: dict[int, float] = {}  # event number -> time the move was sent
        self.seat_seen: dict[int, dict[str, float]] = {}
        self.view_n: dict[str, int] = {}
        self.watch_seen: dict[int, list[float]] = {}
        self.refused = 0
        self.pending: int | None = None


async def run(args, tables: list[tuple[int, list[str]]], port: int, server: subprocess.Popen) -> None:
    import websockets

    uri = f"ws://127.0.0.1:{port}"
    origin = f"http://127.0.0.1:{port}"
    state = {tid: Table(tid) for tid, _ in tables}
    seat_socks: dict[tuple[int, str], object] = {}
    watchers = []
    failures = 0
    sem = asyncio.Semaphore(50)

    async def open_socket(tid: int, key: str | None):
        nonlocal failures
        headers = {"Cookie": f"sessionid={key}"} if key else {}
        async with sem:
            for _attempt in range(5):
                try:
                    ws = await websockets.connect(f"{uri}/ws/table/{tid}/", origin=origin,
                                                  additional_headers=headers, open_timeout=30,
                                                  ping_interval=None, max_queue=None)
                    await ws.send(json.dumps({"type": "sync", "last": -1}))
                    return ws
                except Exception:  # noqa: BLE001 - count and retry
                    failures += 1
                    await asyncio.sleep(0.5)
        return None

    async def reader(ws, table: Table, seat: str | None):
        try:
            async for raw in ws:
                f = json.loads(raw)
                now = time.perf_counter()
                if f["type"] in ("snapshot", "event") and seat and f["n"] >= table.view_n.get(seat, -1):
                    table.views[seat] = f["view"]
                    table.view_n[seat] = f["n"]
                    table.n = max(table.n, f["n"])
                if f["type"] == "event":
                    if seat:
                        table.seat_seen.setdefault(f["n"], {}).setdefault(seat, now)
                    else:
                        table.watch_seen.setdefault(f["n"], []).append(now)
                elif f["type"] == "refused":
                    table.refused += 1
                    table.sent.pop(table.pending, None)
                    table.pending = None
        except websockets.ConnectionClosed:
            pass

    before = rss(server.pid)
    t0 = time.perf_counter()
    tasks = []
    opened = await asyncio.gather(*(open_socket(tid, key) for tid, keys in tables for key in keys))
    i = 0
    for tid, _keys in tables:
        for seat in "NESW":
            ws = opened[i]
            i += 1
            if ws is not None:
                seat_socks[(tid, seat)] = ws
                tasks.append(asyncio.create_task(reader(ws, state[tid], seat)))
    opened_w = await asyncio.gather(*(open_socket(tid, None) for tid, _ in tables for _ in range(args.watchers)))
    for idx, ws in enumerate(opened_w):
        if ws is not None:
            watchers.append(ws)
            tasks.append(asyncio.create_task(reader(ws, state[tables[idx // args.watchers][0]], None)))
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(2)
    held = len(seat_socks) + len(watchers)
    after = rss(server.pid)
    print(f"sockets held: {held} ({len(seat_socks)} players, {len(watchers)} watchers), "
          f"connect failures/retries: {failures}, all connected in {connect_s:.1f} s")
    print(f"server RSS: {before / 2**20:.0f} MiB before, {after / 2**20:.0f} MiB with all sockets: "
          f"{(after - before) / max(1, held) / 1024:.1f} KiB per socket")

    stop = time.perf_counter() + args.seconds
    rng = random.Random(1)

    async def driver(table: Table):
        await asyncio.sleep(rng.random() * args.interval)
        while time.perf_counter() < stop:
            pending = table.pending
            if (pending is not None and len(table.seat_seen.get(pending, ())) < 4
                    and time.perf_counter() - table.sent[pending] < 10):
                await asyncio.sleep(0.05)  # like a real client: one move at a time, then wait for it
                continue
            mover = None
            for seat, view in table.views.items():
                if table.view_n.get(seat) != table.n:
                    continue  # this seat has not seen the latest event yet
                if view and view.get("to_move") == seat and view.get("legal"):
                    mover = seat
                    break
            if mover is not None:
                view = table.views[mover]
                legal = [a for a in view["legal"] if a != "redeal"] or view["legal"]
                expected = table.n
                table.sent[expected + 1] = time.perf_counter()
                table.pending = expected + 1
                await seat_socks[(table.id, mover)].send(json.dumps(
                    {"type": "move", "action": rng.choice(legal), "n": expected, "id": uuid.uuid4().hex}))
            await asyncio.sleep(args.interval)

    cpu0, me0 = _cpu(server.pid), _cpu(os.getpid())
    await asyncio.gather(*(driver(t) for t in state.values()))
    await asyncio.sleep(2)
    cpu1, me1 = _cpu(server.pid), _cpu(os.getpid())
    seat_lat, watch_lat, incomplete = [], [], 0
    for t in state.values():
        for n, sent in t.sent.items():
            seen = t.seat_seen.get(n, [])
            if len(seen) == 4:
                seat_lat.append(max(seen.values()) - sent)
            else:
                incomplete += 1
            w = t.watch_seen.get(n, [])
            if len(w) == args.watchers and w:
                watch_lat.append(max(w) - sent)
    moves = sum(len(t.sent) for t in state.values())
    print(f"moves sent: {moves} in {args.seconds} s ({moves / args.seconds:.1f}/s), refused: "
          f"{sum(t.refused for t in state.values())}, not seen by all four seats: {incomplete}, "
          f"server CPU: {100 * (cpu1 - cpu0) / (args.seconds + 2):.0f}% of one core, "
          f"this client: {100 * (me1 - me0) / (args.seconds + 2):.0f}%, "
          f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for label, lat in (("move -> all 4 seats", seat_lat), (f"move -> all {args.watchers} watchers", watch_lat)):
        if lat:
            lat.sort()
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"{label}: p50 {1000 * statistics.median(lat):.1f} ms, p99 {1000 * p99:.1f} ms, "
                  f"max {1000 * lat[-1]:.1f} ms (n={len(lat)})")
    for ws in list(seat_socks.values()) + watchers:
        await ws.close()
    for task in tasks:
        task.cancel()


def _cpu(pid: int) -> float:
    import psutil

    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", choices=["daphne", "uvicorn"], default="daphne")
    parser.add_argument("--layer", choices=["redis", "pubsub"], default="redis")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=16, help="spectator sockets per table")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves at one table")
    args = parser.parse_args()
    args.tables = min(args.tables, 500)  # bounded: at most 500 tables
    args.seconds = min(args.seconds, 300)
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bilka_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.ws_settings"
    os.environ["BENCH_LAYER"] = args.layer
    print(f"== {args.server} + {'RedisPubSubChannelLayer' if args.layer == 'pubsub' else 'RedisChannelLayer'}: "
          f"{args.tables} tables x (4 seats + {args.watchers} watchers), one move per {args.interval} s "
          f"per table for {args.seconds} s")
    tables = prepare(args)
    port = _free_port()
    server = start_server(args, port)
    try:
        asyncio.run(run(args, tables, port, server))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
