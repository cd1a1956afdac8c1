"""The ratings: on start, the recompute follows the archive's "match changed" notice."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from archive.services import match_changed
        from ratings import tasks  # noqa: F401 - the recompute task is registered
        from ratings.services import recompute

        match_changed.connect(recompute.match_changed, dispatch_uid="bilka-ratings-follow-the-archive")
        from clubs.services.merging import players_merging
        from ratings.services import moves

        players_merging.connect(moves.player_merging, dispatch_uid="bilka-ratings-drop-a-merged-record")
