from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.apps import apps

        from .schedule import ensure_auto_confirm_plan

        post_migrate.connect(
            ensure_auto_confirm_plan,
            sender=apps.get_app_config("django_celery_beat"),
            dispatch_uid="bilka-tournaments-auto-confirm",
        )
        from . import broadcast, day_tasks, scheduling  # noqa: F401 - signal receivers and tasks

        broadcast.connect_table_events()
        post_migrate.connect(
            scheduling.ensure_day_plan,
            sender=apps.get_app_config("django_celery_beat"),
            dispatch_uid="bilka-tournaments-day-plan",
        )
