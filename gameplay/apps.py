"""The Django app of the live tables."""

from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"
