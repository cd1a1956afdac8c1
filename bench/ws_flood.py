"""The defined flood of bench/ws_load.py `--flood`: 10 sockets, 1,000 frames/s in all, at one table.

Its four seats and six spectators, each a guest session of its own, send a `sync` from -1 (the
dearest frame to answer) every `FLOOD_EVERY` seconds and reconnect at once whenever the server
closes them (a connect counts as a frame), for the whole run.
"""

from __future__ import annotations

import asyncio
import json
import time

FLOOD_SOCKETS = 10
FLOOD_EVERY = FLOOD_SOCKETS / 1000  # each socket's share of 1,000 frames/s


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


async def flooder(port: int, table_id: int, key: str, stop: float, stats: dict[str, int]) -> None:
    """One flood socket: a frame every FLOOD_EVERY seconds, reconnecting whenever it is closed."""
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
                                          ping_interval=None, max_queue=None, compression=None)
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
