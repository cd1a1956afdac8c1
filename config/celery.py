"""The Celery app: broker and results in Redis, periodic plans in django-celery-beat."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("bilka")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
