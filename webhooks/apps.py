"""The webhooks app's start-up: it listens to the tournaments' changes and keeps its sweep's beat row."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from config.schedule import keep_plans_after_migrate

        from . import receivers, schedule, tasks  # noqa: F401 - the receivers and the tasks load
        from .audit_words import register

        receivers.connect()  # the tournaments never import this app: it listens to their rows
        register()
        keep_plans_after_migrate(schedule.ensure_sweep_plan, dispatch_uid="bilka-webhooks-sweep")
