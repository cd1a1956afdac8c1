"""Moves from table sockets run in worker processes of their own (`GAMEPLAY_MOVE_PROCESSES`).

A move is a few database round trips with Python work between them. In a thread of the server
process, every round trip ends with the thread waiting for the GIL, which the event loop relaying
frames to 2,000 sockets holds in slices of up to 5 ms: a 5 ms move took 26 ms under load and the
loop waited for the move's Python work in turn (bench/ws/load.py, BENCH_TRACE). In a process of
its own the move has its own interpreter and the server's loop only relays.

The worker runs `services.play` unchanged (same transaction, row lock, compare-and-set, receipts,
clock task queued on commit, though sent to the broker by a thread of the worker after the move has
returned: `scheduling.send_in_background`). The frames it would broadcast on commit are handed back with the
outcome (`broadcast.collecting`) and the server publishes them, so they leave through the server's
pipelined publisher as before. A worker ignores SIGTERM and SIGINT, which stop the server's whole
group, and ends when its server is gone: uvicorn re-raises the signal once it has shut down
gracefully, so the server dies by it without running its exit handlers (the pool's shutdown).
The worker then finishes the move in hand, sends the tasks it queued, and exits. If a worker dies
mid-move the pool is replaced and the client is told to resend: a move that did commit is
recognised by its move id and not applied twice.
`GAMEPLAY_MOVE_PROCESSES = 0` runs moves in the server's thread pool instead.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None
_lock = threading.Lock()
#: Held by a worker while it runs a move: it does not exit mid-move when its server is gone.
_moving = threading.Lock()


def enabled() -> bool:
    return int(getattr(settings, "GAMEPLAY_MOVE_PROCESSES", 0) or 0) > 0


def _init_worker(settings_module: str, databases: dict[str, Any], server: int) -> None:
    # A worker ends with its server, not by a signal: systemd stops a server's unit with SIGTERM to
    # every process of its group (KillMode=control-group), and a worker that died then, between its
    # move's commit and handing the move back, lost the move's frames and its next task (a bot's
    # move, a clock): the table stood still. Now the move in hand is finished and handed back while
    # the server shuts down gracefully, and the worker exits once the server is gone
    # (`_end_with_the_server`).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django

    django.setup()
    from django.conf import settings as worker_settings

    # The server's database settings as they are at run time (a test database has its own name).
    for alias, config in databases.items():
        worker_settings.DATABASES[alias].update(config)
    from gameplay.services import scheduling

    # a move's frames go back to the server without waiting for its clock task to reach the broker
    scheduling.send_in_background()
    from config import collector

    # every move would wait out the collector's full passes over Django's own objects (~90 ms)
    collector.settle()
    threading.Thread(target=_end_with_the_server, args=(server,), name="end-with-server", daemon=True).start()


def _end_with_the_server(server: int) -> None:
    """In a worker: exit once the server process that started it is gone (the worker is then
    some other process's child), after the move in hand and the tasks it queued.

    uvicorn, stopped by SIGTERM, shuts down gracefully and then raises the signal again at
    itself, so the server dies without running its exit handlers, the pool's shutdown among
    them; a server that is killed runs none either. A worker that ignores SIGTERM would stay on
    for good (bin/site then waited 5 s and killed it; systemd, the unit's TimeoutStopSec)."""
    while os.getppid() == server:
        time.sleep(0.5)
    from gameplay.services import scheduling

    _moving.acquire()  # never released: the process ends here
    scheduling.send_queued()
    os._exit(0)


def pool() -> ProcessPoolExecutor:
    """This server process's pool of move workers, started on first use (spawned, not forked:
    the server has an event loop and threads running)."""
    global _pool, _pool_pid  # noqa: PLW0603 - one pool per process
    with _lock:
        if _pool is None or _pool_pid != os.getpid():
            databases = {alias: {"NAME": cfg["NAME"], "HOST": cfg.get("HOST", ""),
                                 "PORT": cfg.get("PORT", ""), "USER": cfg.get("USER", "")}
                         for alias, cfg in settings.DATABASES.items()}
            _pool = ProcessPoolExecutor(
                max_workers=int(settings.GAMEPLAY_MOVE_PROCESSES),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.dev"), databases,
                          os.getpid()),
            )
            _pool_pid = os.getpid()
            for _ in range(int(settings.GAMEPLAY_MOVE_PROCESSES)):
                _pool.submit(_warm)  # spawn and set up the workers now, not on the first moves
        return _pool


def _warm() -> None:
    from django.db import connection

    connection.ensure_connection()


def replace_broken(broken: ProcessPoolExecutor) -> None:
    """Drop a pool whose worker died; the next move starts a new one."""
    global _pool  # noqa: PLW0603
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def run(name: str, kwargs: dict[str, Any], lang: str | None) -> tuple[dict[str, Any], list[Any]]:
    """In a worker: call `services.<name>(**kwargs)`; (its outcome as a dict, the frames to send)."""
    from django.db import connection
    from django.utils import translation

    from gameplay import services
    from gameplay.tables import broadcast

    # The worker keeps its database connection from move to move (opening one per move cost more
    # than the move); a broken one is dropped and the next move opens a new one.
    with _moving:
        if connection.connection is not None and connection.errors_occurred and not connection.is_usable():
            connection.close()
        try:
            with translation.override(lang), broadcast.collecting() as outbox:
                outcome = getattr(services, name)(**kwargs)
        finally:
            if connection.errors_occurred and not connection.is_usable():
                connection.close()
    return outcome.__dict__, outbox


__all__ = ["BrokenProcessPool", "enabled", "pool", "replace_broken", "run"]
