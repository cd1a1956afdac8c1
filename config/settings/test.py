"""Tests: always the machine's real PostgreSQL and Redis, never fakes."""

import os
import uuid

from .base import *  # noqa: F401,F403
from .base import CHANNEL_LAYERS, channel_layer_host, env, redis_cache

# One id per test run, kept in the environment so that the processes a run starts (a Celery
# worker, a spawned live server) read the same value. It keeps parallel runs that share a Redis
# database apart: their own channel-layer prefix, task queue and control exchange.
RUN_ID = os.environ.setdefault("BILKA_RUN_ID", uuid.uuid4().hex[:10])
# Under pytest-xdist (bin/test -n) each worker process is a run of its own: its own test database
# (pytest-django adds the _gw0, _gw1 suffix), so also its own prefix, queues and Celery workers,
# or one worker's Celery worker would take tasks meant for another's database. The processes a
# worker starts inherit PYTEST_XDIST_WORKER as well as the suffixed id: add the suffix once.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _XDIST_WORKER and not RUN_ID.endswith(f"-{_XDIST_WORKER}"):
    RUN_ID = os.environ["BILKA_RUN_ID"] = f"{RUN_ID}-{_XDIST_WORKER}"

# Each parallel run (a developer's, CI's) may name its own test database and Redis db.
# A Celery worker started by the tests gets DATABASE_URL pointing at the test database itself:
# it never runs the test runner, so no second "test_" prefix is applied (tests/conftest.py).
_db = env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka")
_db["TEST"] = {"NAME": env("BILKA_TEST_DB", default="test_bilka")}
_db["CONN_MAX_AGE"] = 0
# The suite commits tens of thousands of times (transactional tests, live servers, the site's own
# processes), and each commit waited for its fsync (here 300 commits took 0.38 s, and 0.15 s
# without the wait). A test database needs no durability across a crash of the machine (a killed
# process still loses no committed row), so its commits do not wait for the disk.
if "postgresql" in _db["ENGINE"]:
    _db.setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
DATABASES = {"default": _db}

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/9")
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [channel_layer_host(REDIS_URL)]
CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = env("CHANNELS_PREFIX", default=f"bilka-test-{RUN_ID}")
CACHES = redis_cache(REDIS_URL, f"bilka-test-{RUN_ID}")
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = f"bilka-test-{RUN_ID}"
# The test worker (tests/conftest.py) would otherwise learn ratings from every archived match of
# every later test while those tests flush their tables: a deadlock. Tests run these tasks
# in-process where they want them (tests/gameplay/tables/test_tables_archive.py).
ARCHIVE_NOTICE_QUEUE = f"bilka-test-{RUN_ID}-archive"
ANALYSIS_QUEUE = f"bilka-test-{RUN_ID}-analysis"
# The strong bots' queue, consumed by a worker of its own in the tests too (tests/conftest.py).
BOT_QUEUE = f"bilka-test-{RUN_ID}-bots"
CELERY_CONTROL_EXCHANGE = f"bilka-test-{RUN_ID}"

# Most tests run no Celery worker: the first reader after a change works the pages out
# (tests/tournaments/test_public_pages_refresh.py turns the worker's refresh on).
PUBLIC_PAGES_REFRESH = False

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
DEBUG = False
# Serve static files from the app folders as in development: no collectstatic before a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# The socket tests speak as pages of http://127.0.0.1:8000; a live server started for browser
# tests passes its own origin (tests/e2e/test_tables_play.py).
BILKA_WS_ORIGINS = env.list("BILKA_WS_ORIGINS", default=["http://127.0.0.1:8000", "http://localhost:8000"])

# Live tables: bots move without a pause.
GAMEPLAY_BOT_PAUSE = 0.0
GAMEPLAY_BOT_PAUSE_SPREAD = 0.0
# Strong bots think briefly, so that a whole match through the worker takes seconds, not minutes.
BOT_BUDGET = env.float("BOT_BUDGET", default=0.05)
# A client told "too fast" is held this long before its refused reconnect is answered (tests wait less).
GAMEPLAY_FLOOD_HOLD = 0.3
# Moves run in the server's thread pool; tests/gameplay/tables/test_tables_move_pool.py turns the
# worker processes on (spawning them per test would cost seconds in every socket test).
GAMEPLAY_MOVE_PROCESSES = 0

# A page test reads an event stream to its end (tests/authz): end it soon; the stream's own tests
# set the time they need.
WEBHOOKS_STREAM_SECONDS = 1
WEBHOOKS_STREAM_POLL = 0.2
