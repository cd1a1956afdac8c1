"""The load generator's side of bench.ws.load: the table sockets it opens, reads and stamps.

Seats decode every frame (they need the view to move); watchers read only the event number, no JSON
decode, and may be held in processes of their own (`--watcher-procs`, `watcher_child`). Frames are
stamped on receipt with the system-wide monotonic clock, so stamps compare across processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

from bench.ws.servers import cpu

#: What this process's sockets received and sent (websocket payload, UTF-8 bytes), for --costs.
WIRE = {"recv_bytes": 0, "recv_frames": 0, "seat_bytes": 0, "watcher_bytes": 0, "sent_bytes": 0,
        "sent_frames": 0}


def count_received(raw: str | bytes, kind: str) -> None:
    size = len(raw) if isinstance(raw, bytes) or raw.isascii() else len(raw.encode())
    WIRE["recv_bytes"] += size
    WIRE["recv_frames"] += 1
    WIRE[kind] += size


EVENT_PREFIX = '{"type":"event","n":'  # tables.broadcast.frame_message: compact JSON, "type" then "n"


def event_number(raw: str | bytes) -> int | None:
    """The number of an event frame without decoding the JSON (None for any other frame)."""
    if isinstance(raw, bytes):
        raw = raw.decode()
    if not raw.startswith(EVENT_PREFIX):
        return None
    end = raw.find(",", len(EVENT_PREFIX))
    return int(raw[len(EVENT_PREFIX):end])


class LoopLag:
    """How late this process's event loop wakes a 10 ms timer: a busy generator shows up here."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task: asyncio.Task | None = None

    async def _watch(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t - 0.01)

    def start(self) -> None:
        self.lags.clear()
        self.task = asyncio.ensure_future(self._watch())

    def stop(self) -> str:
        if self.task is not None:
            self.task.cancel()
        lags = sorted(self.lags) or [0.0]
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        return (f"p50 {1000 * lags[len(lags) // 2]:.1f} ms, p99 {1000 * p99:.1f} ms, "
                f"max {1000 * lags[-1]:.1f} ms")


def quiet_gc() -> None:
    """The generator's own collector pauses would count as latency: the server's default settings,
    whatever `BILKA_GC_THRESHOLD0` the server is given for a comparison."""
    from config import collector

    collector.settle(threshold0=collector.DEFAULT_THRESHOLD0)


class Table:
    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.views: dict[str, dict] = {}
        self.n = 0
        self.sent: dict[int, float] = {}  # event number -> time the move was sent
        self.seat_seen: dict[int, dict[str, float]] = {}
        self.view_n: dict[str, int] = {}
        self.watch_seen: dict[int, list[float]] = {}
        self.refused: dict[str, int] = {}  # refusal code -> count
        self.pending: int | None = None


class Sockets:
    """Opens table sockets (at most 50 handshakes at once, five tries each) and counts failures.

    With several server processes each socket goes to the next one in turn (`pick`), as nginx's
    `least_conn` spreads equal, long-lived sockets: a table's seats and watchers land on every
    process, so each of its events reaches some of its sockets through another process."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.failures = 0
        self.picked = 0
        self.held = dict.fromkeys(ports, 0)  # sockets open on each server process
        self.sem = asyncio.Semaphore(50)

    def pick(self) -> int:
        """The port of the next socket's server process."""
        port = self.ports[self.picked % len(self.ports)]
        self.picked += 1
        return port

    async def open(self, tid: int, key: str | None, port: int):
        import websockets

        headers = {"Cookie": f"sessionid={key}"} if key else {}
        async with self.sem:
            for _attempt in range(5):
                try:
                    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{tid}/",
                                                  origin=f"http://127.0.0.1:{port}",
                                                  additional_headers=headers, open_timeout=30,
                                                  ping_interval=None, max_queue=None, compression=None)
                    await ws.send(json.dumps({"type": "sync", "last": -1}))
                    self.held[port] += 1
                    return ws
                except Exception:  # noqa: BLE001 - count and retry
                    self.failures += 1
                    await asyncio.sleep(0.5)
        return None


async def watch(ws, seen: dict[int, list[float]]) -> None:
    """A spectator socket: stamp each event on receipt; only its number is read, no JSON decode."""
    import websockets

    try:
        async for raw in ws:
            now = time.monotonic()
            count_received(raw, "watcher_bytes")
            n = event_number(raw)
            if n is not None:
                seen.setdefault(n, []).append(now)
    except websockets.ConnectionClosed:
        pass


async def watcher_child(args) -> None:
    """`--child PORTS`: hold the watchers of some tables in a process of its own, spread over the
    server processes' ports in turn; report on "stop", close the sockets on "close"."""
    table_ids = [int(t) for t in args.child_tables.split(",")]
    socks = Sockets([int(port) for port in args.child.split(",")])
    seen: dict[int, dict[int, list[float]]] = {tid: {} for tid in table_ids}
    opened = await asyncio.gather(*(socks.open(tid, None, socks.pick())
                                    for tid in table_ids for _ in range(args.watchers)))
    tasks = [asyncio.ensure_future(watch(ws, seen[table_ids[i // args.watchers]]))
             for i, ws in enumerate(opened) if ws is not None]
    print(json.dumps({"held": len(tasks), "failures": socks.failures, "per_port": socks.held}), flush=True)
    lag = LoopLag()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # "start"
    lag.start()
    wire0 = dict(WIRE)
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
    report = {"lag": lag.stop(), "cpu": cpu(os.getpid()), "wire": {k: v - wire0[k] for k, v in WIRE.items()},
              "seen": {tid: {n: [len(ts), max(ts)] for n, ts in by_n.items()} for tid, by_n in seen.items()}}
    print(json.dumps(report), flush=True)
    # The sockets stay open until the generator says "close" (or goes): closed earlier, their goodbyes
    # would fall into the run's last measures (--costs takes its last snapshot after "stop").
    await loop.run_in_executor(None, sys.stdin.readline)
    await asyncio.gather(*(ws.close() for ws in opened if ws is not None), return_exceptions=True)
    for task in tasks:
        task.cancel()

