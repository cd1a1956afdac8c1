"""Where a hook may send: refused at registration and again at delivery, in the user's words."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from webhooks.addresses import check_url, is_public

REFUSED = [
    ("https://127.0.0.1/hook", "private_address"),
    ("https://10.1.2.3/hook", "private_address"),
    ("https://192.168.0.10:8443/hook", "private_address"),
    ("https://169.254.169.254/latest/meta-data/", "private_address"),
    ("https://[::1]/hook", "private_address"),
    ("https://[::ffff:127.0.0.1]/hook", "private_address"),
    ("https://0.0.0.0/hook", "private_address"),
    ("https://224.0.0.1/hook", "private_address"),
    ("https://localhost/hook", "private_address"),  # a name that resolves to loopback
    ("http://93.184.216.34/hook", "scheme"),
    ("ftp://example.org/hook", "invalid"),
    ("example.org/hook", "invalid"),
    ("https://user:secret@93.184.216.34/hook", "credentials"),
    ("https://no-such-host.invalid/hook", "unknown_host"),
]


@pytest.mark.parametrize(("url", "code"), REFUSED)
def test_refused_addresses(url, code, settings):
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = []
    with pytest.raises(ValidationError) as refused:
        check_url(url)
    assert refused.value.code == code


def test_a_public_address_passes_and_is_connected_to_as_resolved(settings):
    target = check_url("https://93.184.216.34:8443/in?club=1")
    assert (target.host, target.port, target.path, target.addresses) == (
        "93.184.216.34",
        8443,
        "/in?club=1",
        ("93.184.216.34",),
    )
    assert target.host_header == "93.184.216.34:8443"


def test_the_test_hosts_setting_lets_one_host_and_port_through_over_http(settings):
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = ["127.0.0.1:8765"]
    assert check_url("http://127.0.0.1:8765/hook").addresses == ("127.0.0.1",)
    with pytest.raises(ValidationError):
        check_url("http://127.0.0.1:8766/hook")  # another port of the same host is not allowed


def test_public_and_not():
    assert is_public("8.8.8.8") and is_public("2001:4860:4860::8888")
    for address in (
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "100.64.0.1",
        "169.254.1.1",
        "::1",
        "fe80::1",
        "fc00::1",
        "::",
        "240.0.0.1",
        "::ffff:10.0.0.1",
    ):
        assert not is_public(address), address


@pytest.mark.parametrize("language", ["ru", "uk", "kk"])
def test_the_refusals_are_in_the_users_language(language, settings):
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = []
    with translation.override(language):
        for url, _code in REFUSED[:1] + REFUSED[9:11]:
            with pytest.raises(ValidationError) as refused:
                check_url(url)
            text = " ".join(refused.value.messages)
            assert any("а" <= ch.lower() <= "я" or ch in "іїєґқңғүұөһә" for ch in text), text
