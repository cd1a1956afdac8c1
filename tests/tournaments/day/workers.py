"""A Celery worker the day tests start, stop and kill themselves: solo pool, a queue of its own."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from django.conf import settings

from tests.conftest import REPO_ROOT, WORKER_START_TIMEOUT, CeleryWorker, _database_url


class KillableWorker:
    """A solo-pool worker on a queue of its own, with the pause hook armed from ``folder``."""

    def __init__(self, queue: str, folder: Path) -> None:
        self.queue, self.folder = queue, folder
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="bilka-day-worker-", suffix=".log", delete=False)

    def start(self) -> None:
        db = settings.DATABASES["default"]
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": _database_url(db),
            "REDIS_URL": settings.REDIS_URL,
            "BILKA_RUN_ID": settings.RUN_ID,
            "BILKA_DAY_PAUSE": str(self.folder),
            "TOURNAMENTS_DAY_QUEUE": self.queue,
            "PYTHONUNBUFFERED": "1",
        }
        hostname = f"day-{uuid.uuid4().hex[:8]}@%h"
        self.process = subprocess.Popen(  # noqa: S603 - fixed command line
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--pool=solo",
             "-Q", self.queue, "--hostname", hostname, "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=REPO_ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        probe = CeleryWorker(self.process, hostname.replace("%h", socket.gethostname()), Path(self.log.name))
        deadline = time.monotonic() + WORKER_START_TIMEOUT
        while not probe.answers_ping(timeout=0.5):
            assert self.process.poll() is None and time.monotonic() < deadline, probe.log()

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        os.unlink(self.log.name)
