"""The client's address: the one place that decides where a request or a socket comes from.

Every limit keyed on an address reads it here: the sign-in lock-out (django-axes) and allauth's
per-address limits, the API's per-address allowance, wrong PINs and the table sockets' allowance
for visitors without a session. The ASGI server passes ``X-Forwarded-For`` on untouched (uvicorn
runs with ``--no-proxy-headers``), so nothing else believes it.

The peer (``REMOTE_ADDR``, a socket's ``scope["client"]``) is the client unless it is one of the
proxies named in ``settings.TRUSTED_PROXIES`` (addresses or networks; none by default). From a
trusted proxy, ``X-Forwarded-For`` is read from the right, as each proxy appends the address it
saw: the first entry that is not itself a trusted proxy is the client. Everything further left
was written by the client and is never believed, so a client cannot make himself a new address
by sending the header, and a proxy that is not named cannot speak for anybody.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def client_address(request: Any) -> str:
    """The address an HTTP request comes from (``request.META``, Django's or DRF's request)."""
    meta = request.META
    return forwarded_client(meta.get("REMOTE_ADDR") or "", meta.get("HTTP_X_FORWARDED_FOR", ""))


def scope_client_address(scope: dict[str, Any]) -> str:
    """The address an ASGI connection (a websocket) comes from: its peer and its headers."""
    client = scope.get("client")
    peer = str(client[0]) if client and client[0] is not None else ""
    # Several X-Forwarded-For headers count as one list, as Django joins them for META.
    forwarded = ",".join(
        value.decode("latin1")
        for name, value in scope.get("headers", ())
        if name.lower() == b"x-forwarded-for"
    )
    return forwarded_client(peer, forwarded)


def forwarded_client(peer: str, forwarded_for: str) -> str:
    """The client behind ``peer``, given the ``X-Forwarded-For`` it sent (comma-separated)."""
    proxies = trusted_proxies()
    here = _parse(peer)
    if here is None or not _trusted(here, proxies):
        return str(here) if here is not None else peer
    for hop in reversed([h for h in forwarded_for.split(",") if h.strip()]):
        address = _parse(hop)
        if address is None:  # not written by a proxy of ours: its sender is the last we know
            break
        here = address
        if not _trusted(here, proxies):
            break
    return str(here)


def check_proxy_settings() -> None:
    """Stop the site at start-up, with a clear error, over a TRUSTED_PROXIES entry that is no
    address or network, or over the TRUSTED_PROXY_COUNT it replaces (set, the site would otherwise
    trust nobody and count every client behind the proxy as the proxy's one address)."""
    if "TRUSTED_PROXY_COUNT" in os.environ:
        raise ImproperlyConfigured(
            "TRUSTED_PROXY_COUNT is no longer read: name the proxies themselves in TRUSTED_PROXIES "
            "(e.g. TRUSTED_PROXIES=127.0.0.1,::1 for nginx on this machine; docs/deploy.md)"
        )
    trusted_proxies()


def trusted_proxies() -> tuple[Network, ...]:
    """``settings.TRUSTED_PROXIES`` as networks (read on each call: a test or a deploy may change it)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(parse_networks(entries))


def parse_networks(entries: Iterable[str]) -> list[Network]:
    """Addresses (``10.0.0.2``, ``::1``) and networks (``10.0.0.0/8``) as networks; a clear error
    naming the entry that is neither."""
    networks = []
    for entry in entries:
        text = str(entry).strip()
        if not text:
            continue
        try:
            networks.append(ipaddress.ip_network(text, strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {text!r} is not an address or a network (e.g. 127.0.0.1, 10.0.0.0/8)"
            ) from exc
    return networks


def _parse(text: str) -> Address | None:
    """An address as a proxy writes it: bare, or with a port (``1.2.3.4:5678``, ``[::1]:5678``).
    An IPv4 address mapped into IPv6 counts as the IPv4 one."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, proxies: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)
