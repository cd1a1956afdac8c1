"""The checks behind /health/: the database, Redis and a Celery worker, each timed."""

import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from config.celery import app as celery_app

# Each check gives up after this long, so a dead service costs the page at most this much.
TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class CheckResult:
    key: str
    label: str | Promise
    ok: bool
    latency_ms: float
    detail: str = ""

    def as_dict(self) -> dict:
        return {
            "name": str(self.label),
            "status": "ok" if self.ok else "error",
            "latency_ms": round(self.latency_ms, 1),
            "detail": self.detail,
        }


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 returned something else")


def check_redis() -> None:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()


def check_celery() -> None:
    """At least one worker answers a ping through the broker within the timeout."""
    with celery_app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
        # Fail fast on a dead broker instead of Celery's default of 100 reconnection attempts.
        conn.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)
        replies = celery_app.control.ping(timeout=TIMEOUT_SECONDS, limit=1, connection=conn)
    if not replies:
        raise RuntimeError("no worker answered")


CHECKS: list[tuple[str, str | Promise, Callable[[], None]]] = [
    ("database", _("Database"), check_database),
    ("redis", _("Redis"), check_redis),
    ("celery", _("Celery worker"), check_celery),
]


def run_checks() -> list[CheckResult]:
    results = []
    for key, label, check in CHECKS:
        started = time.perf_counter()
        try:
            check()
        except Exception as exc:  # any failure is a finding, not a crash of the health page
            detail = str(exc) if settings.DEBUG else type(exc).__name__
            ok = False
        else:
            detail, ok = "", True
        results.append(CheckResult(key, label, ok, (time.perf_counter() - started) * 1000, detail))
    return results
