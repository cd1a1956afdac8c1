"""Every websocket of a browser session hears when that session signs out, and closes.

A socket authenticates once, at the handshake; without this, a table or notification socket
opened while signed in would keep speaking for the account after "Log out" (on a shared phone
at a tournament hall, to the next person holding it). Each socket of a session with a key
joins that session's group; signing out sends the group a close.
"""

from __future__ import annotations

import hashlib
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

# Custom close code: the client reconnects (if it does) as whoever the browser now is.
SIGNED_OUT = 4401


def session_group(session_key: str) -> str:
    """The channel-layer group of one session's sockets; the key itself never leaves the server."""
    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def scope_session_key(scope: dict[str, Any]) -> str:
    session = scope.get("session")
    return (session.session_key or "") if session is not None else ""


class ClosesOnSignOut:
    """Mixin for a Channels consumer: ``join_session`` once accepted, ``leave_session`` on disconnect."""

    session_group_name: str | None = None

    async def join_session(self) -> None:
        key = scope_session_key(self.scope)  # type: ignore[attr-defined]
        if key:
            self.session_group_name = session_group(key)
            await self.channel_layer.group_add(  # type: ignore[attr-defined]
                self.session_group_name, self.channel_name)  # type: ignore[attr-defined]

    async def leave_session(self) -> None:
        if self.session_group_name is not None:
            await self.channel_layer.group_discard(  # type: ignore[attr-defined]
                self.session_group_name, self.channel_name)  # type: ignore[attr-defined]
            self.session_group_name = None

    async def session_ended(self, event: dict[str, Any]) -> None:
        await self.close(code=SIGNED_OUT)  # type: ignore[attr-defined]


def close_session_sockets(session_key: str) -> None:
    """Tell every socket of the session, in any server process, to close."""
    if session_key:
        async_to_sync(get_channel_layer().group_send)(session_group(session_key), {"type": "session.ended"})
