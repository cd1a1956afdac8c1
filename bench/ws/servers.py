"""The processes a run of bench.ws.load starts and measures: the server, its move workers, the Celery worker.

The server runs with bench/ws/settings.py; its log goes to a file (`BENCH_SERVER_LOG`). CPU and
memory are read with psutil: the server process and, apart, its move worker processes (spawned
multiprocessing children, which hold no sockets).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_LOG = Path(os.environ.get("BENCH_SERVER_LOG", "/tmp/bilka-bench-server.log"))  # noqa: S108


def start_server(args, port: int) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.ws.settings", "BENCH_LAYER": args.layer,
           "PYTHONUNBUFFERED": "1",
           "BILKA_WS_ORIGINS": f"http://127.0.0.1:{port}"}  # the generator's Origin, as the site's pages
    if args.server == "uvicorn":
        cmd = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--ws", os.environ.get("BENCH_WS", "websockets-sansio"),
               "--lifespan", "off", "--log-level", "warning",
               "--no-access-log"]
        if args.processes > 1:
            cmd += ["--workers", str(args.processes)]
    else:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
               "config.asgi:application"]
    if os.environ.get("BENCH_TRACE"):  # stage stamps of every move (bench/ws/trace.py)
        cmd[cmd.index("config.asgi:application")] = "bench.ws.trace:application"
        Path(os.environ["BENCH_TRACE"]).write_text("")
    # The server's log goes to a file: a pipe nobody reads fills at 64 KiB and then stops the server
    # at its next log line (sockets closed by the flood limits log their goodbyes).
    log = SERVER_LOG.open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)  # noqa: S603
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: {SERVER_LOG.read_text()[-2000:]}") from None
            time.sleep(0.2)


def start_worker(args) -> subprocess.Popen | None:
    """A Celery worker for the move-clock tasks every move queues (as bin/site runs it), or None."""
    if not args.tasks:
        return None
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.ws.settings", "BENCH_LAYER": args.layer}
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"],  # noqa: S603
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def rss(proc_pid: int) -> int:
    """Resident memory of the server processes that hold sockets (uvicorn's workers, not the
    move worker processes, which hold none and are counted apart: `helpers_rss`)."""
    import psutil

    p = psutil.Process(proc_pid)
    procs = [p, *(c for c in p.children(recursive=True) if not _is_helper(c))]
    return sum(q.memory_info().rss for q in procs)


def _is_helper(proc) -> bool:  # noqa: ANN001
    """A move worker (multiprocessing spawn child) or the spawn resource tracker."""
    try:
        return any("multiprocessing" in part for part in proc.cmdline())
    except Exception:  # noqa: BLE001 - gone
        return True


def helpers_rss(proc_pid: int) -> int:
    import psutil

    children = psutil.Process(proc_pid).children(recursive=True)
    return sum(c.memory_info().rss for c in children if _is_helper(c))



def cpu(pid: int) -> float:
    import psutil

    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def cpu_tree(proc: subprocess.Popen | None) -> float:
    """CPU seconds of a process and its children (the Celery worker's pool), 0 without one."""
    if proc is None:
        return 0.0
    import psutil

    p = psutil.Process(proc.pid)
    total = 0.0
    for q in [p, *p.children(recursive=True)]:
        try:
            t = q.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def descendants(pid: int) -> list:
    try:
        import psutil

        return psutil.Process(pid).children(recursive=True)
    except Exception:  # noqa: BLE001 - no psutil, or the server is gone
        return []
