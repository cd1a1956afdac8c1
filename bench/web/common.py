"""What the web benchmarks share: their own PostgreSQL database, made and migrated when needed, and
one uvicorn process serving the site on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_database(*, rebuild: bool) -> bool:
    """Create (or, with `rebuild`, drop and create) `DATABASE_URL`'s database when it is not there,
    and migrate it; whether it was there already."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and rebuild:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            exists = None
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)  # noqa: S603
    return exists is not None


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """One uvicorn process with `env` (its settings module), and its base address once it answers
    (within 30 s)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(  # noqa: S603
        [str(Path(sys.executable).parent / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--no-access-log", "--no-proxy-headers"],
        cwd=ROOT, env=env,
    )
    for _ in range(150):
        if server.poll() is not None:
            sys.exit(f"the server exited ({server.returncode})")
        try:
            urllib.request.urlopen(f"{base}/robots.txt", timeout=5)  # noqa: S310
            return server, base
        except urllib.error.HTTPError:
            return server, base  # it answers
        except OSError:
            time.sleep(0.2)
    server.terminate()
    sys.exit("the server did not answer in 30 s")
