"""Checks of the site as a browser meets it through nginx: pages, redirects, static files, websockets
across server processes, and a server process stopped under open sockets (deploy/try-behind-nginx).

Run from the checkout with the site's environment (the broadcast and the look-ups run manage.py).
Prints what it saw, one line a check, and exits non-zero at the first check that fails.

    python deploy/behind_nginx_check.py pages|sockets|restart --https URL --http URL --cafile PEM
        [--direct URL ...] [--stop-pid PID] [--path /static/...]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
FOREIGN_ORIGIN = "https://evil.example"


class CheckFailed(Exception):
    """A check did not see what the site should do."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)
    print(f"  ok  {what}", flush=True)


def fetch(url: str, tls: ssl.SSLContext, headers: dict[str, str] | None = None) -> Answer:
    """One GET, redirects not followed (a redirect is what some checks look for)."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, context=tls, timeout=15)
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15)
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {})
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


def manage(code: str) -> str:
    """Run `code` in `manage.py shell` with this process's environment (the site's settings)."""
    result = subprocess.run(  # noqa: S603 - this interpreter and the checkout's manage.py
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    if result.returncode != 0:
        raise CheckFailed(f"manage.py shell failed: {result.stderr.strip()[-1000:]}")
    return result.stdout.strip()


def check_pages(https: str, http_url: str, tls: ssl.SSLContext, direct: list[str]) -> None:
    print("pages through nginx", flush=True)
    for path in ("/", "/tables/", "/archive/", "/tournaments/", "/ratings/"):
        answer = fetch(https + path, tls)
        expect(answer.status == 200, f"GET {path} over HTTPS: {answer.status}")
    slug = manage("from tournaments.models import Tournament; "
                  "print(Tournament.objects.order_by('pk').values_list('slug', flat=True).first() or '')")
    if slug:
        answer = fetch(f"{https}/t/{slug}/standings/", tls)
        expect(answer.status == 200, f"GET /t/{slug}/standings/ over HTTPS: {answer.status}")

    answer = fetch(https + "/archive/", tls)
    hsts = answer.headers.get("Strict-Transport-Security", "")
    expect("max-age=" in hsts, f"Django saw https (X-Forwarded-Proto): Strict-Transport-Security {hsts!r}")
    cookies = answer.headers.get_all("Set-Cookie") or []
    csrf = next((c for c in cookies if c.startswith("csrftoken=")), "")
    expect("Secure" in csrf, "the CSRF cookie is marked Secure")

    redirect = fetch(http_url + "/archive/?page=2", tls)
    expect(redirect.status == 301 and redirect.headers.get("Location") == f"{https}/archive/?page=2",
           f"plain HTTP redirects to HTTPS: {redirect.status} -> {redirect.headers.get('Location')}")

    for base, how in ((https, "HTTPS"), (http_url, "plain HTTP from this machine")):
        answer = fetch(base + "/health/?format=json", tls)
        report = json.loads(answer.body)
        states = {name: check["status"] for name, check in report["checks"].items()}
        expect(answer.status == 200 and report["status"] == "ok",
               f"/health/ over {how}: {answer.status} {states}")

    for process in direct:  # what a monitor asks each process, past nginx
        answer = fetch(process + "/health/?format=json", tls, {"Host": urlsplit(https).hostname or ""})
        expect(answer.status == 200, f"/health/ of the process at {process}, past nginx: {answer.status}")

    page = fetch(https + "/", tls).body.decode()
    found = re.search(r'href="(/static/[^"]+\.css)"', page)
    if found is None:
        raise CheckFailed("the home page links no stylesheet under /static/")
    static = fetch(https + found[1], tls, {"Accept-Encoding": "gzip"})
    cache = static.headers.get("Cache-Control", "")
    expect(static.status == 200 and "immutable" in cache,
           f"GET {found[1]} (WhiteNoise): {static.status}, Cache-Control {cache!r}, "
           f"Content-Encoding {static.headers.get('Content-Encoding')!r}")


async def lobby(wss: str, tls: ssl.SSLContext, origin: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A lobby socket and its first frame (the list of open tables)."""
    socket = await connect(f"{wss}/ws/lobby/", origin=origin, ssl=tls, open_timeout=10)
    first = json.loads(await asyncio.wait_for(socket.recv(), 10))
    return socket, first


async def refused(wss: str, tls: ssl.SSLContext, origin: str | None) -> int:
    try:
        socket = await connect(f"{wss}/ws/lobby/", origin=origin, ssl=tls, open_timeout=10)
    except InvalidStatus as exc:
        return exc.response.status_code
    await socket.close()
    return 101


def broadcast_lobby() -> None:
    """Tell the lobby's sockets the open tables changed, from a process of its own: the message
    reaches both server processes only through Redis (the channel layer)."""
    manage("from django.db import transaction\n"
           "from gameplay.broadcast import lobby_changed\n"
           "with transaction.atomic():\n    lobby_changed()")


async def next_lobby(socket: ClientConnection) -> dict[str, Any]:
    frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
    if frame.get("type") != "lobby":
        raise CheckFailed(f"expected a lobby frame, got {frame}")
    return frame


