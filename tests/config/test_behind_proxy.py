"""Who the site counts: the client's own address, from X-Forwarded-For only when a proxy named in
TRUSTED_PROXIES sent it, for the sign-in limits, the API's allowance and the table sockets alike;
and the ASGI server never believes the header on the site's behalf."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.conftest import _database_url
from tests.processes import free_port, uvicorn

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_START_CEILING = 90.0  # seconds: a loaded machine imports Django slowly

# A request as nginx hands it on: REMOTE_ADDR is the proxy, the client is in X-Forwarded-For.
WHO_IS_COUNTED = """
from django.test import RequestFactory
from api.throttles import PerAddress
from clubs.adapter import AccountAdapter
from axes.helpers import get_client_ip_address
from gameplay.tables.flood import viewer_of
request = RequestFactory().get("/api/v1/clubs/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR={hops!r})
scope = {{"client": ("127.0.0.1", 1), "headers": [(b"x-forwarded-for", {hops!r}.encode())], "session": None}}
print(PerAddress().get_ident(request), get_client_ip_address(request))
print(AccountAdapter().get_client_ip(request), viewer_of(scope)[0][2:])
"""


def _production(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXIES", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return subprocess.run(
        [sys.executable, "-c", "import django\ndjango.setup()\n" + code],  # as the ASGI app starts
        cwd=REPO_ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "bilka.example.org",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/bilka",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def counted_addresses(hops: str, **env: str) -> set[str]:
    result = _production(WHO_IS_COUNTED.format(hops=hops), **env)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_behind_nginx_on_this_machine_every_limit_counts_the_client() -> None:
    assert counted_addresses("10.9.9.9, 203.0.113.7", TRUSTED_PROXIES="127.0.0.1,::1") == {"203.0.113.7"}


def test_behind_a_balancer_and_nginx_every_limit_counts_the_address_the_balancer_saw() -> None:
    # the client wrote the first entry himself, the balancer added his address, nginx the balancer's
    assert counted_addresses("6.6.6.6, 198.51.100.9, 10.0.0.1", TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8") == {
        "198.51.100.9"
    }


def test_with_no_proxy_named_nobody_is_believed() -> None:
    assert counted_addresses("203.0.113.7") == {"127.0.0.1"}


def test_the_old_proxy_count_and_a_wrong_entry_stop_the_site_with_a_clear_error() -> None:
    old = _production("print('started')", TRUSTED_PROXY_COUNT="1")
    assert old.returncode != 0 and "TRUSTED_PROXY_COUNT is no longer read" in old.stderr
    wrong = _production("print('started')", TRUSTED_PROXIES="127.0.0.1,nginx.local")
    assert (
        wrong.returncode != 0
        and "TRUSTED_PROXIES: 'nginx.local' is not an address or a network" in wrong.stderr
    )


def _uvicorn_commands() -> dict[str, str]:
    """Every command line that starts the site under uvicorn, by where it is written."""
    site = (REPO_ROOT / "bin" / "site").read_text()
    unit = (REPO_ROOT / "deploy" / "systemd" / "bilka-asgi@.service").read_text()
    return {
        "bin/site": re.search(r'start web "\$VENV/bin/uvicorn" ((?:.*\\\n)*.*)', site).group(1),
        "bilka-asgi@.service": re.search(r"ExecStart=\S+/uvicorn ((?:.*\\\n)*.*)", unit).group(1),
        "bench/ws/servers.py": (REPO_ROOT / "bench" / "ws" / "servers.py").read_text(),
        "bench/web/common.py": (REPO_ROOT / "bench" / "web" / "common.py").read_text(),
    }


def test_uvicorn_never_believes_forwarded_headers_for_the_site() -> None:
    for where, command in _uvicorn_commands().items():
        assert "--no-proxy-headers" in command, where
        assert re.search(r"--proxy-headers|--forwarded-allow-ips", command) is None, where


def test_only_one_module_reads_the_forwarded_header_or_the_peer() -> None:
    """The client's address is decided in clubs/addresses.py; nothing else reads X-Forwarded-For,
    REMOTE_ADDR or a socket's peer (config/visitors.py only copies them into its request's META,
    as Django does, for the API's throttles to read through the same function)."""
    readers = re.compile(r"X_FORWARDED_FOR|REMOTE_ADDR|b\"x-forwarded-for\"|\[\"client\"\]|get\(\"client\"\)")
    allowed = {"clubs/addresses.py", "config/visitors.py"}
    found = set()
    for app in ("api", "archive", "clubs", "config", "gameplay", "ratings", "tournaments"):
        for path in (REPO_ROOT / app).rglob("*.py"):
            relative = path.relative_to(REPO_ROOT).as_posix()
            if "/migrations/" not in relative and readers.search(path.read_text()):
                found.add(relative)
    assert found == allowed


@pytest.fixture
def site_as_bin_site_runs_it(django_db_setup, tmp_path):
    """uvicorn with exactly the flags bin/site gives it, on the test database, trusting no proxy,
    with low limits (from the environment, as a deploy sets them) so a few requests reach them."""
    port = free_port()
    flags = shlex.split(_uvicorn_commands()["bin/site"].replace("\\\n", " ").replace('"$PORT"', str(port)))
    env = {
        **{k: v for k, v in os.environ.items() if k != "TRUSTED_PROXIES"},
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "BILKA_RUN_ID": f"{settings.RUN_ID}-proxy-{secrets.token_hex(4)}",  # counters of its own
        "BILKA_WS_ORIGINS": f"http://127.0.0.1:{port}",
        "API_RATE_PER_ADDRESS": "5/min",
        "GAMEPLAY_FLOOD_VIEWER_BURST": "12",
        "GAMEPLAY_FLOOD_VIEWER_RATE": "0.01",
        "GAMEPLAY_FLOOD_ADDRESS_FACTOR": "1",
        "PYTHONUNBUFFERED": "1",
    }
    with uvicorn(flags, port=port, env=env, log=tmp_path / "uvicorn.log", start_timeout=SERVER_START_CEILING):
        yield f"http://127.0.0.1:{port}"


def _status(opener, request) -> int:
    try:
        with opener.open(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.mark.django_db(transaction=True)
def test_behind_bin_site_a_forged_forwarded_for_changes_nobody(site_as_bin_site_runs_it):
    """As found: behind bin/site a locked-out sign-in succeeded once the request said
    `X-Forwarded-For: 10.9.9.9`, and API requests with a new header each were never throttled;
    a socket without a session could likewise come back as a new address every time."""
    from django.contrib.auth import get_user_model

    from gameplay import services

    base = site_as_bin_site_runs_it
    user = get_user_model().objects.create_user(username="finalist", password="right-pw-x-1")
    table = services.create_table(rules={}, seating="in_order", user=user)

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    assert _status(opener, f"{base}/accounts/login/") == 200
    csrf = next(c.value for c in jar if c.name == "csrftoken")

    def sign_in(password: str, forged: str) -> int:
        data = urllib.parse.urlencode(
            {"login": "finalist", "password": password, "csrfmiddlewaretoken": csrf}
        )
        return _status(
            opener,
            urllib.request.Request(  # noqa: S310 - our own http://127.0.0.1 site
                f"{base}/accounts/login/", data=data.encode(), headers={"X-Forwarded-For": forged}
            ),
        )

    for n in range(5):
        assert sign_in(f"wrong-{n}", forged=f"10.9.9.{n}") in (200, 429)
    assert sign_in("right-pw-x-1", forged="10.9.9.9") == 429

    def api(forged: str) -> int:
        return _status(
            opener,
            urllib.request.Request(  # noqa: S310
                f"{base}/api/v1/clubs/", headers={"X-Forwarded-For": forged}
            ),
        )

    assert [api(f"10.8.{n}.{n}") for n in range(7)] == [200] * 5 + [429] * 2

    socket_url = f"ws://127.0.0.1:{base.rsplit(':', 1)[1]}/ws/table/{table.pk}/"
    answers = []
    for n in range(3):  # a connect costs 5 of the address's 12 tokens and a ping 1, whatever the header says
        with connect(
            socket_url, origin=base, additional_headers={"X-Forwarded-For": f"10.7.{n}.{n}"}, open_timeout=60
        ) as ws:
            try:
                ws.send(json.dumps({"type": "ping"}))
            except ConnectionClosed:  # refused at once: its answer is read below
                pass
            answers.append(json.loads(ws.recv(timeout=60)))
    assert [a["type"] for a in answers] == ["pong", "pong", "refused"]
    assert answers[2]["code"] == "too_fast"
