"""Websocket routes of every app, gathered in one list."""

from django.urls import path

from config.consumers import NotificationConsumer

websocket_urlpatterns: list = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]

from gameplay.routing import websocket_urlpatterns as gameplay_websocket_urlpatterns  # noqa: E402

websocket_urlpatterns += gameplay_websocket_urlpatterns
