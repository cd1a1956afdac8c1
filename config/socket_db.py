"""Database calls of the websockets in the shared thread pool, each pool thread keeping its connection.

Channels' own `database_sync_to_async` closes the thread's connection before and after every call
(CONN_MAX_AGE is 0 under ASGI), and its consumers close one again before every message and after
every close (`aclose_old_connections`). So each socket's handshake opened a PostgreSQL connection
for the user's look-up alone (AuthMiddleware), a backend forked and warmed for one query, and each
closing socket closed a connection a pool thread kept, which that thread's next call opened again.
Ten flood sockets coming back together cost some twenty backends in a second, and the other tables'
moves waited for the CPU they took (bench/ws/load.py `--flood-windows`: the slow moves were the ones
in the first second of each flood). Here the user is looked up, and the sockets close, without it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from asgiref.sync import sync_to_async
from channels.auth import AuthMiddleware, get_user
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async as _channels_database_sync_to_async
from channels.exceptions import StopConsumer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections


def database_sync_to_async(func: Any) -> Any:
    """Run `func` in the shared thread pool, keeping each pool thread's database connection.

    Moves of different tables never queue behind one thread (the table row lock orders the moves
    of one table). The pool is bounded, so are its connections; opening a PostgreSQL connection
    per call (CONN_MAX_AGE = 0) cost more than the move itself (bench/ws/load.py: p50 2 s -> 0.25 s
    at 50 moves/s). A connection that failed is closed, and the next call opens a new one.
    `GAMEPLAY_SOCKET_DB_REUSE = False` gives Channels' usual close-per-call.
    """
    if not getattr(settings, "GAMEPLAY_SOCKET_DB_REUSE", True):
        return _channels_database_sync_to_async(func, thread_sensitive=False)

    def run(*args: Any, **kwargs: Any) -> Any:
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.connection is not None and connection.errors_occurred and not connection.is_usable():
            connection.close()
        try:
            return func(*args, **kwargs)
        finally:
            if connection.errors_occurred and not connection.is_usable():
                connection.close()

    return sync_to_async(run, thread_sensitive=False)


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware, with the session's user looked up in the shared pool (above)."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        async with lane():
            scope["user"]._wrapped = await database_sync_to_async(get_user.func)(scope)  # noqa: SLF001


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - Channels' name for the same stack
    """Cookies, the session and the user, as Channels' stack of that name."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))


class KeepsConnections:
    """Mixin for a Channels consumer whose database calls look after their own connection (through
    `database_sync_to_async` above, or Channels' own, which opens and closes one per call): no
    `close_old_connections` in a pool thread before each message or after the close, which only
    closed a connection some pool thread kept. Relaying a frame touches no database; skipping it
    also took a quarter of the server's CPU off at 1,000 frames a second (py-spy)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        for group in self.groups:  # type: ignore[attr-defined]
            await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]
        await self.disconnect(message["code"])  # type: ignore[attr-defined]
        raise StopConsumer


_lanes: dict[Any, asyncio.Semaphore] = {}


def lane() -> Any:
    """The socket housekeeping lane of this event loop: `async with lane(): ...` around the
    database work of a socket's connect, its first picture of the table and its close.

    That work (the session, the table, the seat's connection row and the presence it sends, the
    snapshot: some 20 queries and 10 ms of this process's CPU a seated socket) runs in the shared thread
    pool, whose threads take the interpreter lock in turn with the event loop that relays every
    table's moves. Ten sockets coming at once (a flood starting, a club's phones after a restart)
    put six pool threads against the loop, and the other tables' moves waited in the first
    second of each flood (bench/ws/load.py --flood-windows: 44 moves over 50 ms in seven flood
    starts, 58 in six in another run; 5 in six with the lane). One at a time, per process
    (`GAMEPLAY_SOCKET_LANES`, 0 for no limit), they queue for a few milliseconds each and leave
    the loop its share. A move never waits in it (a stale move's catch-up may)."""
    width = int(getattr(settings, "GAMEPLAY_SOCKET_LANES", 1) or 0)
    if width <= 0:
        return contextlib.nullcontext()
    loop = asyncio.get_running_loop()
    found = _lanes.get(loop)
    if found is None:
        for closed in [lp for lp in _lanes if lp.is_closed()]:
            del _lanes[closed]
        found = _lanes[loop] = asyncio.Semaphore(width)
    return found
