"""The tournament socket ``/ws/tournament/<id>/``: anyone who may see the pages hears that they changed.

It keeps no state and sends no data of the tournament: a ``changed`` frame with a version number,
after which the page fetches its fragment again over HTTP (the same view, the same permissions).
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .broadcast import tournament_group


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        self.group = tournament_group(int(self.scope["url_route"]["kwargs"]["tournament_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        """One-way: what a client sends is ignored."""

    async def tournament_changed(self, event: dict) -> None:
        await self.send_json({"type": "changed", "version": event["version"]})
