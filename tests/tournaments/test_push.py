"""Notices on phones by Web Push, sent to a push service on loopback that checks them as a real one would.

No outside push service is reachable here, so the test plays one: an ``http.server`` that takes the
POST, checks the VAPID JWT's ES256 signature with the site's public key, and decrypts the aes128gcm
body with the phone's private key (``http_ece``), as the phone itself would.
"""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from config.webpush import vapid_keys
from tournaments import tasks
from tournaments.models import Notification, PushSubscription
from tournaments.services.notices import notify

from .conftest import player_with_account

pytestmark = pytest.mark.django_db


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Phone:
    """A phone's subscription keys: the push is encrypted to them and only they decrypt it."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh, self.secret = _b64(raw), os.urandom(16)
        self.auth = _b64(self.secret)


class PushService:
    """A push service on loopback: keeps what it received, answers ``status``."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    service = PushService()
    yield service
    service.close()


def _check_vapid(headers: dict, audience: str) -> dict:
    """The JWT's claims once its signature checks out with the site's public key (RFC 8292)."""
    scheme, _sep, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == vapid_keys().public_key
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
    head, claims, signature = fields["t"].split(".")
    raw = _unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(_unb64(head))["alg"] == "ES256"
    body = json.loads(_unb64(claims))
    assert body["aud"] == audience and body["exp"] > time.time() and body["sub"].startswith("mailto:")
    return body


def _subscribe(user, service, phone, name="phone-1") -> PushSubscription:
    """As the page's POST would keep it (the service refuses a plain-http address, which only a
    push service on loopback has: the row is written directly)."""
    return PushSubscription.objects.create(
        user=user, endpoint=f"{service.origin}/push/{name}", p256dh=phone.p256dh, auth=phone.auth
    )


def test_a_notice_reaches_the_phone_signed_and_encrypted(club, push_service):
    user = player_with_account(club, "asel").user
    phone = Phone()
    _subscribe(user, push_service, phone)
    notify(user, kind="tournament.round_paired", text=lambda: "Cup, round 3: table 7, NS, against X & Y.",
           url="/t/cup/m/7/", key="k1", title="Cup")  # fmt: skip
    note = Notification.objects.get(user=user)

    assert tasks.push_notice(note.pk) == 1

    (got,) = push_service.received
    assert got["path"] == "/push/phone-1"
    assert (
        got["headers"]["content-encoding"] == "aes128gcm" and got["headers"]["topic"] == f"notice-{note.pk}"
    )
    _check_vapid(got["headers"], push_service.origin)
    plain = http_ece.decrypt(
        got["body"], private_key=phone.private, auth_secret=phone.secret, version="aes128gcm"
    )
    assert json.loads(plain) == {
        "title": "Cup",
        "body": "Cup, round 3: table 7, NS, against X & Y.",
        "url": "/t/cup/m/7/",
        "tag": f"notice-{note.pk}",
        "icon": "/static/favicon.svg",
    }
    with pytest.raises(http_ece.ECEException):  # another phone's keys read nothing of it
        other = Phone()
        http_ece.decrypt(
            got["body"], private_key=other.private, auth_secret=other.secret, version="aes128gcm"
        )


def test_a_forged_signature_is_caught_by_the_check(club, push_service):
    """The check above is a real one: a JWT signed by another key fails it."""
    user = player_with_account(club, "oleh").user
    _subscribe(user, push_service, Phone())
    notify(user, kind="x", text=lambda: "hello", key="k2")
    tasks.push_notice(Notification.objects.get(user=user).pk)
    headers = dict(push_service.received[0]["headers"])
    head, claims, _sig = headers["authorization"].split("t=")[1].split(",")[0].split(".")
    forged = ec.generate_private_key(ec.SECP256R1()).sign(
        f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256())
    )
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    r, s = decode_dss_signature(forged)
    forged_raw = _b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
    headers["authorization"] = headers["authorization"].replace(_sig, forged_raw)
    with pytest.raises(InvalidSignature):
        _check_vapid(headers, push_service.origin)


def test_every_phone_of_the_user_gets_it_and_a_gone_one_is_forgotten(club, push_service):
    user = player_with_account(club, "ivan").user
    _subscribe(user, push_service, Phone(), "kept")
    notify(user, kind="x", text=lambda: "one", key="k3")
    assert tasks.push_notice(Notification.objects.get(key="k3").pk) == 1

    _subscribe(user, push_service, Phone(), "second")
    push_service.status = 410  # the push service forgot both phones
    notify(user, kind="x", text=lambda: "two", key="k4")
    assert tasks.push_notice(Notification.objects.get(key="k4").pk) == 0
    assert not PushSubscription.objects.filter(user=user).exists()
    assert {r["path"] for r in push_service.received[1:]} == {"/push/kept", "/push/second"}


def test_a_refusal_is_kept_on_the_phone_and_cleared_by_the_next_push(club, push_service):
    user = player_with_account(club, "nurlan").user
    phone = _subscribe(user, push_service, Phone())
    push_service.status = 429
    notify(user, kind="x", text=lambda: "busy", key="k5")
    assert tasks.push_notice(Notification.objects.get(key="k5").pk) == 0
    phone.refresh_from_db()
    assert phone.last_error.startswith("429")
    push_service.status = 201
    notify(user, kind="x", text=lambda: "again", key="k6")
    assert tasks.push_notice(Notification.objects.get(key="k6").pk) == 1
    phone.refresh_from_db()
    assert phone.last_error == ""
