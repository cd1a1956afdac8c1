"""One attempt of a delivery: the signed body POSTed to an address checked just now, no redirect followed.

The signature is Stripe's scheme: ``Bilka-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of
"<t>.<body>" under the hook's secret>``; a receiver recomputes it and refuses an old ``t``
(docs/webhooks.md). The connection goes to the address ``addresses.check_url`` has just
resolved and judged, with TLS checked against the host's own name: the standard library's
``http.client``, which follows no redirect, so a receiver cannot bounce a delivery inward.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import secrets
import socket
import ssl
import time
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from .addresses import check_url

TIMEOUT_SECONDS = 10
USER_AGENT = "Bilka-Webhooks/1"


def new_secret() -> str:
    """A hook's signing secret: 32 random bytes, as text a receiver can paste into its settings."""
    return "whsec_" + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Bilka-Signature`` header of ``body`` sent at ``timestamp`` (unix seconds)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


@dataclass(frozen=True)
class Outcome:
    """How an attempt went: the receiver's status, or why there was none (an ``error`` code)."""

    status_code: int | None = None
    error: str = ""

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """http to a host by the address checked for it (only hosts allowed for tests get here)."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """https to a host by the address checked for it; the certificate must name the host."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


def post(*, url: str, secret: str, event_type: str, delivery: str, body: bytes) -> Outcome:
    """Send ``body`` once; every failure is an ``Outcome`` with a code, never an exception."""
    try:
        target = check_url(url)
    except ValidationError as refusal:
        return Outcome(error="unknown_host" if refusal.code == "unknown_host" else "refused_address")
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Bilka-Event": event_type,
        "Bilka-Delivery": delivery,
        "Bilka-Signature": signature(secret, timestamp, body),
    }
    kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = kind(target.host, target.port, address=target.addresses[0], timeout=TIMEOUT_SECONDS)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read(4096)  # a little of the answer, so the receiver is not cut off mid-reply
        return Outcome(status_code=answer.status)
    except ssl.SSLError:
        return Outcome(error="tls")
    except TimeoutError:
        return Outcome(error="timeout")
    except (OSError, http.client.HTTPException):
        return Outcome(error="connection")
    finally:
        connection.close()
