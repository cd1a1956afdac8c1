"""`BENCH_TRACE=file`: the benchmark server's ASGI application with stage stamps for every move.

bench/ws/load.py starts the server on `bench.ws.trace:application` instead of config.asgi when
BENCH_TRACE is set. Each line of the file is `stage table n monotonic-time`, with `n` the event
number the move makes; stages in order:

- `recv`: the consumer got the move frame (event loop);
- `start`: the consumer hands the move to the thread pool or the move worker (`_play`);
- `done`: the move is back on the loop (committed; its frames handed to the publisher, clock queued);
- `sent`: the channel layer's PUBLISH of the event finished (event loop);
- `frame`: a socket of the table got its frame (one line per socket; the first and the last count).

The clock is the system-wide monotonic clock, so the load generator joins these stamps with its
own send and receipt times. The stamps cost a little CPU; compare traced runs with traced runs.
"""

from __future__ import annotations

import os
import time

from config.asgi import application  # noqa: F401 - the application served, patched below
from gameplay.tables import consumers

_out = open(os.environ["BENCH_TRACE"], "a", buffering=1)  # noqa: SIM115 - open for the server's life
_now = time.monotonic


def _stamp(stage: str, table: int, n: int, at: float | None = None) -> None:
    _out.write(f"{stage} {table} {n} {at if at is not None else _now():.6f}\n")


_play = consumers.TableConsumer._play  # noqa: SLF001


async def _traced_play(self, action, expected, move_id):  # noqa: ANN001, ANN202
    n = expected + 1 if isinstance(expected, int) else -1
    _stamp("start", self.table_id, n)
    try:
        return await _play(self, action, expected, move_id)
    finally:
        _stamp("done", self.table_id, n)


consumers.TableConsumer._play = _traced_play  # noqa: SLF001

_receive_json = consumers.TableConsumer.receive_json


async def _traced_receive_json(self, content, **kwargs):  # noqa: ANN001, ANN003, ANN202
    if isinstance(content, dict) and content.get("type") == "move" and isinstance(content.get("n"), int):
        _stamp("recv", self.table_id, content["n"] + 1)
    return await _receive_json(self, content, **kwargs)


consumers.TableConsumer.receive_json = _traced_receive_json

def broadcast_number(frame: str) -> int:
    start = frame.index('"n":') + 4
    return int(frame[start:frame.index(",", start)])


def _trace_layer(cls) -> None:  # noqa: ANN001
    original = cls.group_send

    async def group_send(self, group, message):  # noqa: ANN001, ANN202
        await original(self, group, message)
        frames = message.get("frames")
        if frames and group.startswith("table-"):
            _stamp("sent", int(group[6:]), broadcast_number(frames[0]))

    cls.group_send = group_send


from gameplay.tables import broadcast  # noqa: E402

_publish = broadcast._Publisher.publish  # noqa: SLF001
_flush = broadcast._Publisher._flush  # noqa: SLF001


def _traced_publish(self, messages):  # noqa: ANN001, ANN202
    tags = self.__dict__.setdefault("trace_tags", [])
    for group, message in messages:
        if group.startswith("table-") and message.get("frames"):
            tags.append((int(group[6:]), broadcast_number(message["frames"][0])))
    _publish(self, messages)


async def _traced_flush(self):  # noqa: ANN001, ANN202
    # Stamps when the flush that took the moves ends (a move queued during it: a little late).
    await _flush(self)
    tags, self.trace_tags = self.__dict__.get("trace_tags", []), []
    for table, n in tags:
        _stamp("sent", table, n)


broadcast._Publisher.publish = _traced_publish  # noqa: SLF001
broadcast._Publisher._flush = _traced_flush  # noqa: SLF001

from channels_redis.core import RedisChannelLayer  # noqa: E402
from channels_redis.pubsub import RedisPubSubLoopLayer  # noqa: E402

_trace_layer(RedisChannelLayer)
_trace_layer(RedisPubSubLoopLayer)  # RedisPubSubChannelLayer hands group_send to its loop's layer

_table_frames = consumers.TableConsumer.table_frames


async def _traced_table_frames(self, event):  # noqa: ANN001, ANN202
    await _table_frames(self, event)
    _stamp("frame", self.table_id, broadcast_number(event["frames"][0]))


consumers.TableConsumer.table_frames = _traced_table_frames
