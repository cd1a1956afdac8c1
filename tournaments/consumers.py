"""The tournament socket ``/ws/tournament/<id>/``: anyone who may see the pages hears that they changed.

It keeps no state and sends no data of the tournament: a ``changed`` frame with a version number,
after which the page fetches its fragment again over HTTP (the same view, the same permissions).
"""

from __future__ import annotations

from config.group_socket import OneWayGroupConsumer

from .broadcast import tournament_group


class TournamentConsumer(OneWayGroupConsumer):
    async def connect(self) -> None:
        await self.join(tournament_group(int(self.scope["url_route"]["kwargs"]["tournament_id"])))

    async def tournament_changed(self, event: dict) -> None:
        await self.send_json({"type": "changed", "version": event["version"]})
