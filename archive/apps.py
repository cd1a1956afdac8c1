"""The archive of played matches: on start, its listeners connect and its tasks register."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = _("Match archive")

    def ready(self) -> None:
        from archive import tasks  # noqa: F401 - the notice and analysis tasks are registered
        from archive.services import analysis, matches
        from clubs.services.merging import players_merged

        players_merged.connect(matches.players_merged, dispatch_uid="bilka-archive-players-merged")
        matches.match_changed.connect(
            analysis.follow_archive, dispatch_uid="bilka-analysis-follows-the-archive")
