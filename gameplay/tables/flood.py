"""Frame limits of the table socket: a size cap and token buckets per socket and per viewer, in Redis.

A socket that sends more than a player ever could is told why and closed, so one client cannot
slow every other table down. Two buckets are taken from for each frame (and the viewer's for each
connect): the socket's own (`GAMEPLAY_FLOOD_SOCKET_RATE` tokens/s after a burst of
`GAMEPLAY_FLOOD_SOCKET_BURST`) and the viewer's across all its sockets and all server processes
(`GAMEPLAY_FLOOD_VIEWER_*`): the browser's session (a signed-in person's, or the guest session the
table page gives every visitor), else the client's address (`clubs.addresses`, with
`GAMEPLAY_FLOOD_ADDRESS_FACTOR` times the allowance) for a client that keeps no cookie. Phones
behind one address (a carrier's NAT, a club's wifi) each have their session, so a hall of them
shares no allowance, and a client over its limits cools off only its own session: one flooding
client never locks out people it does not share a session with. A cool-off lasts at most
`GAMEPLAY_FLOOD_MAX_COOL_OFF` seconds (a minute). The viewer's bucket lives in Redis, so closing
and reopening sockets refills it no faster than time does; `ConnectGate` turns away a connect the
viewer cannot pay for before the session, the user or the table is loaded. One Lua script takes
from both buckets at once, on Redis's clock, so every server process sees the same counts. Redis
being away lets frames through (the channel layer is in the same Redis: the tables are down then
anyway).

The defaults leave a fast client room for a whole match (tests/gameplay/tables/test_tables_flood.py);
`python -m bench.ws.load --flood` measures what a flood at one table costs the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import parse_cookie
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from clubs.addresses import scope_client_address
from config.untrusted_json import over_size

logger = logging.getLogger(__name__)

TOO_FAST = "too_fast"
TOO_LARGE = "too_large"
CLOSE_TOO_FAST = 4429  # application close code: the client waits `retry_in` seconds before reconnecting
CLOSE_TOO_LARGE = 1009  # the protocol's own "message too big", after the site has said so in words
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

# KEYS: buckets (the viewer's first); ARGV[1]: the cost, ARGV[2]: the cool-off in seconds, ARGV[3]:
# the longest a viewer is kept out, then (rate, burst) per key. Takes the cost from every bucket,
# or nothing if any bucket has less; a refusal leaves the viewer's bucket that many seconds of its
# rate in debt, so that a client over its limits stays out for the cool-off instead of coming back
# as soon as a few tokens have refilled; each refusal before the bucket has refilled doubles the
# cool-off (a strike, up to 2^5), so a client that floods again at once stays out longer each
# time, but never longer than ARGV[3] from its last refusal. Returns {1, 0} or {0, seconds until
# every bucket has enough}.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cost = tonumber(ARGV[1])
local cool = tonumber(ARGV[2])
local longest = tonumber(ARGV[3])
local tokens, ok, wait, strikes = {}, 1, 0, 0
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i + 2]), tonumber(ARGV[2 * i + 3])
  local b = redis.call('HMGET', key, 'tokens', 'at', 'strikes')
  local have = tonumber(b[1]) or burst
  local at = tonumber(b[2]) or now
  if i == 1 then strikes = tonumber(b[3]) or 0 end
  have = math.min(burst, have + math.max(0, now - at) * rate)
  tokens[i] = have
  if have < cost then
    ok = 0
    wait = math.max(wait, (cost - have) / rate)
  end
end
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i + 2]), tonumber(ARGV[2 * i + 3])
  local have = tokens[i]
  if ok == 1 then have = have - cost
  elseif i == 1 and cool > 0 then
    have = math.min(have, 0) - rate * cool * 2 ^ math.min(strikes, 5)
    have = math.max(have, cost - rate * longest)
    wait = math.max(wait, (cost - have) / rate)
    redis.call('HSET', key, 'strikes', tostring(strikes + 1))
  end
  if ok == 0 then wait = math.min(wait, longest) end
  redis.call('HSET', key, 'tokens', tostring(have), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(1000 * ((burst - math.min(have, 0)) / rate + 1)))
end
return {ok, tostring(wait)}
"""

