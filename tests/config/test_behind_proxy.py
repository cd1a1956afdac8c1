"""Behind the proxy, production counts each caller by his own address: the API's per-address
allowance and the sign-in limits alike, never the proxy's one address for everybody."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# A request as uvicorn hands it on when it does not trust the proxy's address (nginx on another
# machine, FORWARDED_ALLOW_IPS not naming it): REMOTE_ADDR is the proxy, the client is in X-Forwarded-For.
WHO_IS_COUNTED = """
from django.test import RequestFactory
from api.throttles import PerAddress
from clubs.views.lockout import client_address
request = RequestFactory().get("/api/v1/clubs/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR={hops!r})
print(PerAddress().get_ident(request), client_address(request))
"""


def counted_addresses(hops: str, **env: str) -> list[str]:
    own = {"TRUSTED_PROXY_COUNT", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in own}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", WHO_IS_COUNTED.format(hops=hops)],
        cwd=REPO_ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "bilka.example.org",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/bilka",
            **env,
        },
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_behind_one_proxy_the_api_and_the_sign_in_count_the_client() -> None:
    assert counted_addresses("203.0.113.7") == ["203.0.113.7", "203.0.113.7"]


def test_behind_two_proxies_both_count_the_address_the_outer_one_saw() -> None:
    # the client wrote the first entry himself, the load balancer added his address, nginx the balancer's
    assert counted_addresses("6.6.6.6, 198.51.100.9, 10.0.0.1", TRUSTED_PROXY_COUNT="2") == [
        "198.51.100.9", "198.51.100.9"]
