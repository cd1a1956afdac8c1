"""Websocket routes of every app, gathered in one list."""

from django.urls import path

from config.consumers import NotificationConsumer
from gameplay.routing import websocket_urlpatterns as gameplay_websocket_urlpatterns
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns: list = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    *gameplay_websocket_urlpatterns,
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
