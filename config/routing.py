"""Websocket routes of every app, gathered in one list."""

websocket_urlpatterns: list = []
