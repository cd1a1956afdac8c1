from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ConfigConfig(AppConfig):
    """The project's own small app: health page, notification socket, housekeeping tasks."""

    name = "config"
    verbose_name = "Site"

    def ready(self) -> None:
        from django.apps import apps

        from config.schedule import ensure_periodic_tasks

        # post_migrate is sent per app that has models; this app has none, so listen for
        # django_celery_beat's, which comes after every migration (and every test flush) has run.
        post_migrate.connect(
            ensure_periodic_tasks,
            sender=apps.get_app_config("django_celery_beat"),
            dispatch_uid="bilka-periodic-tasks",
        )
