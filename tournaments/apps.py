"""The tournaments app: on start, its signal receivers and tasks load and its beat rows follow migrate."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.apps import apps

        from . import broadcast, day_tasks, schedule, tasks  # noqa: F401 - signal receivers and tasks
        from .services import plans  # noqa: F401 - the day's plans follow rounds and day settings

        post_migrate.connect(
            schedule.ensure_auto_confirm_plan,
            sender=apps.get_app_config("django_celery_beat"),
            dispatch_uid="bilka-tournaments-auto-confirm",
        )
        broadcast.connect_table_events()
        post_migrate.connect(
            schedule.ensure_day_plan,
            sender=apps.get_app_config("django_celery_beat"),
            dispatch_uid="bilka-tournaments-day-plan",
        )
