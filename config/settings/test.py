"""Tests: always the machine's real PostgreSQL and Redis, never fakes."""

from .base import *  # noqa: F401,F403
from .base import CHANNEL_LAYERS, env

# Each parallel run (a developer's, CI's) may name its own test database and Redis db.
_db = env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka")
_db["TEST"] = {"NAME": env("BILKA_TEST_DB", default="test_bilka")}
_db["CONN_MAX_AGE"] = 0
DATABASES = {"default": _db}

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/9")
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [REDIS_URL]
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = env("CHANNELS_PREFIX", default="bilka-test")
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
DEBUG = False
