"""The Django app of the live tables and the archive of played matches."""

from django.apps import AppConfig


class GameplayConfig(AppConfig):
    name = "gameplay"

    def ready(self) -> None:
        from clubs.services.merging import players_merged as merged
        from gameplay.services.archive import players_merged

        merged.connect(players_merged, dispatch_uid="bilka-archive-players-merged")
        from gameplay.services.analysis import follow_archive
        from gameplay.services.archive import match_changed

        match_changed.connect(follow_archive, dispatch_uid="bilka-analysis-follows-the-archive")
        from gameplay import tasks  # noqa: F401 - the archive's notice task is registered
