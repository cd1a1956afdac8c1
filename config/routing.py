"""Websocket routes of every app, gathered in one list."""

from django.urls import path

from config.consumers import NotificationConsumer

websocket_urlpatterns: list = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
]
