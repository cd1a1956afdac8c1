"""The per-user notification websocket: signed-in users hear what services send them."""

from config.group_socket import OneWayGroupConsumer
from config.notify import user_group

__all__ = ["NotificationConsumer", "user_group"]


class NotificationConsumer(OneWayGroupConsumer):
    """Relays `notify_user` payloads to one user's sockets; keeps no state of its own.

    Anonymous connections are closed before the handshake completes, so the browser sees a
    refusal (HTTP 403 from Daphne) rather than a socket that never speaks.
    """

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        await self.join(user_group(user.pk))

    async def notify_message(self, event: dict) -> None:
        await self.send_json(event["payload"])
