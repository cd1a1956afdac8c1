"""A phone asks for its user's notices from the notices page: the subscription kept (CSRF-checked),
refused with a reason in the reader's language, forgotten; the service worker served from the root;
the VAPID key pair from the environment or made once under var/."""

import base64
import json
import re

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse

from config import webpush
from tournaments.models import PushSubscription

from .conftest import player_with_account

pytestmark = pytest.mark.django_db

PHONE_KEY = ec.generate_private_key(ec.SECP256R1()).public_key()
P256DH = (
    base64.urlsafe_b64encode(
        PHONE_KEY.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    .rstrip(b"=")
    .decode()
)
AUTH = base64.urlsafe_b64encode(b"0123456789abcdef").rstrip(b"=").decode()


def _subscription(endpoint="https://fcm.example.net/send/abc", p256dh=P256DH, auth=AUTH) -> str:
    return json.dumps(
        {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": p256dh, "auth": auth}}
    )


@pytest.fixture
def asel(club):
    return player_with_account(club, "asel").user


def _browser(user, language="en") -> tuple[Client, str]:
    """A signed-in browser that checks CSRF like a real one, and the token from the notices page."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    page = client.get(reverse("tournaments:my_notifications")).content.decode()
    token = re.search(r'id="phone-notices".*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S).group(1)
    return client, token


def _post(client, token, body, name="tournaments:phone_subscribe"):
    return client.post(reverse(name), body, content_type="application/json", HTTP_X_CSRFTOKEN=token)


def test_the_notices_page_offers_the_button_with_the_sites_key(asel):
    client, _token = _browser(asel)
    page = client.get(reverse("tournaments:my_notifications")).content.decode()
    assert "Notify me on this phone" in page and "js/push.js" in page
    assert f'data-push-key="{webpush.vapid_keys().public_key}"' in page
    assert len(base64.urlsafe_b64decode(webpush.vapid_keys().public_key + "=")) == 65


def test_a_phone_is_kept_for_its_user_and_forgotten_on_his_word(asel, club):
    client, token = _browser(asel)
    answer = _post(client, token, _subscription())
    assert answer.status_code == 201 and answer.json()["ok"] is True
    phone = PushSubscription.objects.get()
    assert (phone.user, phone.p256dh, phone.auth) == (asel, P256DH, AUTH)

    assert _post(client, token, _subscription()).status_code == 201  # again: still one row
    assert PushSubscription.objects.count() == 1

    oleh = player_with_account(club, "oleh").user  # the same phone, now signed in as Oleh
    other, other_token = _browser(oleh)
    assert _post(other, other_token, _subscription()).status_code == 201
    assert PushSubscription.objects.get().user == oleh
    body = json.dumps({"endpoint": "https://fcm.example.net/send/abc"})
    assert _post(client, token, body, "tournaments:phone_forget").status_code == 200
    assert PushSubscription.objects.count() == 1, "Asel cannot take Oleh's phone off"
    assert _post(other, other_token, body, "tournaments:phone_forget").status_code == 200
    assert not PushSubscription.objects.exists()


def test_no_csrf_token_no_subscription(asel):
    client, _token = _browser(asel)
    answer = client.post(
        reverse("tournaments:phone_subscribe"), _subscription(), content_type="application/json"
    )
    assert answer.status_code == 403 and not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", "Этот браузер не дал адреса"),
        ("uk", "Цей браузер не дав адреси"),
        ("kk", "Бұл браузер хабарламаларға мекенжай бермеді"),
    ],
)
def test_a_plain_http_address_is_refused_in_the_readers_language(asel, language, words):
    client, token = _browser(asel, language)
    answer = _post(client, token, _subscription(endpoint="http://push.example.net/x"))
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        _subscription(p256dh="short"),
        _subscription(auth=base64.urlsafe_b64encode(b"x" * 15).decode()),
        _subscription(p256dh=P256DH.replace("B", "A", 1)),  # not an uncompressed point
        json.dumps(["not", "a", "subscription"]),
        "{not json",
        json.dumps({"endpoint": 7, "keys": "none"}),
    ],
)
def test_what_is_not_a_subscription_is_a_clear_400(asel, body):
    client, token = _browser(asel)
    answer = _post(client, token, body)
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/" and "no-cache" in answer["Cache-Control"]
    script = answer.content.decode()
    assert 'addEventListener("push"' in script and 'addEventListener("notificationclick"' in script


@pytest.fixture
def fresh_keys(settings):
    webpush.vapid_keys.cache_clear()
    yield settings
    webpush.vapid_keys.cache_clear()


def test_keys_from_the_environment_are_used_and_checked(fresh_keys):
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    fresh_keys.VAPID_PRIVATE_KEY = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    fresh_keys.VAPID_PUBLIC_KEY = base64.urlsafe_b64encode(public).rstrip(b"=").decode()
    assert webpush.vapid_keys().public_key == fresh_keys.VAPID_PUBLIC_KEY
    webpush.vapid_keys.cache_clear()
    fresh_keys.VAPID_PUBLIC_KEY = P256DH  # another key's public half
    with pytest.raises(ImproperlyConfigured):
        webpush.vapid_keys()


def test_with_no_keys_and_no_file_the_page_offers_no_button(fresh_keys, asel):
    fresh_keys.VAPID_PRIVATE_KEY, fresh_keys.VAPID_KEY_FILE = "", None
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(asel)
    page = client.get(reverse("tournaments:my_notifications")).content.decode()
    assert "phone-notices" not in page


def test_a_key_pair_is_made_once_and_kept(fresh_keys, tmp_path):
    fresh_keys.VAPID_PRIVATE_KEY, fresh_keys.VAPID_KEY_FILE = "", tmp_path / "var" / "vapid.pem"
    first = webpush.vapid_keys().public_key
    webpush.vapid_keys.cache_clear()
    assert webpush.vapid_keys().public_key == first
    assert (tmp_path / "var" / "vapid.pem").stat().st_mode & 0o777 == 0o600
