"""Settings for bench/web/slow3g.py: bench/web/settings.py with the static files as production serves
them (hashed names, precompressed copies, gathered by collectstatic into the bench's own folder), on
the bench's own database."""

import os

from bench.web.settings import *  # noqa: F401,F403
from config.settings.base import env

DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka_bench_3g")}
DATABASES["default"]["CONN_MAX_AGE"] = 0
STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
WHITENOISE_USE_FINDERS = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