# The seconds until KEYS[1] holds ARGV[1] tokens (0: it holds them now); takes nothing.
_PEEK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cost, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if not b[1] then return '0' end
local have = tonumber(b[1]) + math.max(0, now - tonumber(b[2])) * rate
if have >= cost then return '0' end
return tostring((cost - have) / rate)
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
    cool_off: float = 0.0
    cool_off_jitter: float = 0.0
    hold: float = 0.0
    max_cool_off: float = 60.0

    @classmethod
    def current(cls) -> Limits:
        return cls(
            socket_rate=float(settings.GAMEPLAY_FLOOD_SOCKET_RATE),
            socket_burst=float(settings.GAMEPLAY_FLOOD_SOCKET_BURST),
            viewer_rate=float(settings.GAMEPLAY_FLOOD_VIEWER_RATE),
            viewer_burst=float(settings.GAMEPLAY_FLOOD_VIEWER_BURST),
            address_factor=float(settings.GAMEPLAY_FLOOD_ADDRESS_FACTOR),
            max_bytes=int(settings.GAMEPLAY_FRAME_MAX_BYTES),
            cool_off=float(getattr(settings, "GAMEPLAY_FLOOD_COOL_OFF", 0.0)),
            cool_off_jitter=float(getattr(settings, "GAMEPLAY_FLOOD_COOL_OFF_JITTER", 0.0)),
            hold=float(getattr(settings, "GAMEPLAY_FLOOD_HOLD", 0.0)),
            max_cool_off=float(getattr(settings, "GAMEPLAY_FLOOD_MAX_COOL_OFF", 60.0)),
        )


def enabled() -> bool:
    return bool(settings.GAMEPLAY_FLOOD_LIMITS)


def viewer_of(scope: dict[str, Any]) -> tuple[str, bool]:
    """(the viewer's bucket name, whether it is an address): the browser's session (a signed-in
    person's too), else the client's address. The session is the one the session middleware
    found, so a made-up cookie counts as the address."""
    session = scope.get("session")
    key = session.session_key if session is not None else None
    if key:
        return f"s:{key}", False
    return _address(scope), True


def _address(scope: dict[str, Any]) -> str:
    return f"a:{scope_client_address(scope) or '?'}"


def _prefix() -> str:
    return f"{settings.CACHES['default'].get('KEY_PREFIX', 'bilka')}:flood"


_clients: dict[asyncio.AbstractEventLoop, tuple[Any, Any, Any]] = {}


def _script(peek: bool = False) -> Any:
    """One Redis client and its registered scripts per event loop (a client binds to its loop)."""
    loop = asyncio.get_running_loop()
    for closed in [lp for lp in _clients if lp.is_closed()]:
        del _clients[closed]
    found = _clients.get(loop)
    if found is None:
        from redis import asyncio as aioredis

        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        found = _clients[loop] = (client, client.register_script(_TAKE), client.register_script(_PEEK))
    return found[2] if peek else found[1]


async def take(scope: dict[str, Any], socket_id: str | None, cost: int = 1) -> Verdict:
    """Take `cost` tokens for this viewer and, when `socket_id` is given, for its socket."""
    if not enabled():
        return Verdict(ok=True)
    limits = Limits.current()
    viewer, is_address = viewer_of(scope)
    factor = limits.address_factor if is_address else 1.0
    keys = [f"{_prefix()}:{viewer}"]
    cool_off, longest = _cool_off(limits)
    args: list[float] = [cost, cool_off, longest, limits.viewer_rate * factor, limits.viewer_burst * factor]
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
    return Verdict(ok=False, retry_in=max(2, min(math.ceil(float(wait)), math.ceil(limits.max_cool_off))))


