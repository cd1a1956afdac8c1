"""The receiver printed in docs/webhooks.md, run as written against real deliveries of the site."""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from http.server import HTTPServer
from pathlib import Path

import pytest
from django.utils import timezone

from tournaments import services as tournament_services
from webhooks import tasks
from webhooks.models import Delivery, DeliveryStatus, Webhook

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"
SECRET = "whsec_from-the-page"


def receiver_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    [code] = [block for block in blocks if "class Receiver" in block]
    return code


@pytest.fixture
def doc_receiver(settings):
    """The doc's module, its secret set as the doc says, serving on a free port of 127.0.0.1."""
    module: dict = {"__name__": "bilka_receiver"}
    exec(compile(receiver_code(), str(DOC), "exec"), module)  # noqa: S102 - our own documentation
    module["SECRET"] = SECRET
    handled: list[dict] = []
    module["handle"] = handled.append
    server = HTTPServer(("127.0.0.1", 0), module["Receiver"])
    server.RequestHandlerClass.log_message = lambda *args: None
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = [f"127.0.0.1:{port}"]
    try:
        yield module, handled, f"http://127.0.0.1:{port}/bilka"
    finally:
        server.shutdown()
        server.server_close()


def test_the_documented_receiver_accepts_a_real_delivery_once(doc_receiver, club, swiss, organiser):
    module, handled, url = doc_receiver
    hook = Webhook.objects.create(club=club, url=url, secret=SECRET, events=["round.paired"])
    tournament_services.pair_next_round(actor=organiser, tournament=swiss)
    delivery = Delivery.objects.get(hook=hook)

    assert tasks.deliver(delivery.pk) == DeliveryStatus.DELIVERED
    delivery.refresh_from_db()
    assert delivery.status_code == 204
    [event] = handled
    assert event["type"] == "round.paired" and event["tournament"] == swiss.slug
    assert event["id"] == str(delivery.event.uid)

    # the same event again (a retry whose answer was lost): accepted, not handled twice
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.PENDING, next_attempt_at=timezone.now()
    )
    assert tasks.deliver(delivery.pk) == DeliveryStatus.DELIVERED
    assert len(handled) == 1


def test_the_documented_receiver_refuses_a_wrong_secret(doc_receiver, club, swiss, organiser):
    _module, handled, url = doc_receiver
    hook = Webhook.objects.create(club=club, url=url, secret="whsec_someone-else", events=["round.paired"])
    tournament_services.pair_next_round(actor=organiser, tournament=swiss)

    assert tasks.deliver(Delivery.objects.get(hook=hook).pk) == DeliveryStatus.PENDING
    assert Delivery.objects.get(hook=hook).status_code == 400
    assert handled == []


def test_the_documented_check_refuses_an_old_or_altered_delivery(doc_receiver):
    module, _handled, _url = doc_receiver
    valid = module["signature_is_valid"]
    body = b'{"id":"1","type":"round.paired"}'
    now = int(time.time())

    def header(at: int, signed: bytes = body) -> str:
        mac = hmac.new(SECRET.encode(), f"{at}.".encode() + signed, hashlib.sha256).hexdigest()
        return f"t={at},v1={mac}"

    assert valid(SECRET, header(now), body)
    assert not valid(SECRET, header(now - 301), body)  # more than 5 minutes old: a replay
    assert not valid(SECRET, header(now), body + b" ")
    assert not valid(SECRET, header(now, b"other"), body)
    assert not valid(SECRET, "v1=abc", body)
    assert not valid(SECRET, "", body)
