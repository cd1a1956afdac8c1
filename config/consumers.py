"""The per-user notification websocket: signed-in users hear what services send them."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from config.notify import user_group

__all__ = ["NotificationConsumer", "user_group"]


class NotificationConsumer(AsyncJsonWebsocketConsumer):
    """Relays `notify_user` payloads to one user's sockets; keeps no state of its own.

    Anonymous connections are closed before the handshake completes, so the browser sees a
    refusal (HTTP 403 from Daphne) rather than a socket that never speaks.
    """

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        """The channel is one-way: what a client sends is ignored."""

    async def notify_message(self, event: dict) -> None:
        await self.send_json(event["payload"])
