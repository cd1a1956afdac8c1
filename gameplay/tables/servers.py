"""Which server processes are alive: this process's instance id and the heartbeat keys in Redis.

A socket's `disconnect` never runs when its server process is killed (SIGKILL, a crash, a deploy),
so each process has an instance id (`SERVER_ID`, new at import and in every forked child) under
which its seated sockets are recorded, and keeps a heartbeat key `bilka:server:<id>` in Redis
while it holds any (`gameplay.tables.presence`). An id whose key is gone belongs to a dead process:
`services.reap_dead_servers` drops its sockets. A process taken for dead while it lived takes a
new id (`renew_server_id`).
"""

from __future__ import annotations

import os
import socket
import uuid

from django.conf import settings

KEY_PREFIX = "bilka:server:"
HEARTBEAT_TTL = 30  # seconds the key lives without a refresh


def _new_server_id() -> str:
    return f"{socket.gethostname()[:30]}-{os.getpid()}-{uuid.uuid4().hex[:12]}"


SERVER_ID = _new_server_id()


def renew_server_id() -> str:
    """Give this process a new instance id (read `SERVER_ID` from this module, never a copy)."""
    global SERVER_ID  # noqa: PLW0603 - one id per process
    SERVER_ID = _new_server_id()
    return SERVER_ID


# A forked worker is a process of its own: its sockets must not live under its parent's id.
os.register_at_fork(after_in_child=renew_server_id)


def server_key(server_id: str) -> str:
    return f"{KEY_PREFIX}{server_id}"


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
