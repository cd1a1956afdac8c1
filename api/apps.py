"""The API's Django app (keys belong to the accounts, in clubs; the API keeps only the answers
to writes sent with an idempotency key)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from . import schema  # noqa: F401  (registers the key's OpenAPI description)
