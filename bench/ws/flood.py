"""The defined flood of bench/ws/load.py `--flood`: 10 sockets, 1,000 frames/s in all, at one table.

Its four seats and six spectators, each a guest session of its own, send a `sync` from -1 (the
dearest frame to answer) every `FLOOD_EVERY` seconds and reconnect at once whenever the server
closes them (a connect counts as a frame), while the flood is on. They come from 127.0.0.2: an
attacker's address is not the players' (the measured tables' sockets all come from 127.0.0.1).

The flood runs in a process of its own (`flood_process`), as an attacker would run on a machine of
his own: its 1,000 frames/s then do not slow the load generator's event loop, which stamps the
other tables' moves on receipt. It is on for the intervals it is given (system-wide monotonic
clock, as the generator's), the whole run or the `--flood-windows` of bench.ws.load, and prints what
it sent as one JSON line when its last interval ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from bench.ws.loop import new_event_loop

ROOT = Path(__file__).resolve().parents[2]

FLOOD_SOCKETS = 10
FLOOD_EVERY = FLOOD_SOCKETS / 1000  # each socket's share of 1,000 frames/s
FLOOD_ADDRESS = "127.0.0.2"  # an address of its own, not the measured tables' 127.0.0.1


def prepare_flood() -> tuple[int, list[str]]:
    """The flooded table: its four seats and six spectators, each a guest session of its own."""
    from django.contrib.sessions.backends.db import SessionStore

    from gameplay import services

    keys = []
    for _ in range(FLOOD_SOCKETS):
        session = SessionStore()
        session["bilka_guest"] = True
        session.create()
        keys.append(session.session_key)
    table = services.create_table(rules={"move_seconds": 60}, seating="in_order", session_key=keys[0])
    for key in keys[1:4]:
        services.sit(table_id=table.pk, session_key=key)
    return table.pk, keys


def flood_process(port: int, table_id: int, keys: list[str],
                  intervals: list[tuple[float, float]]) -> subprocess.Popen:
    """Start the flood in a process of its own; it floods in each (start, end) monotonic interval."""
    spans = ",".join(f"{a:.6f}:{b:.6f}" for a, b in intervals)
    return subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "bench.ws.flood", "--port", str(port), "--table", str(table_id),
         "--keys", ",".join(keys), "--on", spans],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)


async def flooder(port: int, table_id: int, key: str, stop: float, stats: dict[str, int]) -> None:
    """One flood socket until `stop`: a frame every FLOOD_EVERY seconds, reconnecting when closed."""
    import websockets

    frame = json.dumps({"type": "sync", "last": -1})

    async def drain(ws) -> None:  # noqa: ANN001
        try:
            async for raw in ws:
                if '"too_fast"' in raw:
                    stats["told"] += 1
        except websockets.ConnectionClosed:
            pass

    while time.monotonic() < stop:
        stats["connects"] += 1
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                                          origin=f"http://127.0.0.1:{port}",
                                          additional_headers={"Cookie": f"sessionid={key}"}, open_timeout=5,
                                          ping_interval=None, max_queue=None, compression=None,
                                          local_addr=(FLOOD_ADDRESS, 0))
        except Exception:  # noqa: BLE001 - refused or timed out: try again at the flood's pace
            await asyncio.sleep(FLOOD_EVERY)
            continue
        reading = asyncio.ensure_future(drain(ws))
        try:
            while time.monotonic() < stop:
                await asyncio.sleep(FLOOD_EVERY)
                await ws.send(frame)
                stats["frames"] += 1
        except websockets.ConnectionClosed:
            stats["closed"] += 1
        await ws.close()
        reading.cancel()


async def _flood(args: argparse.Namespace) -> dict[str, float]:
    stats = {"frames": 0, "connects": 0, "closed": 0, "told": 0, "seconds": 0.0}
    keys = args.keys.split(",")
    for span in args.on.split(","):
        start, end = (float(x) for x in span.split(":"))
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        if time.monotonic() < end:
            stats["seconds"] += end - max(start, time.monotonic())
            await asyncio.gather(*(flooder(args.port, args.table, key, end, stats) for key in keys))
    stats["cpu"] = time.process_time()  # the flood client's own CPU seconds (an attacker's machine)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--table", type=int, required=True)
    parser.add_argument("--keys", required=True, help="the flood sockets' session keys, comma-separated")
    parser.add_argument("--on", required=True, help="start:end,... in time.monotonic() seconds")
    args = parser.parse_args()
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        print(json.dumps(runner.run(_flood(args))), flush=True)


if __name__ == "__main__":
    main()
