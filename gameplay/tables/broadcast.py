"""Send committed table events to the channel layer: one group per table, one message per event
carrying the five filtered frames (the four seats' and the spectators'), from which each socket's
consumer sends only its own viewer's frame; plus the lobby group. Called on commit only.

One PUBLISH per move instead of five (one per seat group and the spectators'): fewer Redis round
trips on the server's event loop, where the pub/sub layer sends one at a time. The other frames
stay inside the server process; a socket only ever gets the frame filtered for its viewer.

Inside the server, sends to the pub/sub layer go through `_Publisher`: all PUBLISHes waiting on
the event loop leave in one pipelined round trip on a Redis connection of their own. The layer's
own `group_send` sends one at a time under a lock, each waiting for its reply, so when the loop
was busy for a moment the moves queued behind each other for seconds (bench/ws/load.py,
BENCH_TRACE: "commit -> PUBLISHed" p99 2 s). Other layers (tests' in-memory layer,
RedisChannelLayer) get `group_send`.

Delivery is at most once (a full channel drops messages): clients number-check every frame and
ask for what they missed (`sync`), so a lost frame costs a round trip, never a wrong picture.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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


class _Publisher:
    """PUBLISHes group messages of one RedisPubSubChannelLayer in pipelined batches (one per loop)."""

    def __init__(self, layer: Any, loop_layer: Any) -> None:
        from channels_redis.utils import create_pool
        from redis import asyncio as aioredis

        self.layer = loop_layer
        shard = loop_layer._shards[0]  # noqa: SLF001 - the layer's own host settings
        self.redis = aioredis.Redis(connection_pool=create_pool(shard.host))
        self.serialize = layer.serialize
        self.pending: list[tuple[str, bytes]] = []
        self.flushing = False

    def publish(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Queue messages (on the loop) and start a flush unless one runs; it takes them too."""
        for group, message in messages:
            channel = self.layer._get_group_channel_name(group)  # noqa: SLF001 - what group_add subscribed
            self.pending.append((channel, self.serialize(message)))
        if not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception as exc:  # noqa: BLE001 - clients resync what they missed
                    logger.warning("%d table frames not sent: %r", len(batch), exc)
        finally:
            self.flushing = False


_publishers: dict[Any, _Publisher] = {}


def _publisher(layer: Any) -> _Publisher | None:
    """The pipelined publisher of this event loop, for a pub/sub layer; None for other layers."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    hosts = getattr(layer, "_kwargs", {}).get("hosts") or [1]
    if not isinstance(layer, RedisPubSubChannelLayer) or len(hosts) != 1:
        return None
    loop = asyncio.get_running_loop()
    loop_layer = layer._get_layer()  # noqa: SLF001 - the layer's state for this loop
    publisher = _publishers.get(loop)
    if publisher is None or publisher.layer is not loop_layer:
        publisher = _publishers[loop] = _Publisher(layer, loop_layer)
    return publisher


_outbox = threading.local()


@contextmanager
def collecting() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Collect this thread's sends instead of sending them (a move worker process hands them to
    the server, which publishes them: `gameplay.tables.move_pool`)."""
    previous = getattr(_outbox, "messages", None)
    _outbox.messages = collected = []
    try:
        yield collected
    finally:
        _outbox.messages = previous


def publish_on_loop(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send group messages from the server's event loop (no waiting: the sends are queued)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        publisher = _publisher(layer)
        if publisher is not None:
            publisher.publish(messages)
            return
    except Exception as exc:  # noqa: BLE001 - fall back to the layer's own sends
        logger.warning("Pipelined publisher unavailable: %r", exc)
    asyncio.ensure_future(_group_send_all(layer, messages)).add_done_callback(_log_failure)


def _send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
    collected = getattr(_outbox, "messages", None)
    if collected is not None:
        collected.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        logger.warning("No channel layer: %d table frames dropped", len(messages))
        return
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        # Inside the server: hand the sends to its event loop and free this database thread at
        # once (frames of one table are queued in commit order; a client that sees a gap syncs).
        loop.call_soon_threadsafe(publish_on_loop, messages)
        return
    async_to_sync(_group_send_all)(layer, messages)


async def _group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """The layer's own sends, all at once (without the pipelined publisher)."""
    await asyncio.gather(*(layer.group_send(group, msg) for group, msg in messages))


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("Table frames not sent: %r", future.exception())


def send_event(event: Any) -> None:
    from gameplay.protocol.frames import frame_for

    frames = [_encode(frame_for(event, seat)) for seat in VIEWERS]
    _send_many([(table_group(event.table_id), {"type": "table.frames", "frames": frames})])


def send_barred(table_ids: list[int], user_ids: list[int]) -> None:
    """Tell every socket of these tables that these users may no longer watch them: a spectator
    among them is told why and closed (`TableConsumer.table_barred`); players keep their seats."""
    if table_ids and user_ids:
        _send_many([(table_group(t), {"type": "table.barred", "users": list(user_ids)}) for t in table_ids])


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