def _cool_off(limits: Limits) -> tuple[float, float]:
    """The cool-off a refusal now would set, and the longest a viewer may then be kept out:
    `cool_off` stretched by up to `cool_off_jitter` of itself, drawn afresh for each frame, and
    `max_cool_off` shortened by the same share (so never over it). Viewers throttled together
    (the sockets of one flood, a club's phones after a bad reconnect loop) so come back spread over
    seconds instead of in the same instant, the ones kept out longest too: each return costs the
    server a socket's connect (the session, the table, the seat's connection row and the presence
    it sends), and ten at once were the slow moves of the other tables ten and twenty seconds into
    a flood (`python -m bench.ws.load --flood-windows`)."""
    if limits.cool_off <= 0 or limits.cool_off_jitter <= 0:
        return limits.cool_off, limits.max_cool_off
    stretch = 1.0 + limits.cool_off_jitter * random.random()  # noqa: S311 - not a secret
    return limits.cool_off * stretch, limits.max_cool_off * stretch / (1.0 + limits.cool_off_jitter)


def cost_of(text_data: str | None, bytes_data: bytes | None) -> int:
    """A frame's cost, read off its text before it is decoded (a frame that only names a dear type
    in another field pays for it). An oversize frame never gets here: the socket refuses it first."""
    text = text_data if text_data is not None else ""
    for kind, cost in COSTS.items():
        if f'"{kind}"' in text:
            return cost
    return 1


def too_large(text_data: str | None, bytes_data: bytes | None) -> bool:
    """Whether a frame is over `GAMEPLAY_FRAME_MAX_BYTES` (UTF-8 bytes of a text frame)."""
    limit = max_bytes()
    return any(data is not None and over_size(data, limit) for data in (bytes_data, text_data))


def max_bytes() -> int:
    return Limits.current().max_bytes


#: Connects held by this process's gate, by viewer: a few wait out the cool-off, the rest are
#: turned away at once (`HOLD_PER_VIEWER`).
_held: dict[str, int] = {}
HOLD_PER_VIEWER = 4


class ConnectGate:
    """ASGI middleware before the session and auth middleware of `/ws/table/` sockets: a viewer
    whose allowance cannot pay for a connect is told so and closed before anything is loaded
    (no session, user or table from the database, no channel-layer subscription). It only looks
    (the consumer takes the tokens); a cookie that names no session only gets as far as the
    consumer, which counts it by address.

    A refused connect is held for up to `GAMEPLAY_FLOOD_HOLD` seconds (at most the time the
    viewer has to wait) before it is answered, so a client that reconnects at once costs a
    sleeping coroutine per try instead of a handshake every few milliseconds; beyond
    `HOLD_PER_VIEWER` held at once, a connect is refused before the handshake (HTTP 403)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        table_socket = scope["type"] == "websocket" and scope.get("path", "").startswith("/ws/table/")
        if not table_socket or not enabled():
            return await self.inner(scope, receive, send)
        cookies = _cookies(scope)
        session = cookies.get(settings.SESSION_COOKIE_NAME)
        limits = Limits.current()
        if session:
            key, rate = f"s:{session}", limits.viewer_rate
        else:
            key, rate = _address(scope), limits.viewer_rate * limits.address_factor
        try:
            wait = float(await _script(peek=True)(keys=[f"{_prefix()}:{key}"], args=[CONNECT_COST, rate]))
        except Exception:  # noqa: BLE001 - Redis away: the consumer lets it through too
            wait = 0.0
        if wait <= 0:
            return await self.inner(scope, receive, send)
        held = _held.get(key, 0)
        if held >= HOLD_PER_VIEWER:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_TOO_FAST})  # before accept: 403
            return None
        _held[key] = held + 1
        try:
            pause = min(wait, limits.hold)
            if pause > 0:
                await asyncio.sleep(pause)
        finally:
            if _held[key] <= 1:
                del _held[key]
            else:
                _held[key] -= 1
        await receive()  # websocket.connect (or the client gave up while it was held)
        with translation.override(cookies.get(settings.LANGUAGE_COOKIE_NAME) or settings.LANGUAGE_CODE):
            text = gettext(TOO_FAST_TEXT)
        try:
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(
                {"type": "refused", "id": None, "code": TOO_FAST, "message": text,
                 "retry_in": max(2, math.ceil(wait - pause))}, ensure_ascii=False)})
            await send({"type": "websocket.close", "code": CLOSE_TOO_FAST})
        except Exception:  # noqa: BLE001 - the client left while it was held
            return None
        return None


def _cookies(scope: dict[str, Any]) -> dict[str, str]:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            return parse_cookie(value.decode("latin1"))
    return {}
