"""The table sockets this server process holds and its heartbeat, so a dead process lets go.

A process that dies still lets go of its seated players: while it holds seated players' table
sockets, a process keeps its heartbeat key in Redis (TTL `servers.HEARTBEAT_TTL`, refreshed
every 10 s by one asyncio task per event loop, started by the first such socket; spectators have
no rows, so they need none). Each seated socket is a `SeatConnection` row under the process's id
(`services.connection_changed`); a beat task (`services.reap_dead_servers`) drops the rows of
ids whose key is gone, exactly as their disconnects would have. Nothing is wiped when a process
starts: other live processes share the database.

The key is written before a socket's row, so a live process is never taken for a dead one. If a
stalled loop let the key lapse, the process takes a new id and records the sockets it still holds
under it (`_beat`): the reaper may drop the old id's rows, never the new one's.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from gameplay.tables import servers

logger = logging.getLogger(__name__)

HEARTBEAT_EVERY = 10.0  # seconds between refreshes


@dataclass
class _LoopPresence:
    """The table sockets of one event loop and its heartbeat task."""

    sockets: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # channel -> (table, seat)
    task: asyncio.Task[None] | None = None
    redis: Any = None
    beating: asyncio.Event = field(default_factory=asyncio.Event)


_loops: dict[asyncio.AbstractEventLoop, _LoopPresence] = {}
# A forked worker holds none of its parent's sockets (it has a new id too: `gameplay.tables.servers`).
os.register_at_fork(after_in_child=_loops.clear)


def _presence() -> _LoopPresence:
    loop = asyncio.get_running_loop()
    for other in [lp for lp in _loops if lp.is_closed()]:
        del _loops[other]
    state = _loops.get(loop)
    if state is None:
        state = _loops[loop] = _LoopPresence()
    return state


async def socket_opened(channel_name: str, table_id: int, seat: int | None) -> None:
    """Count a table socket of this process; returns once the heartbeat key is in Redis, so the
    socket's row is only written under a live id."""
    state = _presence()
    state.sockets[channel_name] = (table_id, seat)
    if state.task is None or state.task.done():
        state.beating = asyncio.Event()
        state.task = asyncio.get_running_loop().create_task(_heartbeat(state), name="bilka-server-heartbeat")
    waiter = asyncio.ensure_future(state.beating.wait())
    await asyncio.wait([waiter, state.task], return_when=asyncio.FIRST_COMPLETED)
    if not waiter.done():
        waiter.cancel()


def socket_closed(channel_name: str) -> None:
    """The socket is gone (call before deleting its row); the heartbeat stops after the last one."""
    _presence().sockets.pop(channel_name, None)


async def _beat(state: _LoopPresence, first: bool) -> None:
    """Keep this process's key for another TTL. A key found gone after the first beat means the
    process was taken for dead (a stalled loop, Redis away) and its rows may be reaped any moment:
    it takes a new id and records the sockets it still holds under it."""
    if await state.redis.expire(servers.server_key(servers.SERVER_ID), servers.HEARTBEAT_TTL):
        return
    lapsed = not first
    if lapsed:
        old, new = servers.SERVER_ID, servers.renew_server_id()
        logger.warning("Heartbeat of server %s had lapsed; its sockets go on as server %s", old, new)
    await state.redis.set(servers.server_key(servers.SERVER_ID), "1", ex=servers.HEARTBEAT_TTL)
    if lapsed:
        await _record_again()


async def _heartbeat(state: _LoopPresence) -> None:
    from redis import asyncio as aioredis

    state.redis = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
    first = True
    try:
        while True:
            try:
                await _beat(state, first)
                first = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away for a moment: try again next beat
                logger.warning("Server heartbeat not written: %r", exc)
            state.beating.set()
            await asyncio.sleep(HEARTBEAT_EVERY)
            if not state.sockets:
                return  # no socket left: the key expires by itself
    finally:
        state.beating.set()
        try:
            await state.redis.aclose()
        except Exception:  # noqa: BLE001, S110 - the loop may be closing
            pass


async def _record_again() -> None:
    """Move the rows of every seated socket this process holds to its new id (or write them again
    where the reaper dropped them meanwhile); the seat row lock orders this with the reaper."""
    from channels.db import database_sync_to_async

    from gameplay import services

    held = [(channel, where) for state in list(_loops.values())
            for channel, where in list(state.sockets.items())]
    def still_open(channel_name: str) -> bool:
        return any(channel_name in state.sockets for state in list(_loops.values()))

    for channel_name, (table_id, seat) in held:
        if seat is None or not still_open(channel_name):
            continue
        await database_sync_to_async(services.connection_changed)(
            table_id=table_id, seat=seat, delta=1, channel_name=channel_name, server_id=servers.SERVER_ID
        )
        if not still_open(channel_name):  # closed meanwhile: its own delete may have come first
            await database_sync_to_async(services.connection_changed)(
                table_id=table_id, seat=seat, delta=-1, channel_name=channel_name
            )
