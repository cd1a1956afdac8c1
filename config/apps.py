"""The site app's start-up: its housekeeping plans are kept after every migrate."""

from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project's own small app: health page, notification socket, housekeeping tasks."""

    name = "config"
    verbose_name = "Site"

    def ready(self) -> None:
        from config.schedule import ensure_periodic_tasks, keep_plans_after_migrate

        keep_plans_after_migrate(ensure_periodic_tasks, dispatch_uid="bilka-periodic-tasks")