async def check_sockets(https: str, tls: ssl.SSLContext) -> None:
    print("websockets through nginx", flush=True)
    wss = "wss://" + https.removeprefix("https://")
    first, hello1 = await lobby(wss, tls, https)
    second, hello2 = await lobby(wss, tls, https)
    expect(hello1["type"] == hello2["type"] == "lobby", "two lobby sockets opened with the site's Origin")
    broadcast_lobby()
    got = await asyncio.gather(next_lobby(first), next_lobby(second))
    expect(len(got) == 2, "both got the lobby update sent by a third process (manage.py shell)")
    await first.close()
    await second.close()

    table_id = manage("from gameplay.models import Table; print(Table.objects.filter(public=True)"
                      ".order_by('pk').values_list('pk', flat=True).first())")
    async with connect(f"{wss}/ws/table/{table_id}/", origin=https, ssl=tls, open_timeout=10) as table:
        await table.send(json.dumps({"type": "sync", "last": -1}))
        frame = json.loads(await asyncio.wait_for(table.recv(), 10))
        expect(frame.get("type") == "snapshot",
               f"a spectator's table socket /ws/table/{table_id}/ got a snapshot")

    expect(await refused(wss, tls, FOREIGN_ORIGIN) == 403, f"a socket from {FOREIGN_ORIGIN} is refused (403)")
    expect(await refused(wss, tls, None) == 403, "a socket without an Origin header is refused (403)")


async def check_restart(https: str, tls: ssl.SSLContext, stop_pid: int) -> None:
    """Stop one server process (SIGTERM, as systemd does) with a socket open on each: the one on it is
    closed with 1012 and reconnects to the other, the other stays, and pages never fail meanwhile."""
    print(f"server process {stop_pid} stopped under open sockets", flush=True)
    wss = "wss://" + https.removeprefix("https://")
    sockets = [(await lobby(wss, tls, https))[0] for _ in range(2)]
    statuses: list[int] = []
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            try:
                statuses.append(fetch(https + "/archive/", tls).status)
            except OSError:
                statuses.append(0)
            time.sleep(0.05)

    asking = threading.Thread(target=keep_asking)
    asking.start()
    time.sleep(0.5)
    started = time.monotonic()
    os.kill(stop_pid, signal.SIGTERM)

    async def outcome(socket: ClientConnection) -> tuple[int | None, ClientConnection]:
        """(the close code, or None while it stays open; the socket, reconnected if it closed)."""
        try:
            await asyncio.wait_for(socket.recv(), 5)
        except TimeoutError:
            return None, socket
        except ConnectionClosed as exc:
            closed_after = time.monotonic() - started
            again, hello = await lobby(wss, tls, https)
            reopened_after = time.monotonic() - started
            expect(hello["type"] == "lobby", f"a socket closed {closed_after:.2f} s after SIGTERM; open "
                   f"again through nginx {reopened_after:.2f} s after SIGTERM")
            return (exc.rcvd.code if exc.rcvd else -1), again
        return None, socket  # a frame: still open

    results = await asyncio.gather(*(outcome(socket) for socket in sockets))
    codes = [code for code, _ in results]
    expect(sorted(codes, key=str) == [1012, None],
           f"the socket on the stopped process was closed with 1012, the other stayed: {codes}")
    broadcast_lobby()
    await asyncio.gather(*(next_lobby(socket) for _, socket in results))
    expect(True, "the one that stayed and the one that reconnected both got the next lobby update")
    time.sleep(1.0)
    stop.set()
    asking.join()
    failed = [status for status in statuses if status != 200]
    expect(not failed, f"{len(statuses)} GET /archive/ during the stop: all 200 (failures: {failed})")
    for _, socket in results:
        await socket.close()


def check_new_static(https: str, tls: ssl.SSLContext, path: str, old: str) -> None:
    """A file collectstatic wrote after `old` started: `old` does not know it, nginx finds it anyway."""
    print("a static file newer than a process, as during a rolling restart", flush=True)
    as_nginx_asks = {"Host": urlsplit(https).hostname or "", "X-Forwarded-Proto": "https"}
    status = fetch(old + path, tls, as_nginx_asks).status
    expect(status == 404, f"the process at {old}, started before the file was written, answers {status}")
    statuses = [fetch(https + path, tls).status for _ in range(10)]
    expect(statuses == [200] * 10, f"through nginx (next process on 404) 10 GET {path}: {statuses}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phase", choices=["pages", "sockets", "restart", "new-static"])
    parser.add_argument("--https", required=True, help="e.g. https://localhost:8443")
    parser.add_argument("--http", required=True, help="e.g. http://localhost:8480")
    parser.add_argument("--cafile", required=True, help="the certificate nginx serves (self-signed)")
    parser.add_argument("--stop-pid", type=int, help="restart: the server process to stop")
    parser.add_argument("--direct", action="append", default=[],
                        help="pages: a process's own address, e.g. http://127.0.0.1:8101; "
                             "new-static: the process started before the file")
    parser.add_argument("--path", help="new-static: the file's URL path")
    args = parser.parse_args()
    tls = ssl.create_default_context(cafile=args.cafile)
    try:
        if args.phase == "pages":
            check_pages(args.https, args.http, tls, args.direct)
        elif args.phase == "new-static":
            check_new_static(args.https, tls, args.path, args.direct[0])
        elif args.phase == "sockets":
            asyncio.run(check_sockets(args.https, tls))
        else:
            if not args.stop_pid:
                parser.error("restart needs --stop-pid")
            asyncio.run(check_restart(args.https, tls, args.stop_pid))
    except CheckFailed as exc:
        print(f"  FAILED  {exc}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
