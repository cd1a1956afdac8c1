"""Databases of either kind for tests that run the site's own ``manage.py`` in a process of its
own (the dev settings, as ``bin/site`` runs them): a fresh SQLite file, the embedded default, or a
fresh database on the test run's PostgreSQL server."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings


def site_env(database_url: str, var: Path) -> dict[str, str]:
    """The environment of a ``manage.py`` on that database, its files under ``var``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev", DATABASE_URL=database_url, BILKA_VAR_DIR=str(var),
        REDIS_URL=settings.REDIS_URL, CHANNELS_PREFIX=f"bilka-test-site-{uuid.uuid4().hex[:8]}",
        # What the seed queues (analysis, notices) is nobody's work here: kept in this process only,
        # so no task lands on a queue of the shared Redis that no worker reads.
        CELERY_BROKER_URL="memory://",
    )
    return env


class Database:
    """One database of either kind, read through plain DB-API (no models: a test of migrations reads
    the tables as they are)."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        if kind == "sqlite":
            self.path = tmp / "site.sqlite3"
            self.url = f"sqlite:///{self.path}"
        else:
            db = settings.DATABASES["default"]
            self.server = {"host": db.get("HOST") or "127.0.0.1", "port": db.get("PORT") or 5432,
                           "user": db.get("USER") or "postgres", "password": db.get("PASSWORD") or None}
            self.name = f"bilka_moves_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(dbname="postgres", autocommit=True, **self.server) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            password = f":{self.server['password']}" if self.server["password"] else ""
            self.url = (f"postgres://{self.server['user']}{password}@{self.server['host']}:"
                        f"{self.server['port']}/{self.name}")

    def drop(self) -> None:
        if self.kind == "postgresql":
            with psycopg.connect(dbname="postgres", autocommit=True, **self.server) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _connect(self) -> Any:
        if self.kind == "sqlite":
            return sqlite3.connect(self.path)
        return psycopg.connect(dbname=self.name, **self.server)

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        """Every table's rows, each a dict by column name (a rebuilt SQLite table may order its
        columns anew), sorted so that two snapshots compare whatever order the rows come in."""
        with self._connect() as conn:
            cursor = conn.cursor()
            if self.kind == "sqlite":
                cursor.execute(
                    "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
            else:
                cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            tables = [name for (name,) in cursor.fetchall()]
            out = {}
            for table in tables:
                cursor.execute(f'SELECT * FROM "{table}"')  # noqa: S608 - names read from the catalogue
                columns = [c[0] for c in cursor.description]
                rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
                out[table] = sorted(rows, key=lambda r: repr(sorted(r.items())))
            return out


#: Runs a tree's manage.py with only that tree's code: an editable install of the project (pip's
#: finder on sys.meta_path) would fill in what the old tree lacks from the checkout (a package such
#: as clubs.templatetags, new since), and Django would load it against the old models.
ONLY_THIS_TREE = (
    "import runpy, sys; "
    "sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in getattr(f, '__module__', '')]; "
    "sys.path_hooks[:] = [h for h in sys.path_hooks if '__editable__' not in getattr(h, '__module__', '')]; "
    "sys.path_importer_cache.clear(); sys.argv = sys.argv[1:]; "
    "runpy.run_path('manage.py', run_name='__main__')"
)


def manage(tree: Path, env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` of the code in ``tree`` (a checkout, or the release before's) on ``env``'s
    database; its output, or the test fails with it."""
    done = subprocess.run([sys.executable, "-c", ONLY_THIS_TREE, "manage.py", *args], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"manage.py {' '.join(args)} in {tree}:\n{done.stdout}\n{done.stderr}"
    return done.stdout
