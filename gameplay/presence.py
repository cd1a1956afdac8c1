"""Which server process holds a seated player's sockets, so that a process that dies still lets go.

A socket's `disconnect` never runs when its server process is killed (SIGKILL, a crash, a deploy);
its player would look connected for ever and his disconnection grace would never start. So each
process has an instance id (`SERVER_ID`, new at import and in every forked child), and while it
holds seated players' table sockets it keeps a heartbeat key `bilka:server:<id>` in Redis (TTL
30 s, refreshed every 10 s by one asyncio task per event loop, started by the first such socket;
spectators have no rows, so they need none). Each seated
socket is a `SeatConnection` row under that id (`services.connection_changed`). A beat task
(`reap_dead_servers`) drops the rows of ids whose key is gone, exactly as their disconnects
would have. Nothing is wiped when a process starts: other live processes share the database.

The key is written before a socket's row, so a live process is never taken for a dead one. If a
stalled loop let the key lapse, the process takes a new id and records the sockets it still holds
under it (`_beat`): the reaper may drop the old id's rows, never the new one's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "bilka:server:"
HEARTBEAT_TTL = 30  # seconds the key lives without a refresh
HEARTBEAT_EVERY = 10.0  # seconds between refreshes


def _new_server_id() -> str:
    return f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:12]}"


SERVER_ID = _new_server_id()


def _renew_after_fork() -> None:
    """A forked worker is a process of its own: its sockets must not live under its parent's id."""
    global SERVER_ID
    SERVER_ID = _new_server_id()
    _loops.clear()


def server_key(server_id: str) -> str:
    return f"{KEY_PREFIX}{server_id}"


@dataclass
class _LoopPresence:
    """The table sockets of one event loop and its heartbeat task."""

    sockets: dict[str, tuple[int, int | None]] = field(default_factory=dict)  # channel -> (table, seat)
    task: asyncio.Task[None] | None = None
    redis: Any = None
    beating: asyncio.Event = field(default_factory=asyncio.Event)


_loops: dict[asyncio.AbstractEventLoop, _LoopPresence] = {}
os.register_at_fork(after_in_child=_renew_after_fork)


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
    global SERVER_ID
    if await state.redis.expire(server_key(SERVER_ID), HEARTBEAT_TTL):
        return
    lapsed = not first
    if lapsed:
        old, SERVER_ID = SERVER_ID, _new_server_id()
        logger.warning("Heartbeat of server %s had lapsed; its sockets go on as server %s", old, SERVER_ID)
    await state.redis.set(server_key(SERVER_ID), "1", ex=HEARTBEAT_TTL)
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

    held = [(channel, where) for state in list(_loops.values()) for channel, where in list(state.sockets.items())]
    def still_open(channel_name: str) -> bool:
        return any(channel_name in state.sockets for state in list(_loops.values()))

    for channel_name, (table_id, seat) in held:
        if seat is None or not still_open(channel_name):
            continue
        await database_sync_to_async(services.connection_changed)(
            table_id=table_id, seat=seat, delta=1, channel_name=channel_name, server_id=SERVER_ID
        )
        if not still_open(channel_name):  # closed meanwhile: its own delete may have come first
            await database_sync_to_async(services.connection_changed)(
                table_id=table_id, seat=seat, delta=-1, channel_name=channel_name
            )


def live_servers(server_ids: list[str]) -> set[str]:
    """The ids among `server_ids` whose heartbeat key is in Redis (raises when Redis cannot say)."""
    import redis

    if not server_ids:
        return set()
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
    try:
        pipe = client.pipeline(transaction=False)
        for server_id in server_ids:
            pipe.exists(server_key(server_id))
        return {server_id for server_id, found in zip(server_ids, pipe.execute(), strict=True) if found}
    finally:
        client.close()


def reap_dead_servers() -> int:
    """Drop the socket rows of server processes whose heartbeat key is gone; returns seats changed.

    Each seat is one `connection_changed` transaction that takes the seat row lock with SKIP LOCKED,
    so two beats at once never do a seat twice (the second finds its rows gone) and a seat that a
    move or a connect holds is simply done on the next beat. Seats whose count has no rows behind
    it (counted before this module existed) are recounted the same way.
    """
    from django.db.models import Count, Q

    from gameplay import services
    from gameplay.models import Seat, SeatConnection

    server_ids = sorted(set(SeatConnection.objects.values_list("server_id", flat=True)))
    dead = sorted(set(server_ids) - live_servers(server_ids))
    seats = set(SeatConnection.objects.filter(server_id__in=dead)
                .values_list("seat__table_id", "seat__seat").distinct()) if dead else set()
    seats |= set(Seat.objects.filter(connections__gt=0, is_bot=False)
                 .annotate(rows=Count("live_connections", filter=Q(live_connections__isnull=False)))
                 .filter(rows=0).values_list("table_id", "seat"))
    changed = 0
    for table_id, seat in sorted(seats):
        try:
            changed += services.connection_changed(table_id=table_id, seat=seat, dead_servers=dead,
                                                   skip_locked=True)
        except Exception:  # one seat must not keep the others connected
            logger.exception("Dropping dead sockets of table %s seat %s failed", table_id, seat)
    if dead:
        logger.info("Dropped the sockets of dead servers %s (%d seats changed)", ", ".join(dead), changed)
    return changed
