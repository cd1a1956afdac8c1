"""Wrong passwords at the sign-in page are slowed per account and address together.

A guesser locks only the pair he tries from; the owner of the account signs in from his own
address meanwhile, and from the guesser's address once the cool-off has passed.
"""

import itertools
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse

from .factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

# allauth's per-address limit lives in the cache, which outlives a test: one address per use.
_addresses = (f"203.0.113.{n}" for n in itertools.count(10))


@pytest.fixture
def finalist():
    return UserFactory(username="finalist", email="finalist@example.com")


def sign_in(client, login, password, address, language="en"):
    return client.post(reverse("account_login"), {"login": login, "password": password},
                       REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)


def guess(client, login, address, times=5):
    for n in range(times):
        response = sign_in(client, login, f"wrong-{n}", address)
        assert response.status_code in (200, 429)


def test_five_wrong_passwords_lock_that_address_out_with_a_clear_message(client, finalist):
    home = next(_addresses)
    guess(client, "finalist", home)
    response = sign_in(client, "finalist", PASSWORD, home)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    text = response.content.decode()
    assert "Too many wrong passwords for this account from your connection" in text
    assert "Wait 1 minute and" in text
    assert 'value="finalist"' in text  # the login typed is kept in the form


@pytest.mark.parametrize("language, words", [
    ("ru", "Слишком много неверных паролей"),
    ("kk", "Қате құпиясөз тым көп"),
    ("uk", "Забагато неправильних паролів"),
])
def test_the_refusal_is_in_the_users_language(client, finalist, language, words):
    home = next(_addresses)
    guess(client, "finalist", home)
    response = sign_in(client, "finalist", PASSWORD, home, language=language)
    assert response.status_code == 429
    assert words in response.content.decode()


def test_a_stranger_cannot_shut_the_finalist_out(client, finalist):
    stranger = UserFactory(username="stranger")
    elsewhere, home = next(_addresses), next(_addresses)
    guess(client, "finalist", elsewhere, times=8)
    assert sign_in(client, "finalist", PASSWORD, elsewhere).status_code == 429

    response = sign_in(client, "finalist", PASSWORD, home)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(finalist.pk)
    client.logout()

    response = sign_in(client, stranger.username, PASSWORD, elsewhere)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(stranger.pk)


def test_the_lock_lifts_by_itself_after_the_cool_off(client, finalist):
    home = next(_addresses)
    guess(client, "finalist", home, times=7)
    assert sign_in(client, "finalist", PASSWORD, home).status_code == 429
    locked_at = AccessAttempt.objects.get().attempt_time
    AccessAttempt.objects.update(attempt_time=locked_at - timedelta(seconds=61))  # a minute, passed

    response = sign_in(client, "finalist", PASSWORD, home)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(finalist.pk)


def test_email_and_username_count_as_one_account(client, finalist):
    home = next(_addresses)
    guess(client, "finalist", home, times=3)
    guess(client, "Finalist@Example.com", home, times=2)
    assert sign_in(client, "finalist", PASSWORD, home).status_code == 429


def test_behind_the_proxy_each_client_address_counts_apart(client, finalist, settings):
    proxy, elsewhere, home = next(_addresses), next(_addresses), next(_addresses)
    settings.TRUSTED_PROXIES = [proxy]

    def through_proxy(password, client_at, forged="10.9.9.9"):
        return client.post(reverse("account_login"), {"login": "finalist", "password": password},
                           REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=f"{forged}, {client_at}",
                           HTTP_ACCEPT_LANGUAGE="en")

    for n in range(6):
        through_proxy(f"wrong-{n}", elsewhere, forged=f"10.9.9.{n}")
    # what the guesser writes before the proxy's entry changes nothing
    assert through_proxy(PASSWORD, elsewhere, forged="10.8.8.8").status_code == 429
    assert through_proxy(PASSWORD, home).status_code == 302


def test_a_forged_forwarded_for_does_not_lift_the_lock(client, finalist):
    """The site trusts no proxy by default: a client who writes X-Forwarded-For himself, a new one
    for every guess and another for the right password, is still the one address he comes from."""
    home = next(_addresses)
    for n in range(5):
        response = client.post(reverse("account_login"), {"login": "finalist", "password": f"wrong-{n}"},
                               REMOTE_ADDR=home, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}")
        assert response.status_code in (200, 429)
    response = client.post(reverse("account_login"), {"login": "finalist", "password": PASSWORD},
                           REMOTE_ADDR=home, HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {home}


def test_a_hall_of_200_phones_behind_one_address_all_sign_in(client, settings):
    """200 people at one address, each mistyping once: nobody is refused, by django-axes or by
    allauth's per-address limits."""
    hall = next(_addresses)
    people = UserFactory.create_batch(200)
    for person in people:
        phone = client.__class__()
        wrong = phone.post(reverse("account_login"), {"login": person.username, "password": "typo"},
                           REMOTE_ADDR=hall)
        assert wrong.status_code == 200 and "_auth_user_id" not in phone.session
        right = phone.post(reverse("account_login"), {"login": person.username, "password": PASSWORD},
                           REMOTE_ADDR=hall)
        assert right.status_code == 302, right.content.decode().split("<main")[-1][:3000]
        assert phone.session["_auth_user_id"] == str(person.pk)


def test_allauths_per_address_limit_counts_the_address_not_the_header(client, settings):
    """allauth's own limit on failed sign-ins per address (set low here) reads the address where
    django-axes does (clubs.adapter): new forged headers do not make new addresses."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip"}
    home = next(_addresses)
    people = UserFactory.create_batch(4)
    for n, person in enumerate(people[:3]):
        client.post(reverse("account_login"), {"login": person.username, "password": "typo"},
                    REMOTE_ADDR=home, HTTP_X_FORWARDED_FOR=f"10.7.7.{n}", HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("account_login"), {"login": people[3].username, "password": PASSWORD},
                           REMOTE_ADDR=home, HTTP_X_FORWARDED_FOR="10.7.7.9", HTTP_ACCEPT_LANGUAGE="en")
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()
    other = client.post(reverse("account_login"), {"login": people[3].username, "password": PASSWORD},
                        REMOTE_ADDR=next(_addresses), HTTP_ACCEPT_LANGUAGE="en")
    assert other.status_code == 302


def test_a_login_longer_than_any_account_is_counted_not_a_server_error(client):
    """django-axes writes the name down in 255 characters: a longer login counts by its first 255."""
    address = next(_addresses)
    long_login = "я" * 300
    response = sign_in(client, long_login, "wrong", address)
    assert response.status_code == 200
    assert AccessAttempt.objects.get(ip_address=address).username == ("я" * 255)
    guess(client, long_login + "x", address, times=4)  # the same 255 characters: the fifth wrong try
    assert sign_in(client, long_login, "wrong", address).status_code == 429
