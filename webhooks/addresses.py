"""Where a hook may send: https to public hosts, checked when a hook is registered and at every delivery.

A hook makes this server send requests to an address a user typed, so it must never reach
the server's own network (a database, the cloud's metadata at 169.254.169.254, a router). The
host is resolved and every address it resolves to must be public; the delivery then connects to
an address just checked, never resolving the name again, so a name that points elsewhere a
moment later (DNS rebinding) changes nothing. ``WEBHOOKS_ALLOWED_TEST_HOSTS`` lists host[:port]
pairs allowed over http and on any address, for tests and a developer's own receiver; empty in
production.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_LENGTH = 500
#: IPv6 addresses that carry an IPv4 one a gateway connects to (RFC 6052): judged by that one too.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


@dataclass(frozen=True)
class Target:
    """A checked address: what to connect to, and what to tell the server it is."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


def is_public(address: str) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local,
    multicast, reserved or unspecified. An IPv4 address carried inside an IPv6 one (mapped, 6to4,
    Teredo, NAT64) must be public too."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if ip in NAT64:
            inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if any(v4 is not None and not is_public(str(v4)) for v4 in inner):
            return False
        if ip.ipv4_mapped is not None:
            return True
    return ip.is_global and not (
        ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast
        or ip.is_reserved or ip.is_unspecified
    )


def allowed_for_tests(host: str, port: int | None) -> bool:
    allowed = {h.lower() for h in getattr(settings, "WEBHOOKS_ALLOWED_TEST_HOSTS", ())}
    return host.lower() in allowed or (port is not None and f"{host}:{port}".lower() in allowed)


def check_url(url: str) -> Target:
    """The address ``url`` leads to, once every check passed; else a ValidationError that says why."""
    url = (url or "").strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or len(url) > MAX_LENGTH or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(
            _("Enter the full address of your receiver, starting with https://."), code="invalid"
        )
    if parts.username is not None or parts.password is not None:
        raise ValidationError(
            _("The address must not contain a user name or a password."), code="credentials"
        )
    host = parts.hostname
    testing = allowed_for_tests(host, port)
    if parts.scheme != "https" and not testing:
        raise ValidationError(
            _("Only secure addresses (https://…) are accepted, so that events never travel in the clear."),
            code="scheme",
        )
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise ValidationError(
            _("The host %(host)s was not found. Check the address.") % {"host": host}, code="unknown_host"
        ) from None
    addresses = tuple(dict.fromkeys(info[4][0] for info in found))
    if not testing:
        for address in addresses:
            if not is_public(address):
                raise ValidationError(
                    _(
                        "%(host)s leads to %(address)s, an address of a private or local network."
                        " Hooks are sent only to addresses on the public internet."
                    )
                    % {"host": host, "address": address},
                    code="private_address",
                )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme=parts.scheme, host=host, port=port, path=path, addresses=addresses)
