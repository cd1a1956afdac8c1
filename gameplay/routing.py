"""Websocket routes of the live tables."""

from django.urls import path

from gameplay.tables.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns: list = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
