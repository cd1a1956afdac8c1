"""Fixtures every app's tests may use: a club with one user per role, a real Celery worker, a
clean channel layer and cache keys of the test's own."""

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import celery.exceptions
import hypothesis
import pytest
import redis
from django.conf import settings
from django.utils import translation

from clubs.models import Role
from config.celery import app as celery_app
from config.settings.base import redis_cache
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory

REPO_ROOT = Path(__file__).resolve().parent.parent
WORKER_START_TIMEOUT = 120.0  # a worker answers in seconds on an idle machine, in tens on a busy one
WORKER_STOP_TIMEOUT = 30.0

# Hypothesis times each example against a deadline (200 ms by default) and fails a test whose data
# is slow to draw (the too_slow health check): both time the machine, not the code, and a loaded
# machine fails examples an idle one passes. A property test's work is bounded by max_examples.
hypothesis.settings.register_profile(
    "bilka", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("bilka")


def _database_url(db: dict) -> str:
    """A DATABASE_URL naming the test database itself, for processes outside the test runner."""
    credentials = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{credentials}@{host}{port}/{quote(db['NAME'], safe='')}"


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language, as a fresh worker or request does: a test client's
    request leaves its language active in the thread, and a notice worded for a user with no known
    language is worded in the active one (tournaments.services.notices), so a page test in English
    made the next test's notices English."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _own_cache_keys(request, settings):
    """Each test counts in cache keys of its own (wrong PINs from the test client's one address
    would otherwise add up across tests); never ``cache.clear()``, which empties the shared Redis db.

    A browser test shares the keys of the run with the site it drives (the Daphne of
    tests/e2e/test_tables_play.py, one for the session): what the test writes through a service
    must renew the pages that site keeps (``config.fresh``)."""
    if request.node.get_closest_marker("e2e"):
        return
    settings.CACHES = redis_cache(settings.REDIS_URL, f"bilka-test-{uuid.uuid4().hex[:12]}")


@pytest.fixture
def club(db):
    return ClubFactory(name="Успенка", slug="uspenka")


@pytest.fixture
def owner(club):
    return MembershipFactory(club=club, user=UserFactory(username="owner"), role=Role.OWNER).user


@pytest.fixture
def organiser(club):
    return MembershipFactory(club=club, user=UserFactory(username="organiser"), role=Role.ORGANISER).user


@pytest.fixture
def member(club):
    return MembershipFactory(club=club, user=UserFactory(username="member"), role=Role.MEMBER).user


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


class CeleryWorker:
    """A `celery worker` process started for this test session (see `celery_worker_process`)."""

    def __init__(self, process: subprocess.Popen, hostname: str, log_path: Path,
                 queue: str | None = None) -> None:
        self.process = process
        self.hostname = hostname
        self.log_path = log_path
        self.queue = queue

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def answers_ping(self, timeout: float = 1.0) -> bool:
        return bool(celery_app.control.ping(destination=[self.hostname], timeout=timeout))

    def run_queued(self, seconds: float = 120.0) -> None:
        """Return once the worker has run every task queued to it before this call: a task of its
        own queued behind them comes back (the worker runs one task at a time, in turn). A test
        whose tables the worker was playing calls it last, so that no task of the test still runs
        while the database is flushed after it (a task and the flush can deadlock); a fixed pause
        promises nothing on a busy machine. Tasks queued with a countdown still to run are not
        waited for."""
        queue = self.queue or settings.CELERY_TASK_DEFAULT_QUEUE
        marker = celery_app.tasks["celery.accumulate"].apply_async(queue=queue)
        try:
            marker.get(timeout=seconds)
        except celery.exceptions.TimeoutError:
            pytest.fail(f"the worker did not run its queued tasks in {seconds:.0f} s:\n{self.log()[-3000:]}")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker) -> Iterator[CeleryWorker]:
    """A real Celery worker consuming this run's queue, connected to the test database.

    The worker is a separate process, so it only sees committed rows: tests that use it need
    `@pytest.mark.django_db(transaction=True)`. It gets DATABASE_URL pointing straight at the
    test database; as it never runs the test runner, no second "test_" prefix is added. The
    queue and control exchange are this run's own (config/settings/test.py), so a parallel run
    on the same Redis database neither steals its tasks nor answers its pings. Stopped with
    SIGTERM (a warm shutdown, 5–10 s) before pytest-django drops the database.
    """
    celery_app.control.purge()  # tasks queued by earlier tests without a worker
    yield from _worker("test", [])


