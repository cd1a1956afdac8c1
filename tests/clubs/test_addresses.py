"""The client's address (clubs.addresses): X-Forwarded-For believed only from the proxies named in
TRUSTED_PROXIES, read from the right, never what the client wrote himself."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from clubs.addresses import client_address, forwarded_client, scope_client_address


@pytest.fixture
def proxies(settings):
    def trust(*entries: str) -> None:
        settings.TRUSTED_PROXIES = list(entries)

    return trust


def test_with_no_trusted_proxy_the_header_is_never_read(proxies):
    proxies()
    assert forwarded_client("198.51.100.7", "10.9.9.9") == "198.51.100.7"
    assert forwarded_client("127.0.0.1", "10.9.9.9, 203.0.113.5") == "127.0.0.1"


def test_from_a_client_that_is_not_a_trusted_proxy_the_header_is_ignored(proxies):
    proxies("10.0.0.2")
    assert forwarded_client("198.51.100.7", "10.9.9.9") == "198.51.100.7"
    assert forwarded_client("198.51.100.7", "10.0.0.2") == "198.51.100.7"  # naming a proxy does not help


def test_from_a_trusted_proxy_the_address_it_saw_is_the_client(proxies):
    proxies("127.0.0.1", "::1")
    assert forwarded_client("127.0.0.1", "203.0.113.5") == "203.0.113.5"
    assert forwarded_client("::1", "203.0.113.5") == "203.0.113.5"
    # what the client wrote before the proxy appended what it saw is not believed
    assert forwarded_client("127.0.0.1", "10.9.9.9, 1.2.3.4, 203.0.113.5") == "203.0.113.5"


def test_a_chain_of_trusted_proxies_is_read_from_the_right_to_the_first_that_is_not_one(proxies):
    proxies("127.0.0.1", "10.0.0.0/8")
    # the client wrote 6.6.6.6, the balancer (10.1.2.3) appended the client, nginx the balancer
    assert forwarded_client("127.0.0.1", "6.6.6.6, 198.51.100.9, 10.1.2.3") == "198.51.100.9"
    # every entry a trusted proxy: the farthest one is all that is known
    assert forwarded_client("127.0.0.1", "10.4.4.4, 10.1.2.3") == "10.4.4.4"
    # no header at all: the proxy itself
    assert forwarded_client("127.0.0.1", "") == "127.0.0.1"


def test_an_entry_that_is_no_address_stops_the_reading_at_the_last_known_one(proxies):
    proxies("127.0.0.1", "10.0.0.0/8")
    assert forwarded_client("127.0.0.1", "203.0.113.5, unknown, 10.1.2.3") == "10.1.2.3"
    assert forwarded_client("127.0.0.1", "<script>") == "127.0.0.1"


def test_ports_brackets_and_mapped_addresses_are_read_as_the_address(proxies):
    proxies("127.0.0.1")
    assert forwarded_client("127.0.0.1", "203.0.113.5:41234") == "203.0.113.5"
    assert forwarded_client("127.0.0.1", "[2001:db8::7]:443") == "2001:db8::7"
    assert forwarded_client("127.0.0.1", "2001:DB8:0::7") == "2001:db8::7"
    assert forwarded_client("::ffff:127.0.0.1", "::ffff:203.0.113.5") == "203.0.113.5"


def test_a_request_and_a_socket_scope_are_read_alike(proxies):
    proxies("10.0.0.2")
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5")
    assert client_address(request) == "203.0.113.5"
    scope = {
        "type": "websocket",
        "client": ("10.0.0.2", 50000),
        "headers": [(b"x-forwarded-for", b"6.6.6.6"), (b"X-Forwarded-For", b"203.0.113.5")],
    }
    assert scope_client_address(scope) == "203.0.113.5"  # two headers are one list, as Django joins them
    assert scope_client_address({**scope, "client": ("198.51.100.7", 50000)}) == "198.51.100.7"
    assert scope_client_address({"type": "websocket", "headers": []}) == ""
