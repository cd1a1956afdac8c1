"""What every benchmark server shares (bench/web/settings.py, bench/ws/settings.py): the project's
settings as production runs them (DEBUG off, the cached template loader, the Redis cache), quiet
logs, static files served from the app folders (no collectstatic before a run)."""

from config.settings.base import *  # noqa: F401,F403

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
WHITENOISE_USE_FINDERS = True
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
