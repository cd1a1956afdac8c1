"""Benchmark: live tables over websockets on loopback — sockets held, memory per socket, move latency.

Opens `--tables` tables (four anonymous seated players each, 400 sockets by default) and
`--watchers` spectator sockets per table (16 -> 1,600), so 2,000 sockets in all; each table
makes one move every `--interval` seconds for `--seconds`. Prints the sockets held, the server's
memory per socket (RSS growth from before the first socket to all held, divided by sockets), the
server's and the generator's CPU, the load average, the generator's event-loop lag (a busy
generator would show up there, not as server latency) and the move-to-all-seats latency (from
sending a move to the last of the four seats receiving its event) p50/p99, plus the same to every
watcher. Frames are stamped on receipt; watchers read only the event number, no JSON decode.

The server runs in a child process (daphne or uvicorn) with bench/ws/settings.py; `--layer`
picks RedisPubSubChannelLayer (the site's default) or
RedisChannelLayer. Every move queues its Celery move-clock task as on the site and a Celery worker
runs them (`--move-seconds`, default 25: from about 25 s into the run every move's clock fires,
stale, as on a busy site, where nearly every clock task finds that its move came; `--no-tasks`
leaves them out). Moves run in the move worker process
(`GAMEPLAY_MOVE_PROCESSES`, default 1; `GAMEPLAY_MOVE_PROCESSES=0` for the server's thread
pool). Before the run each table is played 0-35 moves into its match (`stagger`, seeded by
`--seed`, drawn and printed when not given): a site's tables are at every point of their deals,
and tables started together end their deals together. Bounded: at most 500 tables and 300 s,
loopback only. The machine is shared: note the load average with every figure and repeat runs.

`--servers 1,2` (default `1`: one server process): many processes, one site. Each count is a run
of its own, one after the other on fresh tables with the same seed: N server processes, each on a
port of its own with its move worker (as the site's `bilka-asgi@PORT` units behind nginx), one
Celery worker, one PostgreSQL database and one Redis for all. Each socket goes to the next process
in turn, so every table has seats and watchers on every process and each event reaches some of
its sockets through Redis from another process. Then the runs' figures side by side: sockets
connected, memory per socket, moves/s, move -> all four seats p50/p99, moves refused or lost,
the CPU per move of each server process (event loop and move worker apart) and of the Celery
worker. The flood, when asked for, goes through the first process.

`--costs` adds what a move costs besides its latency (bench/ws/costs.py): CPU of each process
(servers, move workers, Celery worker, the PostgreSQL backends of the bench database), PostgreSQL
transactions and rows (pg_stat_database), the SQL statements each process sent, by kind
(bench/ws/queries.py), the websocket payload bytes to the sockets, and with `--own-redis` (a Redis
server of the run's own instead of `REDIS_URL`) Redis commands, bytes and CPU; each net of the
idle rates, measured over `--idle` seconds (default 10) with every socket open and no move. It
adds about 40 s to each run: PostgreSQL's statistics lag up to 10 s, and the last moves' clock
tasks fire `--move-seconds` after them.

Setup (once): `.venv/bin/pip install -e '.[dev]'` (websockets, uvicorn, uvloop, psutil, py-spy),
PostgreSQL and Redis running. `DATABASE_URL` defaults to
postgres://postgres@127.0.0.1:5432/bilka_bench (created and migrated when missing; its tables are
replaced on every run) and `REDIS_URL` to redis://127.0.0.1:6379/14.

    .venv/bin/python -m bench.ws.load [--server uvicorn|daphne] [--layer pubsub|redis]
                                      [--tables 100] [--watchers 16] [--seconds 60] [--interval 2]
                                      [--servers 1[,2]] [--costs [--idle 10]] [--own-redis]
                                      [--move-seconds 25] [--no-tasks]
                                      [--watcher-procs 1] [--flood]
                                      [--flood-windows 30 [--warmup S] [--flood-linger 2]]
                                      [--seed N] [--no-stagger]

`--flood` (bench/ws/flood.py): the defined flood at one more table, not measured: 10 sockets (its
four seats and six spectators, each its own guest session, from 127.0.0.2, in a process of their
own) send 1,000 frames/s in all for the whole run, each a `sync` from -1 (the dearest frame to
answer), and reconnect at once whenever the server closes them. The move latency of every other
table, with and without it, shows what a flood costs them (gameplay/tables/flood.py limits it);
`BENCH_FLOOD_LIMITS=0` turns the limits off. `--flood-windows W` (bench/ws/windows.py) measures
both in one run, which two runs cannot at this machine's spread: after the warm-up, pairs of
W-second windows, one flooded (the defined flood is 30 s) and one not, in a random order drawn
from `--seed` (a new one each run, so that runs pooled together do not share one order),
with the p99 difference and its 95% interval over the pairs (up to 600 s then).

`--watcher-procs N` holds the watchers in N processes of their own (timestamps use the
system-wide monotonic clock, so they compare across processes). Diagnostics: `BENCH_TRACE=file`
stamps each move's stages in the server (bench/ws/trace.py) and prints where the time goes;
`BENCH_GC_LOG=file` prints the server's garbage-collector pauses of 2 ms or more (every process
that loads the bench settings logs its own, with its pid and time on the monotonic clock);
`BENCH_GC_GARBAGE=file` counts what each collection found unreachable, by kind (which code leaves
reference cycles behind); `BENCH_DUMP=file.json` writes (seconds into the run, latency) per move,
`.t0` the run's start on the monotonic clock, `.windows` the flood windows (`bench/ws/pool.py`
pools several runs' flood windows from them); `BENCH_WS` picks
uvicorn's websocket implementation (default websockets-sansio, as bin/site); `BILKA_GC_THRESHOLD0=0`
gives the server Python's default collector settings (config/asgi.py); while it runs,
`.venv/bin/py-spy dump --pid <daphne pid>` or
`py-spy record --pid <pid> -d 15 --format raw -o out.txt` shows where the server spends its
time (sampling costs CPU on 2 cores: the figures of that run are not comparable).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.ws import costs, windows
from bench.ws.clients import WIRE, LoopLag, Sockets, Table, count_received, quiet_gc, watch, watcher_child
from bench.ws.flood import flood_process, prepare_flood
from bench.ws.loop import new_event_loop
from bench.ws.report import p50_p99, print_stages, side_by_side
from bench.ws.servers import (
    cpu,
    cpu_split,
    cpu_tree,
    free_ports,
    helpers_rss,
    rss,
    server_log,
    settle,
    start_redis,
    start_server,
    start_worker,
    stop,
)
from bench.ws.tables import matches_ended, prepare

ROOT = Path(__file__).resolve().parents[2]


def cpu_probe() -> float:
    """Milliseconds this process takes for a fixed pure-Python loop: the machine's speed at the
    time of the run. This VM's cores slow down by a factor of two or more for minutes at a time
    (2026-12-04: 60% of a core for the server in one run, 79-86% for the same work in the next),
    and the latencies with them: a figure is comparable only with runs of a like probe."""
    began = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    return 1000 * (time.perf_counter() - began)


async def connect(args, tables: list[tuple[int, list[str]]], ports: list[int], state: dict[int, Table],
                  socks: Sockets, reader) -> dict:  # noqa: ANN001
    """Open every seat socket and watcher, each to the next server process in turn; what was opened."""
    opened = await asyncio.gather(*(socks.open(tid, key, socks.pick())
                                    for tid, keys in tables for key in keys))
    got: dict = {"seats": {}, "watchers": [], "children": [], "tasks": [], "child_held": 0,
                 "child_failures": 0}
    i = 0
    for tid, _keys in tables:
        for seat in "NESW":
            ws = opened[i]
            i += 1
            if ws is not None:
                got["seats"][(tid, seat)] = ws
                got["tasks"].append(asyncio.create_task(reader(ws, state[tid], seat)))
    if args.watcher_procs:
        loop = asyncio.get_running_loop()
        for k in range(args.watcher_procs):
            ids = [str(tid) for tid, _ in tables[k::args.watcher_procs]]
            if ids:
                got["children"].append(subprocess.Popen(  # noqa: S603
                    [sys.executable, "-m", "bench.ws.load", "--child", ",".join(map(str, ports)),
                     "--child-tables", ",".join(ids), "--watchers", str(args.watchers)],
                    cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1))
        for child in got["children"]:
            hello = json.loads(await loop.run_in_executor(None, child.stdout.readline))
            got["child_held"] += hello["held"]
            got["child_failures"] += hello["failures"]
            for port, n in hello["per_port"].items():
                socks.held[int(port)] += n
    else:
        opened_w = await asyncio.gather(
            *(socks.open(tid, None, socks.pick()) for tid, _ in tables for _ in range(args.watchers)))
        for idx, ws in enumerate(opened_w):
            if ws is not None:
                got["watchers"].append(ws)
                seen = state[tables[idx // args.watchers][0]].watch_seen
                got["tasks"].append(asyncio.create_task(watch(ws, seen)))
    got["per_port"] = dict(socks.held)
    return got


async def run(args, tables: list[tuple[int, list[str]]], ports: list[int], servers: list[subprocess.Popen],
              worker: subprocess.Popen | None, flood: tuple[int, list[str]] | None = None) -> dict:
    """One run over the server processes given: prints its figures, returns them for the side by side."""
    import websockets

    state = {tid: Table(tid) for tid, _ in tables}
    socks = Sockets(ports)

    async def reader(ws, table: Table, seat: str):
        try:
            async for raw in ws:
                now = time.monotonic()  # stamp on receipt, before any parsing
                count_received(raw, "seat_bytes")
                f = json.loads(raw)
                if f["type"] in ("snapshot", "event") and f["n"] >= table.view_n.get(seat, -1):
                    table.views[seat] = f["view"]
                    table.view_n[seat] = f["n"]
                    table.n = max(table.n, f["n"])
                if f["type"] == "event":
                    table.seat_seen.setdefault(f["n"], {}).setdefault(seat, now)
                elif f["type"] == "refused":
                    code = f.get("code", "?")
                    table.refused[code] = table.refused.get(code, 0) + 1
                    table.sent.pop(table.pending, None)
                    table.pending = None
        except websockets.ConnectionClosed:
            pass

    before = [rss(s.pid) for s in servers]
    t0 = time.monotonic()
    got = await connect(args, tables, ports, state, socks, reader)
    seat_socks, watchers, children = got["seats"], got["watchers"], got["children"]
    connect_s = time.monotonic() - t0
    await asyncio.sleep(2)
    held = len(seat_socks) + len(watchers) + got["child_held"]
    after = [rss(s.pid) for s in servers]
    grown = sum(after) - sum(before)
    spread = (f"; {' + '.join(str(got['per_port'][p]) for p in ports)} on the server processes"
              if len(ports) > 1 else "")
    print(f"sockets held: {held} of {args.tables * (4 + args.watchers)} ({len(seat_socks)} players, "
          f"{len(watchers) + got['child_held']} watchers"
          f"{f' in {len(children)} processes' if children else ''}{spread}), connect failures/retries: "
          f"{socks.failures + got['child_failures']}, all connected in {connect_s:.1f} s")
    each = ", ".join(f"{b / 2**20:.0f} -> {a / 2**20:.0f}" for b, a in zip(before, after, strict=True))
    print(f"server RSS: {sum(before) / 2**20:.0f} MiB before, {sum(after) / 2**20:.0f} MiB with all sockets"
          f"{f' ({each} MiB)' if len(servers) > 1 else ''}: "
          f"{grown / max(1, held) / 1024:.1f} KiB per socket; move worker processes: "
          f"{sum(helpers_rss(s.pid) for s in servers) / 2**20:.0f} MiB")

    def cpu_now() -> dict[str, float]:
        shares = {"celery": cpu_tree(worker)}
        for k, server in enumerate(servers):
            shares[f"server{k}.loop"], shares[f"server{k}.moves"] = cpu_split(server)
        return shares

    async def snapshot() -> costs.Snapshot:
        return await asyncio.to_thread(costs.snapshot, cpu_now(), backends, WIRE, args.queries,
                                       args.own_redis)

    backends = None
    if args.costs:  # the idle rates: every socket open, no move (after PostgreSQL's statistics caught up)
        backends = costs.PgBackends(os.environ["DATABASE_URL"].rsplit("/", 1)[1])
        backends.start()
        await asyncio.sleep(costs.PG_FLUSH_SECONDS)
        idle0 = await snapshot()
        await asyncio.sleep(args.idle)
        idle1 = await snapshot()

    stop = time.monotonic() + args.seconds
    rng = random.Random(1)

    async def driver(table: Table):
        await asyncio.sleep(rng.random() * args.interval)
        while time.monotonic() < stop:
            pending = table.pending
            if (pending is not None and len(table.seat_seen.get(pending, ())) < 4
                    and time.monotonic() - table.sent[pending] < 10):
                await asyncio.sleep(0.05)  # like a real client: one move at a time, then wait for it
                continue
            mover = None
            for seat, view in table.views.items():
                if table.view_n.get(seat) != table.n:
                    continue  # this seat has not seen the latest event yet
                asked = view and (view.get("to_move") == seat or view.get("phase") == "redeal")
                if asked and view.get("legal"):
                    mover = seat  # the seat to move, or one yet to answer the redeal question
                    break
            if mover is not None:
                view = table.views[mover]
                legal = [a for a in view["legal"] if a != "redeal"] or view["legal"]
                expected = table.n
                message = json.dumps({"type": "move", "action": rng.choice(legal), "n": expected,
                                      "id": uuid.uuid4().hex})
                table.pending = expected + 1
                table.sent[expected + 1] = time.monotonic()
                WIRE["sent_bytes"] += len(message)
                WIRE["sent_frames"] += 1
                await seat_socks[(table.id, mover)].send(message)
            await asyncio.sleep(args.interval)

    for child in children:
        child.stdin.write("start\n")
    cpu0, me0, w0 = [cpu_split(s) for s in servers], cpu(os.getpid()), cpu_tree(worker)
    lag = LoopLag()
    lag.start()
    server_lags: list[str] = []
    flood_windows = (windows.windows(stop - args.seconds, args.warmup, args.seconds, args.flood_windows,
                                     seed=args.seed) if args.flood_windows else [])
    flooding = None
    if flood:  # at the first server process
        spans = windows.flood_spans(flood_windows) if flood_windows else [(stop - args.seconds, stop)]
        flooding = flood_process(ports[0], flood[0], flood[1], spans)
    await asyncio.gather(*(driver(t) for t in state.values()))
    await asyncio.sleep(2)
    cpu1, me1, w1 = [cpu_split(s) for s in servers], cpu(os.getpid()), cpu_tree(worker)
    my_lag = lag.stop()
    probe_after = cpu_probe()
    print(f"CPU probe after the run: {probe_after:.0f} ms")
    child_cpu = 0.0
    child_wire = dict.fromkeys(WIRE, 0)
    for child in children:
        child.stdin.write("stop\n")
        report = json.loads(await asyncio.get_running_loop().run_in_executor(None, child.stdout.readline))
        server_lags.append(report["lag"])
        child_cpu += report["cpu"]
        for key, value in report["wire"].items():
            child_wire[key] += value
        for tid, by_n in report["seen"].items():
            table = state[int(tid)]
            for n, (count, last) in by_n.items():
                table.watch_seen.setdefault(int(n), []).extend([last] * count)
    seat_lat, watch_lat, incomplete = [], [], 0
    timeline: list[tuple[float, float]] = []
    for t in state.values():
        for n, sent in t.sent.items():
            seen = t.seat_seen.get(n, [])
            if len(seen) == 4:
                seat_lat.append(max(seen.values()) - sent)
                timeline.append((sent, max(seen.values()) - sent))
            else:
                incomplete += 1
            w = t.watch_seen.get(n, [])
            if len(w) == args.watchers and w:
                watch_lat.append(max(w) - sent)
    moves = sum(len(t.sent) for t in state.values())
    codes: dict[str, int] = {}
    for t in state.values():
        for code, n in t.refused.items():
            codes[code] = codes.get(code, 0) + n
    refused = sum(codes.values())
    why = f" ({', '.join(f'{code} {n}' for code, n in sorted(codes.items()))})" if codes else ""
    ended = await asyncio.to_thread(matches_ended)
    window = args.seconds + 2
    loop_s = [b[0] - a[0] for a, b in zip(cpu0, cpu1, strict=True)]
    pool_s = [b[1] - a[1] for a, b in zip(cpu0, cpu1, strict=True)]
    split = list(zip(loop_s, pool_s, strict=True))
    each_cpu = ", ".join(f"{100 * (a + b) / window:.0f}%" for a, b in split)
    print(f"moves sent: {moves} in {args.seconds} s ({moves / args.seconds:.1f}/s), refused: {refused}{why}, "
          f"not seen by all four seats: {incomplete}, "
          f"matches over (no more moves at those tables): {ended}, "
          f"server CPU: {100 * (sum(loop_s) + sum(pool_s)) / window:.0f}% of one core"
          f"{f' ({each_cpu})' if len(servers) > 1 else ''}, "
          f"Celery worker (clock tasks): {100 * (w1 - w0) / window:.0f}%, "
          f"load generator: {100 * (me1 - me0) / window:.0f}%"
          f"{f' + watcher processes {child_cpu:.0f} CPU-s in all' if children else ''}, "
          f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    per_move = max(1, moves)
    print("CPU per move: " + "; ".join(
        f"server process {k + 1}: {1000 * (a + b) / per_move:.2f} ms (event loop {1000 * a / per_move:.2f} + "
        f"move worker {1000 * b / per_move:.2f})" for k, (a, b) in enumerate(split))
        + f"; Celery worker: {1000 * (w1 - w0) / per_move:.2f} ms (over the run and 2 s after it, "
          f"idle sockets included)")
    if flooding is not None:
        out, _ = await asyncio.to_thread(flooding.communicate, timeout=60)
        fs = json.loads(out.splitlines()[-1])
        print(f"flood at table {flood[0]} (its own process), on for {fs['seconds']:.0f} s: "
              f"{fs['frames']} frames sent ({fs['frames'] / max(1.0, fs['seconds']):.0f}/s), "
              f"{fs['connects']} connects ({fs['connects'] / max(1.0, fs['seconds']):.0f}/s), "
              f"closed by the server {fs['closed']} times, told too fast {fs['told']} times; "
              f"the flood client's own CPU: {fs['cpu']:.2f} s")
    print(f"load generator event loop lag (10 ms timer): {my_lag}"
          + "".join(f"; watcher process {k}: {lag_k}" for k, lag_k in enumerate(server_lags)))
    first = min((t for t, _ in timeline), default=0.0)
    late = [lat for t, lat in timeline if t - first >= args.move_seconds]
    # the last: a site's steady state, every clock firing stale
    for label, lat in (("move -> all 4 seats", seat_lat),
                       (f"move -> all {args.watchers} watchers", watch_lat),
                       (f"move -> all 4 seats, moves from {args.move_seconds:.0f} s on (clock tasks firing)",
                        late if args.tasks else [])):
        if lat:
            lat.sort()
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"{label}: p50 {1000 * statistics.median(lat):.1f} ms, p99 {1000 * p99:.1f} ms, "
                  f"max {1000 * lat[-1]:.1f} ms (n={len(lat)})")
    if flood_windows:
        outside = windows.assign(flood_windows, timeline, args.flood_linger)
        print(f"flood windows: {args.flood_windows:g} s each in {len(flood_windows) // 2} pairs after a "
              f"{args.warmup:g} s warm-up, the flood's first {args.flood_linger:g} s after it stops counted "
              f"for it; {outside} moves outside the windows")
        for line in windows.report(flood_windows):
            print(line)
    cost = idle = None
    if args.costs:  # until the last move's clock task has fired and PostgreSQL's statistics caught up
        await asyncio.sleep(max(costs.PG_FLUSH_SECONDS, args.move_seconds + 2 if args.tasks else 0) - 2)
        run1 = await snapshot()
        backends.stop()
        for key, value in child_wire.items():  # the watcher processes' frames, counted from the start
            run1.figures[f"wire.{key}"] = run1.figures.get(f"wire.{key}", 0.0) + value
        cost = costs.per_move((idle0, idle1), (idle1, run1), moves)
        idle = costs.idle_rates((idle0, idle1))
        for line in costs.report(cost, idle, held, len(servers), args.own_redis):
            print(line)
    for k in range(len(servers)):
        log = server_log(k)
        logged = log.read_text().splitlines() if log.exists() else []
        print(f"server log: {len(logged)} lines in {log}")
    if os.environ.get("BENCH_GC_LOG"):  # bench/ws/settings.py: the server's collections of 2 ms or more
        server_pids = {s.pid for s in servers}
        by_gen: dict[str, list[float]] = {}
        for line in Path(os.environ["BENCH_GC_LOG"]).read_text().splitlines():
            pid, gen, ms, _at = line.split()[:4]
            if int(pid) in server_pids:
                by_gen.setdefault(gen, []).append(float(ms))
        print("server GC pauses >= 2 ms: " + (", ".join(
            f"gen {g}: {len(v)} ({sum(v):.0f} ms in all, max {max(v):.0f} ms)"
            for g, v in sorted(by_gen.items()))
            or "none"))
    if os.environ.get("BENCH_TRACE"):
        print_stages(state, Path(os.environ["BENCH_TRACE"]))
        for flooded in (False, True) if flood_windows else ():
            print_stages(state, Path(os.environ["BENCH_TRACE"]), title=" with the flood" if flooded else
                         " without the flood", keep=lambda sent, f=flooded: windows.kind_of(
                             flood_windows, sent, args.flood_linger) is f)
    if args.dump:  # (seconds into the run, latency) per move, for a closer look
        Path(args.dump).write_text(json.dumps(sorted((t - first, lat) for t, lat in timeline)))
        # and the run's start on the monotonic clock (BENCH_GC_LOG's times are on it)
        Path(args.dump + ".t0").write_text(json.dumps(first))
        if flood_windows:  # beside it: each window's (start, end, flooded), on the same clock
            Path(args.dump + ".windows").write_text(json.dumps(
                [(w.start - first, w.end - first, w.flood) for w in flood_windows]))
    await asyncio.gather(*(ws.close() for ws in list(seat_socks.values()) + watchers), return_exceptions=True)
    for task in got["tasks"]:
        task.cancel()
    for child in children:
        child.stdin.write("close\n")
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
    return {
        "servers": len(servers), "held": held, "wanted": args.tables * (4 + args.watchers),
        "per_process": [got["per_port"][p] for p in ports], "connect_s": connect_s,
        "kib_per_socket": grown / max(1, held) / 1024, "moves": moves, "moves_per_s": moves / args.seconds,
        "refused": refused, "refused_why": why, "lost": incomplete, "seats": p50_p99(seat_lat),
        "watchers": p50_p99(watch_lat),
        "late": p50_p99(late) if args.tasks else None,
        "cpu_ms": [(1000 * a / per_move, 1000 * b / per_move) for a, b in split],
        "celery_ms": 1000 * (w1 - w0) / per_move, "load": os.getloadavg()[0], "probe_after": probe_after,
        "costs": cost, "idle": idle,
    }


def server_counts(text: str) -> list[int]:
    """`--servers 1,2` -> [1, 2]: each count of server processes is a run of its own, in turn."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of counts: {text!r}") from None
    if not counts or not all(1 <= n <= 8 for n in counts):
        raise argparse.ArgumentTypeError("1 to 8 server processes a run")
    return counts