@pytest.fixture(scope="session")
def bot_worker_process(django_db_setup, django_db_blocker) -> Iterator[CeleryWorker]:
    """A second real worker consuming only this run's strong-bot queue (`settings.BOT_QUEUE`), as
    bin/site runs one: a strong bot's move reaches the table only through it. Use it together with
    `celery_worker_process`, which runs the clocks and the beginners."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(settings.BOT_QUEUE)  # bot moves queued by earlier tests without a worker
    client.close()
    yield from _worker("test-bots", [settings.BOT_QUEUE], {"BILKA_BOT_WORKER": "1"})


def _worker(name: str, queues: list[str], extra_env: dict[str, str] | None = None) -> Iterator[CeleryWorker]:
    """Start a worker on `queues` (none: this run's default queue), wait for its ping, stop it."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("the Celery worker fixture needs the PostgreSQL test database (DATABASE_URL)")
    hostname = f"{name}-{uuid.uuid4().hex[:8]}@%h"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(db),
        "REDIS_URL": settings.REDIS_URL,
        "BILKA_RUN_ID": settings.RUN_ID,
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    log_file = tempfile.NamedTemporaryFile(prefix="bilka-celery-worker-", suffix=".log", delete=False)
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--loglevel=INFO", "--pool=solo", "--hostname", hostname,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        *(["-Q", ",".join(queues)] if queues else []),
    ]  # fmt: skip
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        command, cwd=REPO_ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT
    )
    worker = CeleryWorker(process, hostname.replace("%h", socket.gethostname()), Path(log_file.name),
                          queues[0] if queues else None)
    try:
        deadline = time.monotonic() + WORKER_START_TIMEOUT
        while not worker.answers_ping():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Celery worker did not start (exit code {process.poll()}):\n{worker.log()}")
        yield worker
    finally:
        process.terminate()
        try:
            process.wait(timeout=WORKER_STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log_file.close()
        os.unlink(log_file.name)


@pytest.fixture
def clean_channel_layer() -> Iterator[None]:
    """Remove this run's channel-layer keys (groups, channels) before and after a test."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    client = redis.Redis.from_url(settings.REDIS_URL)

    def flush() -> None:
        keys = list(client.scan_iter(match=f"{config['prefix']}*", count=1000))
        if keys:
            client.delete(*keys)

    flush()
    yield
    flush()
    client.close()


@pytest.fixture(scope="session", autouse=True)
def _remove_this_runs_redis_keys() -> Iterator[None]:
    """At the end of the run, drop the Redis keys named after this run (config/settings/test.py):
    its channel-layer groups, its task queue and the queue bindings kombu leaves behind. Results
    expire by themselves (CELERY_RESULT_EXPIRES)."""
    yield
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
    try:
        keys = list(client.scan_iter(match=f"*bilka-test-{settings.RUN_ID}*", count=1000))
        if keys:
            client.delete(*keys)
    except redis.ConnectionError:
        pass  # a run of pure tests without Redis: nothing of ours is there
    finally:
        client.close()


@pytest.fixture
def site_processes(tmp_path, transactional_db) -> Iterator:
    """Start the site as production runs it, real server and worker processes on the test database
    (tests/processes.py): ``site = site_processes(servers=2)``. Every process started is stopped
    when the test ends, however it ends, before the test database is flushed."""
    from tests.processes import Site

    sites: list[Site] = []

    def start(**options) -> Site:
        site = Site(tmp_path / f"site-{len(sites) + 1}", **options)
        sites.append(site)
        site.start()
        return site

    try:
        yield start
    finally:
        for site in sites:
            site.close()
