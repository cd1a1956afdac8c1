"""The Django app of the game: the live tables (the pure engine needs no app)."""

from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"
