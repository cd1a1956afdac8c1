"""The clubs app's start-up: it connects the sign-up handler and checks the proxy settings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs and players")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the sign-up handler)
        from .addresses import check_proxy_settings

        check_proxy_settings()  # a wrong one stops the site here, not at its first request