def one_count(args, count: int) -> dict:  # noqa: ANN001
    """A run over `count` server processes: fresh tables, the servers and the worker, the load."""
    # One channel prefix for the servers and the Celery worker: the events of the clock tasks (a
    # redeal question closed by its clock, a move lost on time) reach the sockets only through it.
    os.environ["BENCH_PREFIX"] = f"bilka-bench-{uuid.uuid4().hex[:6]}"
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()  # no clock tasks left from an earlier run
    os.environ.pop("BENCH_QUERIES", None)  # not in the migration's process nor in this one
    tables = prepare(args)
    if args.queries:  # the statements of the servers, their move workers and the Celery worker
        os.makedirs(args.queries)
        os.environ["BENCH_QUERIES"] = args.queries
    flood = prepare_flood() if args.flood else None
    ports = free_ports(count)
    print(f"-- {count} server process{'es' if count > 1 else ''} (port{'s' if count > 1 else ''} "
          f"{', '.join(map(str, ports))}; {'each ' if count > 1 else ''}with its move worker), "
          f"one Celery worker{'' if args.tasks else ' (none: --no-tasks)'}", flush=True)
    servers: list[subprocess.Popen] = []
    worker = None
    try:
        for k, port in enumerate(ports):
            servers.append(start_server(args, port, k))
        worker = start_worker(args)
        waited = settle([*servers, *([worker] if worker else [])])
        print(f"the server processes and the worker started up in {waited:.1f} s", flush=True)
        quiet_gc()
        with asyncio.Runner(loop_factory=new_event_loop) as runner:  # uvloop when installed
            return runner.run(run(args, tables, ports, servers, worker, flood))
    finally:
        stop(worker, servers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", choices=["daphne", "uvicorn"], default="uvicorn",
                        help="uvicorn is what bin/site runs")
    parser.add_argument("--servers", type=server_counts, default=[1], metavar="N[,N...]",
                        help="server processes, each on a port of its own with its move worker, the sockets "
                             "spread over them in turn; several counts (1,2) run one after the other in "
                             "the same run and are printed side by side (default 1)")
    parser.add_argument("--layer", choices=["redis", "pubsub"], default="pubsub")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=16, help="spectator sockets per table")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves at one table")
    parser.add_argument("--watcher-procs", type=int, default=0,
                        help="hold the watchers in this many processes of their own (0: in this one)")
    parser.add_argument("--move-seconds", type=float, default=25,
                        help="the move clock in real seconds: each move queues a clock task that fires "
                             "(stale) this much later; (the first clock of each table, started before "
                             "the sockets connect, gets 100 times this)")
    parser.add_argument("--no-tasks", dest="tasks", action="store_false",
                        help="queue no Celery clock tasks and start no worker (the figures of earlier runs)")
    parser.add_argument("--flood", action="store_true",
                        help="10 sockets send 1,000 frames/s in all at one more table (not measured), "
                             "through the first server process")
    parser.add_argument("--flood-windows", type=float, default=0, metavar="W",
                        help="measure the flood within the run: after --warmup, pairs of W-second windows, "
                             "one flooded and one not, in a seeded random order (bench/ws/windows.py)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before the first window (default: --move-seconds + 5, so the clock "
                             "tasks fire in every window)")
    parser.add_argument("--flood-linger", type=float, default=2.0,
                        help="seconds after the flood stops whose moves still count for it")
    parser.add_argument("--seed", type=int, default=None,
                        help="seeds the order of the flood windows and the tables' stagger (default: drawn "
                             "for the run and printed, so that runs pooled together do not share one order)")
    parser.add_argument("--no-stagger", dest="stagger", action="store_false",
                        help="start every table at its match's first move (before 2026-12-04: the deals of "
                             "all tables then end in the same seconds, see stagger())")
    parser.add_argument("--costs", action="store_true",
                        help="also measure what a move costs: CPU of every process, PostgreSQL transactions, "
                             "rows and statements, Redis commands and bytes, bytes to the sockets, net of "
                             "the idle rates (bench/ws/costs.py; adds --idle and about 40 s a run)")
    parser.add_argument("--idle", type=float, default=10.0,
                        help="with --costs: seconds with every socket open and no move, for the idle rates")
    parser.add_argument("--own-redis", action="store_true",
                        help="run a Redis server of the bench's own for the run (REDIS_URL ignored), so that "
                             "--costs can count its commands")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # a watcher process: the servers' ports
    parser.add_argument("--child-tables", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        quiet_gc()
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            runner.run(watcher_child(args))
        return
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 31)
    args.tables = min(args.tables, 500)  # bounded: at most 500 tables
    args.seconds = min(args.seconds, 600 if args.flood_windows else 300)
    if args.flood_windows:
        args.flood = True
        if args.warmup is None:
            args.warmup = args.move_seconds + 5 if args.tasks else 5
        if args.seconds < args.warmup + 2 * args.flood_windows:
            parser.error("--seconds must hold the warm-up and at least one pair of windows")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bilka_bench")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.ws.settings"
    os.environ["BENCH_LAYER"] = args.layer
    os.environ["BENCH_TASKS"] = "1" if args.tasks else "0"
    os.environ["BENCH_CLOCK_SCALE"] = str(args.move_seconds / 60)  # the rules' shortest clock is 60 s
    layer = "RedisPubSubChannelLayer" if args.layer == "pubsub" else "RedisChannelLayer"
    print(f"== {args.server} + {layer}: "
          f"{args.tables} tables x (4 seats + {args.watchers} watchers), one move per {args.interval} s "
          f"per table for {args.seconds} s{', flood at one more table' if args.flood else ''}"
          f"{f' in windows of {args.flood_windows:g} s' if args.flood_windows else ''}; seed {args.seed}"
          f"{', tables staggered' if args.stagger else ', not staggered'}; CPU probe {cpu_probe():.0f} ms",
          flush=True)
    dump = os.environ.get("BENCH_DUMP")
    results = []
    redis_server = counted = None
    try:
        if args.own_redis:
            redis_server, os.environ["REDIS_URL"] = start_redis()
            print(f"Redis of the bench's own: {os.environ['REDIS_URL']}", flush=True)
        if args.costs:
            counted = tempfile.mkdtemp(prefix="bilka-bench-queries-")
        for count in args.servers:
            # BENCH_DUMP=run.json: run.json for one count, run-1p.json, run-2p.json, … for several
            args.dump = dump if not dump or len(args.servers) == 1 else str(
                Path(dump).with_name(f"{Path(dump).stem}-{count}p{Path(dump).suffix}"))
            args.queries = os.path.join(counted, str(count)) if counted else None
            results.append(one_count(args, count))
    finally:
        if redis_server is not None:
            redis_server.terminate()
            redis_server.wait(timeout=10)
        if counted:
            shutil.rmtree(counted, ignore_errors=True)
    if len(results) > 1:
        print(f"== side by side: the same {args.tables} tables, seed and load, one run after the other")
        for line in side_by_side(args, results):
            print(line)


if __name__ == "__main__":
    main()
