"""Fixtures of the webhooks' tests: a small Swiss of the club's, and a real HTTP receiver on 127.0.0.1."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.tournaments.day.conftest import swiss_with_accounts


@pytest.fixture
def swiss(club, organiser):
    """A three-round Swiss of four pairs whose players have accounts, manual seeding, not started."""
    return swiss_with_accounts(club, organiser, 4, name="Вечер хуков", auto_pair=False)


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """What the receiver got, and the statuses it answers with next (then 200 for ever)."""

    port: int
    got: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    redirect_to: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"


@pytest.fixture
def receiver(settings) -> Iterator[Receiver]:
    """An http.server on 127.0.0.1 in a thread, allowed for this test by WEBHOOKS_ALLOWED_TEST_HOSTS."""
    state = Receiver(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            state.got.append(Received(headers=dict(self.headers), body=self.rfile.read(length)))
            status = state.answers.pop(0) if state.answers else 200
            self.send_response(status)
            if state.redirect_to:
                self.send_header("Location", state.redirect_to)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = [state.host]
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
