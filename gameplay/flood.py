"""Frame limits of the table socket: a size cap and token buckets per socket and per viewer, in Redis.

A socket that sends more than a player ever could is told why and closed, so one client cannot
slow every other table down. Two buckets are taken from for each frame (and one for each connect):
the socket's own (`GAMEPLAY_FLOOD_SOCKET_RATE` frames/s after a burst of
`GAMEPLAY_FLOOD_SOCKET_BURST`) and the viewer's across all its sockets and all server processes
(`GAMEPLAY_FLOOD_VIEWER_*`): the signed-in user, else the browser's session, else the address
(with `GAMEPLAY_FLOOD_ADDRESS_FACTOR` times the allowance: many phones share one address behind a
carrier's NAT). The viewer's bucket lives in Redis, so closing and reopening sockets does not
refill it any faster than time does. One Lua script takes from both buckets at once, on Redis's
clock, so every server process sees the same counts; Redis being away lets frames through (the
channel layer is in the same Redis: the tables are down then anyway).

The defaults leave a fast client ten times the room a whole match needs (tests/gameplay/tables/
test_tables_flood.py); bench/ws_load.py `--flood` measures what a flood at one table costs the others.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

logger = logging.getLogger(__name__)

TOO_FAST = "too_fast"
TOO_LARGE = "too_large"
CLOSE_TOO_FAST = 4429  # application close code: the client waits `retry_in` seconds before reconnecting
TOO_FAST_TEXT = gettext_noop("Too many messages from this device. The table reconnects in a few seconds.")
TOO_LARGE_TEXT = gettext_noop("This message is too long for the table.")

# What a frame costs in tokens: about what the server does for it. A `sync` builds a snapshot or a
# catch-up from the database, a move or a resignation locks the table row; a ping costs one. The
# limit is checked when the consumer takes the frame up, after the one before it was answered: a
# flood of dear frames would be answered at the server's pace, barely over a rate counted in
# frames, so the dear ones are counted by their weight. A person's page syncs on connect and on a
# gap, and moves a few times a minute. A connect costs CONNECT_COST of the viewer's tokens: a
# reconnect loads the session, the user and the table.
COSTS = {"sync": 10, "move": 3, "resign": 3}
CONNECT_COST = 5

# KEYS: buckets; ARGV[1]: the cost, then (rate, burst) per key. Takes the cost from every bucket,
# or nothing if any bucket has less. Returns {1, 0} or {0, seconds until every bucket has enough}.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cost = tonumber(ARGV[1])
local tokens, ok, wait = {}, 1, 0
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local b = redis.call('HMGET', key, 'tokens', 'at')
  local have = tonumber(b[1]) or burst
  local at = tonumber(b[2]) or now
  have = math.min(burst, have + math.max(0, now - at) * rate)
  tokens[i] = have
  if have < cost then
    ok = 0
    wait = math.max(wait, (cost - have) / rate)
  end
end
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local have = tokens[i]
  if ok == 1 then have = have - cost end
  redis.call('HSET', key, 'tokens', tostring(have), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(1000 * (burst / rate + 1)))
end
return {ok, tostring(wait)}
"""


@dataclass(frozen=True)
class Verdict:
    ok: bool
    retry_in: int = 0  # whole seconds until the socket may send again (0 when ok)


@dataclass(frozen=True)
class Limits:
    """The allowance of one socket and of one viewer, from settings (tests change them)."""

    socket_rate: float
    socket_burst: float
    viewer_rate: float
    viewer_burst: float
    address_factor: float
    max_bytes: int

    @classmethod
    def current(cls) -> Limits:
        return cls(
            socket_rate=float(settings.GAMEPLAY_FLOOD_SOCKET_RATE),
            socket_burst=float(settings.GAMEPLAY_FLOOD_SOCKET_BURST),
            viewer_rate=float(settings.GAMEPLAY_FLOOD_VIEWER_RATE),
            viewer_burst=float(settings.GAMEPLAY_FLOOD_VIEWER_BURST),
            address_factor=float(settings.GAMEPLAY_FLOOD_ADDRESS_FACTOR),
            max_bytes=int(settings.GAMEPLAY_FRAME_MAX_BYTES),
        )


def enabled() -> bool:
    return bool(settings.GAMEPLAY_FLOOD_LIMITS)


def viewer_of(scope: dict[str, Any]) -> tuple[str, bool]:
    """(the viewer's bucket name, whether it is an address): user, else session, else address."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u:{user.pk}", False
    session = scope.get("session")
    key = session.session_key if session is not None else None
    if key:
        return f"s:{key}", False
    client = scope.get("client") or ("?", 0)
    return f"a:{client[0]}", True


def _prefix() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'bilka')}:flood"


_clients: dict[asyncio.AbstractEventLoop, tuple[Any, Any]] = {}


def _script() -> Any:
    """One Redis client and registered script per event loop (a client binds to its loop)."""
    loop = asyncio.get_running_loop()
    for closed in [lp for lp in _clients if lp.is_closed()]:
        del _clients[closed]
    found = _clients.get(loop)
    if found is None:
        from redis import asyncio as aioredis

        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        found = _clients[loop] = (client, client.register_script(_TAKE))
    return found[1]


async def take(scope: dict[str, Any], socket_id: str | None, cost: int = 1) -> Verdict:
    """Take `cost` tokens for this viewer and, when `socket_id` is given, for its socket."""
    if not enabled():
        return Verdict(ok=True)
    limits = Limits.current()
    viewer, is_address = viewer_of(scope)
    factor = limits.address_factor if is_address else 1.0
    keys = [f"{_prefix()}:{viewer}"]
    args: list[float] = [cost, limits.viewer_rate * factor, limits.viewer_burst * factor]
    if socket_id is not None:
        keys.append(f"{_prefix()}:c:{socket_id}")
        args += [limits.socket_rate, limits.socket_burst]
    try:
        ok, wait = await _script()(keys=keys, args=args)
    except Exception:  # noqa: BLE001 - Redis away: let the frame through, say so in the log
        logger.warning("flood limits: Redis unavailable, frame let through", exc_info=True)
        return Verdict(ok=True)
    if int(ok):
        return Verdict(ok=True)
    return Verdict(ok=False, retry_in=max(2, math.ceil(float(wait))))


def cost_of(text_data: str | None, bytes_data: bytes | None) -> int:
    """A frame's cost, read off its text before it is decoded (a frame that only names a dear type
    in another field pays for it; an oversize frame pays as a sync)."""
    text = text_data if text_data is not None else ""
    if too_large(text_data, bytes_data):
        return COSTS["sync"]
    for kind, cost in COSTS.items():
        if f'"{kind}"' in text:
            return cost
    return 1


def too_large(text_data: str | None, bytes_data: bytes | None) -> bool:
    """Whether a frame is over `GAMEPLAY_FRAME_MAX_BYTES` (UTF-8 bytes of a text frame)."""
    limit = Limits.current().max_bytes
    if bytes_data is not None and len(bytes_data) > limit:
        return True
    if text_data is None or len(text_data) <= limit // 4:
        return False  # at most 4 bytes a character: no need to encode
    return len(text_data.encode()) > limit
