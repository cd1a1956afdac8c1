"""Backups of the site's database: a compressed dump named by database and time, the newest N kept.

PostgreSQL is dumped with ``pg_dump --format=custom`` (compressed, and ``pg_restore`` can restore
it whole or pick tables from it); SQLite, the development default, is copied with its online backup
API (a consistent copy while the site writes) and gzipped. Either way the dump is written under a
``.partial`` name and renamed when complete, so a dump cut short (a full disk, a killed worker) is
never taken for a backup, and the old ones are pruned only after a new one exists.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.db.backends.postgresql.client import DatabaseClient

POSTGRESQL = "django.db.backends.postgresql"
SQLITE = "django.db.backends.sqlite3"
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"  # UTC: sorts as text, and no clock change makes two nights one name
NAME = re.compile(r"^(?P<label>.+)-(?P<stamp>\d{8}T\d{6}Z)(?P<suffix>\.dump|\.sqlite3\.gz)$")
PARTIAL = ".partial"
# A .partial this old belongs to no dump still being written (a killed worker left it): removed.
STALE_PARTIAL_SECONDS = 24 * 3600


class BackupError(Exception):
    """No backup was made; the message tells the operator why."""


@dataclass(frozen=True)
class Backup:
    """A dump just written, and the old ones removed to keep the newest `keep`."""

    path: Path
    size: int
    seconds: float
    removed: tuple[Path, ...]

    def as_dict(self) -> dict[str, Any]:
        """For a Celery result and the worker's log: plain values only."""
        return {
            "path": str(self.path),
            "bytes": self.size,
            "seconds": round(self.seconds, 2),
            "removed": [str(path) for path in self.removed],
        }


def back_up(database: dict[str, Any], folder: Path, *, keep: int, now: datetime | None = None) -> Backup:
    """Dump `database` (a ``settings.DATABASES`` entry) into `folder`, then remove this database's
    dumps there beyond the newest `keep`. Files of other databases, and any other file, stay."""
    if keep < 1:
        raise BackupError(f"keep must be at least 1 (got {keep}): a backup that removes itself is none")
    engine = database.get("ENGINE", "")
    if engine == POSTGRESQL:
        suffix, write = ".dump", _dump_postgresql
    elif engine == SQLITE:
        suffix, write = ".sqlite3.gz", _copy_sqlite
    else:
        raise BackupError(f"no backup for the database engine {engine!r}: only PostgreSQL and SQLite")
    label = label_of(database)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime(STAMP_FORMAT)
    target = folder / f"{label}-{stamp}{suffix}"
    if target.exists():
        raise BackupError(f"{target} exists already: one backup of a database per second")
    partial = target.with_name(target.name + PARTIAL)
    started = time.monotonic()
    try:
        write(database, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    seconds = time.monotonic() - started
    return Backup(target, target.stat().st_size, seconds, prune(folder, label, keep=keep))


def label_of(database: dict[str, Any]) -> str:
    """The name a database's dumps start with: its PostgreSQL name, or its SQLite file's stem."""
    name = str(database.get("NAME") or "")
    if database.get("ENGINE") == SQLITE:
        name = Path(name).name.removesuffix(".sqlite3")
    label = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if not label:
        raise BackupError("the database has no name to label its dumps with")
    return label


def dumps_of(folder: Path, label: str) -> list[Path]:
    """The dumps of the database `label` in `folder`, newest first."""
    found = []
    for path in folder.iterdir() if folder.is_dir() else ():
        match = NAME.match(path.name)
        if match and match["label"] == label and path.is_file():
            found.append((match["stamp"], path))
    return [path for _, path in sorted(found, reverse=True)]


def prune(folder: Path, label: str, *, keep: int) -> tuple[Path, ...]:
    """Remove the dumps of `label` beyond the newest `keep`, and its stale unfinished ones."""
    removed = dumps_of(folder, label)[keep:]
    cutoff = time.time() - STALE_PARTIAL_SECONDS
    removed += [
        path for path in folder.glob(f"{glob_escape(label)}-*{PARTIAL}") if path.stat().st_mtime < cutoff
    ]
    for path in removed:
        path.unlink(missing_ok=True)
    return tuple(removed)


def glob_escape(text: str) -> str:
    """`text` matched literally by Path.glob (a label may hold none of its wildcards, but be sure)."""
    return re.sub(r"([*?\[])", r"[\1]", text)


def _dump_postgresql(database: dict[str, Any], target: Path) -> None:
    """pg_dump in its custom format, compressed, connected as ``manage.py dbshell`` connects: host,
    port, user and name as arguments; the password, SSL and service options in the child's
    environment, never on its command line, where any user of the machine could read them."""
    options = ["--format=custom", "--compress=6", "--no-password", f"--file={target}"]
    args, child_env = DatabaseClient.settings_to_cmd_args_env({"OPTIONS": {}, **database}, options)
    try:
        result = subprocess.run(  # noqa: S603 - a fixed program; arguments from the site's settings
            ["pg_dump", *args[1:]],  # noqa: S607 - found on PATH, as dbshell finds psql
            env={**os.environ, **(child_env or {})}, capture_output=True, text=True, check=False,
        )
    except FileNotFoundError as exc:
        raise BackupError(
            "pg_dump is not installed: install the PostgreSQL client of the server's major version or newer "
            "(Debian: apt-get install postgresql-client)"
        ) from exc
    if result.returncode != 0:
        raise BackupError(f"pg_dump failed (exit {result.returncode}): {result.stderr.strip()[-2000:]}")


def _copy_sqlite(database: dict[str, Any], target: Path) -> None:
    """SQLite's online backup API: a consistent copy even while the site writes the file (a plain
    file copy of a database in WAL mode can miss what is still in the WAL), then gzipped."""
    source_path = Path(database["NAME"])
    if not source_path.is_file():
        raise BackupError(f"no SQLite database at {source_path}")
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".sqlite-copy-") as scratch:
        copy_path = Path(scratch) / "copy.sqlite3"
        source = sqlite3.connect(source_path)
        copy = sqlite3.connect(copy_path)
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
        with copy_path.open("rb") as plain, gzip.open(target, "wb", compresslevel=6) as packed:
            shutil.copyfileobj(plain, packed)
