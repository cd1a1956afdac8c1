"""A frame over the site's size cap, through the ASGI server the site runs: uvicorn with the flags of
`bin/site` (and of the systemd unit, which must give the same). The server's own limit sits above
the site's, so that the site, not the server, answers: the player reads "too large" in his language,
then the socket is closed with 1009; only beyond the server's limit does the server close it unread."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from tests.communicator import CEILING
from tests.conftest import REPO_ROOT, _database_url
from tests.processes import free_port, uvicorn

pytestmark = pytest.mark.django_db(transaction=True)

TOO_LARGE_RU = "Это сообщение слишком длинное для стола."
#: Only a server that cannot start takes this long (it imports Django and the site first).
SERVER_START_CEILING = 120


def _flag(text: str, name: str) -> str:
    """The value of `name` on the command lines of a script or unit (comments aside)."""
    commands = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    found = re.findall(rf"{name}[ =](\S+)", commands)
    assert len(set(found)) == 1, f"{name}: {found}"
    return found[0]


def served_flags() -> dict[str, str]:
    """The websocket flags `bin/site` starts uvicorn with; the production unit must say the same."""
    site = (REPO_ROOT / "bin" / "site").read_text()
    unit = (REPO_ROOT / "deploy" / "systemd" / "bilka-asgi@.service").read_text()
    flags = {name: _flag(site, name) for name in ("--ws", "--ws-max-size")}
    assert flags == {name: _flag(unit, name) for name in flags}, "bin/site and the unit disagree"
    return flags


def test_the_servers_frame_limit_is_above_the_sites():
    limit = int(served_flags()["--ws-max-size"])
    assert limit > settings.GAMEPLAY_FRAME_MAX_BYTES
    assert limit >= 10 * 100_000  # a 100 KB frame, ten times over, still reaches the site


@pytest.fixture
def uvicorn_process(django_db_setup):
    """uvicorn with bin/site's websocket flags on a free port, on the test database."""
    flags = served_flags()
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "BILKA_RUN_ID": settings.RUN_ID,
        "PYTHONUNBUFFERED": "1",
    }
    log = Path(REPO_ROOT / "var" / f"uvicorn-oversize-{port}.log")
    log.parent.mkdir(exist_ok=True)
    args = ["config.asgi:application", "--host", "127.0.0.1", "--port", str(port), "--ws", flags["--ws"],
            "--ws-max-size", flags["--ws-max-size"], "--lifespan", "off"]
    with uvicorn(args, port=port, env=env, log=log, start_timeout=SERVER_START_CEILING, stop_timeout=CEILING):
        yield port, int(flags["--ws-max-size"])


def _cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; django_language=ru"


async def _answer_to(port: int, table_id: int, cookie: str, frame: str) -> tuple[list[dict], int]:
    """Every frame the socket sends after `frame` (presence and snapshots aside) until it is closed,
    and the close code."""
    import json

    url = f"ws://127.0.0.1:{port}/ws/table/{table_id}/"
    headers = {"Origin": "http://127.0.0.1:8000", "Cookie": cookie}
    told = []
    async with websockets.connect(url, additional_headers=headers, max_size=None) as ws:
        await ws.send(frame)
        try:
            while True:
                got = json.loads(await asyncio.wait_for(ws.recv(), CEILING))
                if got["type"] not in ("presence", "snapshot"):
                    told.append(got)
        except websockets.ConnectionClosed as closed:
            return told, closed.rcvd.code if closed.rcvd else -1


async def test_a_100_kb_frame_is_answered_too_large_in_the_players_language_then_closed(
    table4, people, uvicorn_process
):
    port, server_limit = uvicorn_process
    cookie = await database_sync_to_async(_cookie_for)(people[0])
    frame = '{"type": "move", "action": "JC", "n": 1, "pad": "' + "x" * 100_000 + '"}'

    told, code = await _answer_to(port, table4.pk, cookie, frame)
    assert told == [{"type": "refused", "id": None, "code": "too_large", "message": TOO_LARGE_RU}]
    assert code == 1009

    # beyond the server's own limit the server closes the socket itself, unread: nothing is said
    told, code = await _answer_to(port, table4.pk, cookie, "x" * (server_limit + 1))
    assert told == [] and code == 1009
