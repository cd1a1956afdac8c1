"""Send committed table events to the channel layer: one group per table, one message per event
carrying the five filtered frames (the four seats' and the spectators'), from which each socket's
consumer sends only its own viewer's frame; plus the lobby group. Called on commit only.

One PUBLISH per move instead of five (one per seat group and the spectators'): fewer Redis round
trips on the server's event loop, where the pub/sub layer sends one at a time. The other frames
stay inside the server process; a socket only ever gets the frame filtered for its viewer.

Delivery is at most once (a full channel drops messages): clients number-check every frame and
ask for what they missed (`sync`), so a lost frame costs a round trip, never a wrong picture.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


VIEWERS = (0, 1, 2, 3, None)  # the four seats, then the spectators: the order of a message's frames


def table_group(table_id: int) -> str:
    """The group of every socket of a table: seats and spectators."""
    return f"table-{table_id}"


def viewer_index(seat: int | None) -> int:
    """Where a viewer's frame is in a `table.frames` message."""
    return 4 if seat is None else seat


def _send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        logger.warning("No channel layer: %d table frames dropped", len(messages))
        return

    async def send_all() -> None:
        await asyncio.gather(*(layer.group_send(group, msg) for group, msg in messages))

    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        # Inside the server: hand the sends to its event loop and free this database thread at
        # once (frames of one table are queued in commit order; a client that sees a gap syncs).
        asyncio.run_coroutine_threadsafe(send_all(), loop).add_done_callback(_log_failure)
        return
    async_to_sync(send_all)()


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("Table frames not sent: %r", future.exception())


def send_event(event: Any) -> None:
    from gameplay.protocol.frames import frame_for

    frames = [_encode(frame_for(event, seat)) for seat in VIEWERS]
    _send_many([(table_group(event.table_id), {"type": "table.frames", "frames": frames})])


def frame_message(frame: dict[str, Any]) -> dict[str, Any]:
    """A channel-layer message carrying one frame, encoded once for every socket of the group."""
    return {"type": "table.frame", "text": _encode(frame)}


def _encode(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def send_presence(table_id: int) -> None:
    from gameplay.models import Table
    from gameplay.protocol.frames import table_meta
    from gameplay.selectors import seats_of

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    message = frame_message({"type": "presence", "table": table_meta(table, seats_of(table))})
    _send_many([(table_group(table_id), message)])


def lobby_changed() -> None:
    """Tell lobby sockets the open tables changed (on commit; the list is read fresh)."""
    from django.db import transaction

    transaction.on_commit(_send_lobby, robust=True)


def _send_lobby() -> None:
    from gameplay.selectors import lobby_tables

    _send_many([(LOBBY_GROUP, {"type": "lobby.update", "tables": lobby_tables()})])
