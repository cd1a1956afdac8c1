"""The one-way websocket every app's listen-only socket is built on: it joins one group and relays it."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from clubs.session_sockets import ClosesOnSignOut
from config.socket_db import KeepsConnections


class OneWayGroupConsumer(KeepsConnections, ClosesOnSignOut, AsyncJsonWebsocketConsumer):
    """Joins one channel-layer group, leaves it on close, ignores what the client sends.

    A subclass decides in ``connect`` which group the socket hears (or refuses it), calls
    ``join``, and adds one handler per message type it relays. It keeps no state beyond the
    group's name: what the page shows comes from the database, never from the socket.
    """

    group: str | None = None

    async def join(self, group: str) -> None:
        """Hear ``group`` from now on and complete the handshake."""
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.join_session()  # signing out closes the socket
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave_session()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        """The channel is one-way: what a client sends is dropped unread (decoding it would let a
        binary frame, or JSON nested a thousand deep, end the socket with an exception)."""
