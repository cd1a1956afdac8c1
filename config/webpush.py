"""The site's VAPID key pair for Web Push: from the environment, or made once and kept under var/.

A push service accepts a push only when it is signed with the key pair the phone subscribed with,
so the pair must outlive restarts: in production it comes from ``VAPID_PRIVATE_KEY`` (and
``VAPID_PUBLIC_KEY``, checked against it); in development and tests, where nobody sets them, it is
made on first use and kept in ``VAPID_KEY_FILE`` (var/), so the site works out of the box.
"""

from __future__ import annotations

import base64
import functools
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass(frozen=True)
class VapidKeys:
    vapid: Vapid  # signs each push's JWT
    public_key: str  # the phone's ``applicationServerKey``: the raw P-256 point, base64url
    subject: str  # a contact for the push service: mailto: or https:


def _public_of(vapid: Vapid) -> str:
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def _from_file(path: Path) -> Vapid:
    """The key kept at ``path``, made first if there is none; two processes starting at once both
    end up with the one that was written first (``O_EXCL``)."""
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(pem)
    return Vapid.from_pem(path.read_bytes())


@functools.cache
def vapid_keys() -> VapidKeys | None:
    """The key pair, or None when Web Push is off (no key set and no file to keep one in)."""
    private = getattr(settings, "VAPID_PRIVATE_KEY", "")
    key_file = getattr(settings, "VAPID_KEY_FILE", None)
    if private:
        vapid = Vapid.from_string(private)
    elif key_file:
        vapid = _from_file(Path(key_file))
    else:
        return None
    public = _public_of(vapid)
    given = getattr(settings, "VAPID_PUBLIC_KEY", "")
    if given and given.rstrip("=") != public:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.")
    return VapidKeys(vapid=vapid, public_key=public, subject=settings.VAPID_SUBJECT)
