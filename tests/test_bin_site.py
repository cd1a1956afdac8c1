"""`bin/site` stopped with SIGTERM (as a service manager or `kill` stops it, not Ctrl-C from its
terminal) leaves no process behind: web server, live-table move workers, Celery workers (the strong
bots' among them) and beat, the embedded Redis, and no pid file.

The site runs for real from its own var directory (SQLite, embedded Redis) on free ports, and a
player's socket is opened first so that the move worker process exists when the signal comes.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.setdefault(ppid, []).append(int(entry.name))
    return out


def _descendants(pid: int) -> set[int]:
    children, found, todo = _children(), set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sit_at_a_table(base: str) -> tuple[str, str]:
    """Play now as a guest: (the table's socket path, the session cookie header)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/tables/", timeout=30).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    request = urllib.request.Request(  # noqa: S310 - our own http://127.0.0.1 site
        f"{base}/tables/play-now/", data=urllib.parse.urlencode({"csrfmiddlewaretoken": csrf}).encode(),
        headers={"Referer": f"{base}/tables/"},
    )
    with opener.open(request, timeout=30) as response:
        table_id = re.search(r"/tables/(\d+)/", response.geturl()).group(1)
    cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
    return f"/ws/table/{table_id}/", cookies


def test_sigterm_stops_everything_the_site_started(tmp_path):
    port, redis_port = _free_port(), _free_port()
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "BILKA_RUN_ID"}}
    env.update(PORT=str(port), BILKA_REDIS_PORT=str(redis_port), BILKA_VAR_DIR=str(var),
               DJANGO_SETTINGS_MODULE="config.settings.dev", PYTHONUNBUFFERED="1")
    log_path = tmp_path / "site.log"
    # bin/site starts as from a terminal, with SIGTERM and SIGINT not ignored: a shell started with a
    # signal ignored cannot trap it, and would never stop on it (this process may have been told to
    # ignore them by an earlier test in it).
    kept = {sig: signal.signal(sig, signal.SIG_DFL) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with log_path.open("w") as log:
            site = subprocess.Popen(  # noqa: S603 - fixed command line
                [str(REPO_ROOT / "bin" / "site")], cwd=REPO_ROOT, env=env, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 240
        while "Bilka runs on" not in log_path.read_text(errors="replace"):
            assert site.poll() is None, log_path.read_text(errors="replace")
            assert time.monotonic() < deadline, "bin/site did not start in time"
            time.sleep(0.5)
        base = f"http://127.0.0.1:{port}"
        path, cookies = _sit_at_a_table(base)
        with connect(f"ws://127.0.0.1:{port}{path}", additional_headers={"Cookie": cookies, "Origin": base},
                     open_timeout=60) as ws:
            ws.recv(timeout=60)  # the first frame: the socket is a player's
            deadline = time.monotonic() + 60
            while not any("multiprocessing.spawn" in _cmdline(p) for p in _descendants(site.pid)):
                assert time.monotonic() < deadline, "no move worker process was started"
                time.sleep(0.5)
            seen = _descendants(site.pid)
            redis_pid = int((var / "redis.pid").read_text())
            seen.add(redis_pid)
            groups = {os.getpgid(p) for p in seen if _alive(p)}
            assert any("celery" in _cmdline(p) and " beat" in _cmdline(p) for p in seen)
            assert any("celery" in _cmdline(p) and " worker" in _cmdline(p) for p in seen)
            # the strong bots' worker, on their queue only
            assert any("celery" in _cmdline(p) and "-Q bots" in _cmdline(p) for p in seen)
            site.send_signal(signal.SIGTERM)
            # Its Celery workers take 5-10 s to stop on an idle machine; bin/site waits for all its
            # processes together at most 30 s, then their groups 5 s and Redis 5 s, killing what is left.
            site.wait(timeout=90)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(_alive(p) for p in seen):
            time.sleep(0.2)
        left = {p: _cmdline(p) for p in seen if _alive(p)}
        assert not left, f"still running after SIGTERM: {left}"
        assert not [g for g in groups if _group_alive(g)], "a process group of the site is still there"
        assert not list(var.glob("*.pid")), "a pid file was left behind"
        # what each process started ends with it (the move workers with their server), unkilled
        assert "did not stop in 5 s" not in log_path.read_text(errors="replace")
    finally:
        if site.poll() is None:
            site.kill()
        for p in seen:  # what a failing run left behind
            if _alive(p):
                os.kill(p, signal.SIGKILL)
