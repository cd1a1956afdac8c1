"""`BENCH_QUERIES=dir`: each process of a bench.ws.load run counts the SQL statements it sends, by kind.

bench/ws/settings.py installs the counter when the variable is set, so every process that loads the
bench settings counts its own: the server processes, their move workers, the Celery worker and its
pool. The count is taken where Django hands a statement to the driver (`CursorWrapper._execute`),
by its first word (SELECT, INSERT, UPDATE, DELETE, SAVEPOINT, …), plus the transactions: each
`commit()` and each statement run outside an atomic block, in autocommit, which is a transaction
of its own. What bypasses Django's cursor is not counted: the `SELECT 1` of Django's connection
health check (`CONN_HEALTH_CHECKS`, on in the Celery worker, config/celery.py), which runs before
each task on a kept connection, is a transaction PostgreSQL counts (`pg_stat_database`) and this
does not. A thread of each process writes its counts to `dir/<pid>.json` twice a second (with
the process's role), and `read` sums them by role. A counter and a dictionary a statement: no
measurable cost beside a database round trip, but a run that counts is a run of its own
(`--costs`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

_counts: Counter[str] = Counter()
_state: dict[str, object] = {"pid": None, "dir": None}
_lock = threading.Lock()


def _role() -> str:
    argv = " ".join(sys.argv)
    if "celery" in argv:
        return "celery"
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return "move worker"
    return "server"


def _writer(directory: Path, pid: int) -> None:
    written: dict[str, int] = {}
    role = _role()
    while True:
        time.sleep(0.5)
        with _lock:
            now = dict(_counts)
        if now != written:
            tmp = directory / f".{pid}.tmp"
            tmp.write_text(json.dumps({"role": role, "counts": now}))
            tmp.replace(directory / f"{pid}.json")
            written = now


def _count(kind: str, own_transaction: bool) -> None:
    pid = os.getpid()
    if _state["pid"] != pid:  # the first statement of this process (a forked child starts anew)
        with _lock:
            _counts.clear()
        _state["pid"] = pid
        threading.Thread(target=_writer, args=(_state["dir"], pid), daemon=True).start()
    with _lock:
        _counts[kind] += 1
        if own_transaction:
            _counts["transactions"] += 1


KINDS = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "SAVEPOINT", "RELEASE", "ROLLBACK"})


def _kind(sql: str) -> str:
    word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    return word if word in KINDS else "other"


def install(directory: str) -> None:
    """Count every statement and commit of this process (and of the children it forks)."""
    from django.db.backends import utils
    from django.db.backends.base import base

    _state["dir"] = Path(directory)
    execute, executemany = utils.CursorWrapper._execute, utils.CursorWrapper._executemany  # noqa: SLF001
    commit = base.BaseDatabaseWrapper.commit

    def counted_execute(self, sql, params, *ignored):  # noqa: ANN001, ANN202
        _count(_kind(sql), own_transaction=self.db.get_autocommit() and not self.db.in_atomic_block)
        return execute(self, sql, params, *ignored)

    def counted_executemany(self, sql, param_list, *ignored):  # noqa: ANN001, ANN202
        _count(_kind(sql), own_transaction=self.db.get_autocommit() and not self.db.in_atomic_block)
        return executemany(self, sql, param_list, *ignored)

    def counted_commit(self):  # noqa: ANN001, ANN202
        _count("COMMIT", own_transaction=True)
        return commit(self)

    utils.CursorWrapper._execute = counted_execute  # noqa: SLF001
    utils.CursorWrapper._executemany = counted_executemany  # noqa: SLF001
    base.BaseDatabaseWrapper.commit = counted_commit


def read(directory: str | Path) -> dict[str, Counter[str]]:
    """Every process's counts so far, summed by role."""
    out: dict[str, Counter[str]] = {}
    for path in Path(directory).glob("*.json"):
        try:
            got = json.loads(path.read_text())
        except (OSError, ValueError):
            continue  # being replaced
        out.setdefault(got["role"], Counter()).update(got["counts"])
    return out
