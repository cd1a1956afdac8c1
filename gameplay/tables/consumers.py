"""The table socket `/ws/table/<id>/`: authenticate, join this viewer's group, relay moves. No game state.

A viewer is a seat (a signed-in user, or an anonymous "play now" browser by its session key) or a
spectator. The server sends each group its own filtered frame (`gameplay.tables.broadcast`); a client
asks `{"type": "sync", "last": N}` on connect and whenever it sees a gap in the event numbers.
Refusals go to the asking socket only. The origin (scheme, host and port: `BILKA_WS_ORIGINS`)
is checked in config/asgi.py before this consumer runs, and the flood limits before each frame is read.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.session_sockets import ClosesOnSignOut
from config.group_socket import OneWayGroupConsumer
from config.socket_db import KeepsConnections, database_sync_to_async, lane
from gameplay import services
from gameplay.engine.cards import SEATS
from gameplay.models import Table
from gameplay.protocol.inbound import UNREADABLE, read_frame
from gameplay.selectors import catch_up, lobby_tables, visible_to
from gameplay.tables import broadcast, flood, move_pool, presence, servers
from gameplay.tables.broadcast import LOBBY_GROUP, table_group, viewer_index


def _session_key(scope: dict[str, Any]) -> str:
    session = scope.get("session")
    return (session.session_key or "") if session is not None else ""


#: A spectator closed because the table's event now counts him among its players: the page shows
#: why and does not reconnect (a reload is refused like any private table's stranger).
CLOSE_BARRED = 4403
BARRED_TEXT = gettext_noop(
    "You now play in this table's event, so you can no longer watch its tables: "
    "the same boards are played at other tables.")

def _language(scope: dict[str, Any]) -> str | None:
    session = scope.get("session")
    cookies = scope.get("cookies") or {}
    lang = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if not lang and session is not None:
        lang = session.get("_language")
    return lang


class TableConsumer(KeepsConnections, ClosesOnSignOut, AsyncJsonWebsocketConsumer):
    table_id: int
    seat: int | None = None
    group: str | None = None
    lang: str | None = None
    throttled = False  # closing: told it sends too fast or too much at once, or may no longer watch
    #: (monotonic time, frame) of the last snapshot this socket was sent, while nothing has reached
    #: it from its table since and it has not moved (`_kept_snapshot`)
    kept: tuple[float, dict[str, Any]] | None = None
    #: how long a kept snapshot answers a repeated sync
    KEEP_SNAPSHOT_SECONDS = 1.0
    #: The client's message types and their handlers: the one list of what a table socket acts on
    #: (the authorisation matrix, tests/authz, has a row for each and fails on one it does not know).
    ACTIONS: dict[str, str] = {
        "sync": "_on_sync", "move": "_move", "resign": "_on_resign", "ping": "_on_ping",
    }

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Whatever ends this socket (its close, a crash, the server cancelling it), it lets go of
        its seat: otherwise the seat shows "connected" and spends no grace until its server dies."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._let_go()

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.lang = _language(self.scope)
        # a connect counts: reconnecting refills nothing
        verdict = await flood.take(self.scope, None, flood.CONNECT_COST)
        if not verdict.ok:
            await self.accept()
            await self._too_fast(verdict)
            return
        async with lane():
            found, seat = await self._identify()
        if not found:
            await self.close(code=4404)
            return
        self.seat = seat
        if seat is not None and move_pool.enabled():
            move_pool.pool()  # started with the first player's socket, before the first move
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_session()
        await self.accept()
        if seat is not None:
            # the heartbeat key is in Redis before the row: a live server is never reaped
            await presence.socket_opened(self.channel_name, self.table_id, seat)
            async with lane():
                await database_sync_to_async(services.connection_changed)(
                    table_id=self.table_id, seat=seat, delta=1, channel_name=self.channel_name,
                    server_id=servers.SERVER_ID,
                )

    @database_sync_to_async
    def _identify(self) -> tuple[bool, int | None]:
        # whether it is public is all a connect needs of the table (not its record or rules)
        table = Table.objects.filter(pk=self.table_id).only("pk", "public", "spectators_barred").first()
        if table is None:
            return False, None
        user = self.scope.get("user")
        seat = services.seat_for(table, user=user, session_key=_session_key(self.scope))
        # a private table refuses a spectator as if it did not exist
        user_id = user.pk if user is not None and user.is_authenticated else None
        return visible_to(table, seat, user_id), seat

    async def disconnect(self, code: int) -> None:
        await self._let_go()

    async def _let_go(self) -> None:
        """Leave the groups and drop this socket's row, once."""
        await self.leave_session()
        group, self.group = self.group, None
        if group is not None:
            if self.seat is not None:
                presence.socket_closed(self.channel_name)
                async with lane():
                    await database_sync_to_async(services.connection_changed)(
                        table_id=self.table_id, seat=self.seat, delta=-1, channel_name=self.channel_name
                    )
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        content = read_frame(text_data, flood.max_bytes())
        if content is UNREADABLE:
            await self._refuse(None, gettext_noop("This message cannot be read."))
            return
        await self.receive_json(content)

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        """Every frame passes the limits (`gameplay.tables.flood`) before it is read."""
        if await self._within_limits(message):
            await super().websocket_receive(message)

    async def _within_limits(self, message: dict[str, Any]) -> bool:
        """The frame's size first (nothing of an oversize frame is read), then its cost."""
        if self.throttled:
            return False  # told and closing: later frames are dropped
        if flood.too_large(message.get("text"), message.get("bytes")):
            await self._too_large()
            return False
        verdict = await flood.take(self.scope, self.channel_name,
                                   flood.cost_of(message.get("text"), message.get("bytes")))
        if not verdict.ok:
            await self._too_fast(verdict)
            return False
        return True

    async def _too_large(self) -> None:
        """Told in words, then closed as the protocol says (1009): no page sends such a frame, so
        the client sending it is broken or hostile, and the socket's buffer is given back."""
        self.throttled = True
        await self._refuse(None, flood.TOO_LARGE_TEXT, code=flood.TOO_LARGE)
        await self.close(code=flood.CLOSE_TOO_LARGE)

    async def _too_fast(self, verdict: flood.Verdict) -> None:
        self.throttled = True
        # as the connect limit words it (flood.py): without a language cookie, the site's language,
        # never the untranslated text (which came out when this path, not that one, refused)
        with translation.override(self.lang or settings.LANGUAGE_CODE):
            text = _(flood.TOO_FAST_TEXT)
        await self.send_json({"type": "refused", "id": None, "code": flood.TOO_FAST, "message": text,
                              "retry_in": verdict.retry_in})
        await self.close(code=flood.CLOSE_TOO_FAST)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._refuse(None, gettext_noop("A message is a JSON object."))
            return
        handler = self.ACTIONS.get(content.get("type"))
        if handler is None:
            await self._refuse(None, gettext_noop("Unknown message type."))
            return
        await getattr(self, handler)(content)

    async def _on_sync(self, content: dict[str, Any]) -> None:
        await self._resync(content.get("last"))

    async def _on_resign(self, content: dict[str, Any]) -> None:
        await self._resign()

    async def _on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def _resync(self, last: Any) -> None:
        if isinstance(last, bool) or not isinstance(last, int):
            last = -1
        kept = self._kept_snapshot(last)
        if kept is not None:
            await self.send_json(kept)
            return
        async with lane():
            frames = await self._catch_up(last)
        if len(frames) == 1 and frames[0]["type"] == "snapshot":
            # frames are handled one at a time: whatever the table published after this read
            # reaches the socket after this, and forgets it
            self.kept = (time.monotonic(), frames[0])
        for frame in frames:
            await self.send_json(frame)

    def _kept_snapshot(self, last: int) -> dict[str, Any] | None:
        """The snapshot this socket was last sent, again, when a sync asks for one within
        KEEP_SNAPSHOT_SECONDS and nothing has come from the table since (no event, no presence,
        no move of its own): a client repeating its sync gets the same picture without a database
        read. A flood of syncs so costs the server one snapshot and is counted at the pace it
        is sent, not at the pace snapshots are built (which under load let one run for seconds
        before its limit caught it). The move clock is moved on by the time that has passed."""
        if self.kept is None:
            return None
        at, frame = self.kept
        elapsed = time.monotonic() - at
        if elapsed > self.KEEP_SNAPSHOT_SECONDS:
            self.kept = None
            return None
        if 0 <= last <= frame["n"]:
            return None  # the events after `last` (none when last is the snapshot's own number)
        meta = frame["table"]
        if meta.get("deadline_in") is None:
            return frame
        return {**frame, "table": {**meta, "deadline_in": max(0.0, round(meta["deadline_in"] - elapsed, 1))}}

    @database_sync_to_async
    def _catch_up(self, last: int) -> list[dict[str, Any]]:
        table = Table.objects.get(pk=self.table_id)
        with translation.override(self.lang):
            return catch_up(table, self.seat, last)

    async def _move(self, content: dict[str, Any]) -> None:
        move_id = content.get("id")
        if move_id is not None and (not isinstance(move_id, str) or len(move_id) > 64):
            await self._refuse(None, gettext_noop("A move id is a string of up to 64 characters."))
            return
        if self.seat is None:
            await self._refuse(move_id, gettext_noop("You are not seated at this table."), code="forbidden")
            return
        claimed = content.get("seat")
        if claimed is not None and claimed != SEATS[self.seat]:
            await self._refuse(move_id, gettext_noop("You can only play for your own seat."),
                               code="forbidden")
            return
        expected = content.get("n")
        if isinstance(expected, bool) or not isinstance(expected, int):
            # without it a move made against an older picture of the table would not be caught
            await self._refuse(move_id, gettext_noop("A move carries the number of the last event seen."))
            return
        outcome = await self._play(content.get("action"), expected, move_id)
        if outcome.ok:
            await self.send_json({"type": "ack", "id": move_id, "n": outcome.event_number,
                                  "duplicate": outcome.duplicate})
        else:
            await self.send_json({"type": "refused", "id": move_id, "code": outcome.code,
                                  "message": outcome.message})
            if outcome.code == "stale":
                await self._resync(expected)

    async def _play(self, action: Any, expected: int, move_id: str | None) -> services.Outcome:
        self.kept = None
        kwargs = {"table_id": self.table_id, "seat": self.seat, "action": action, "expected_event": expected,
                  "client_move_id": move_id}
        if move_pool.enabled():
            return await self._in_move_worker("play", kwargs)
        return await self._play_here(kwargs)

    @database_sync_to_async
    def _play_here(self, kwargs: dict[str, Any]) -> services.Outcome:
        with translation.override(self.lang):
            return services.play(**kwargs)

    async def _in_move_worker(self, name: str, kwargs: dict[str, Any]) -> services.Outcome:
        """Run a move service in a worker process (`gameplay.tables.move_pool`); publish its frames here."""
        pool = move_pool.pool()
        try:
            data, outbox = await asyncio.get_running_loop().run_in_executor(
                pool, move_pool.run, name, kwargs, self.lang)
        except move_pool.BrokenProcessPool:
            # The worker died: the move may or may not have committed. "stale" makes the client
            # sync to what the database holds; a resend of a committed move is answered from its
            # receipt.
            move_pool.replace_broken(pool)
            with translation.override(self.lang):
                return services.Outcome(ok=False, code="stale",
                                        message=_("The table has moved on; here is the current position."))
        broadcast.publish_on_loop(outbox)
        return services.Outcome(**data)

    async def _resign(self) -> None:
        self.kept = None
        if self.seat is None:
            await self._refuse(None, gettext_noop("You are not seated at this table."), code="forbidden")
            return
        outcome = await self._do_resign()
        if not outcome.ok:
            await self.send_json({"type": "refused", "id": None, "code": outcome.code,
                                  "message": outcome.message})

    @database_sync_to_async
    def _do_resign(self) -> services.Outcome:
        with translation.override(self.lang):
            return services.resign(table_id=self.table_id, seat=self.seat)

    async def _refuse(self, move_id: Any, message: str, code: str = "invalid") -> None:
        with translation.override(self.lang):
            text = _(message)
        await self.send_json({"type": "refused", "id": move_id if isinstance(move_id, str) else None,
                              "code": code, "message": text})

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame that is the same for every viewer (presence)."""
        self.kept = None
        if not self.throttled:  # closed by the limits: nothing may be sent after the close
            await self.send(text_data=event["text"])

    async def table_barred(self, event: dict[str, Any]) -> None:
        """The table's event now counts this spectator among its players (a substitute who was
        watching): told why, then closed; the page does not reconnect (`barred`)."""
        user = self.scope.get("user")
        if self.seat is not None or user is None or not user.is_authenticated:
            return
        if user.pk not in event["users"] or self.throttled:
            return
        self.throttled = True  # nothing more of this table reaches it
        await self._refuse(None, BARRED_TEXT, code="barred")
        await self.close(code=CLOSE_BARRED)

    async def table_frames(self, event: dict[str, Any]) -> None:
        """An event: the message holds every viewer's filtered frame; send this socket's only."""
        self.kept = None
        if not self.throttled:
            await self.send(text_data=event["frames"][viewer_index(self.seat)])


class LobbyConsumer(OneWayGroupConsumer):
    """The lobby list of open tables, pushed whenever a table opens, fills, starts or ends; what a
    client sends is dropped unread."""

    async def connect(self) -> None:
        await self.join(LOBBY_GROUP)
        await self.send_json({"type": "lobby", "tables": await database_sync_to_async(lobby_tables)()})

    async def lobby_update(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby", "tables": event["tables"]})
