"""The club's webhooks page: only its owners and organisers, the secret shown once, off, on, deleted."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db

PUBLIC = "https://93.184.216.34/bilka"


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def page(club) -> str:
    return reverse("webhooks:hooks", args=[club.slug])


def test_a_visitor_is_sent_to_sign_in_and_a_member_refused(client, club, member, outsider):
    answer = client.get(page(club))
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    for user in (member, outsider):
        login(client, user)
        assert client.get(page(club)).status_code == 403
        assert client.post(page(club), {"url": PUBLIC, "events": ["round.paired"]}).status_code == 403
    assert not Webhook.objects.exists()


def test_the_club_page_links_to_it_for_its_organisers_only(client, club, organiser, member):
    login(client, member)
    assert page(club) not in client.get(club.get_absolute_url()).content.decode()
    login(client, organiser)
    assert page(club) in client.get(club.get_absolute_url()).content.decode()


def test_an_organiser_adds_a_hook_and_sees_its_secret_once(client, club, organiser):
    login(client, organiser)
    answer = client.post(page(club), {"url": PUBLIC, "events": ["round.paired", "result.corrected"]})

    assert answer.status_code == 200
    hook = Webhook.objects.get(club=club)
    assert (hook.url, hook.events, hook.active, hook.created_by) == (
        PUBLIC,
        ["round.paired", "result.corrected"],
        True,
        organiser,
    )
    assert hook.secret.startswith("whsec_") and len(hook.secret) > 40
    assert hook.secret in answer.content.decode()
    again = client.get(page(club)).content.decode()
    assert PUBLIC in again and hook.secret not in again
    assert AuditEntry.objects.filter(club=club, action="webhook.create", actor=organiser).exists()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://93.184.216.34/bilka", "Only secure addresses"),
        ("https://127.0.0.1/bilka", "private or local network"),
        ("https://169.254.169.254/latest/", "private or local network"),
        ("https://localhost:8443/bilka", "private or local network"),
        ("not an address", "Enter the full address"),
    ],
)
def test_a_refused_address_is_said_next_to_the_field_and_nothing_is_saved(
    client, club, owner, url, says, settings
):
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = []
    login(client, owner)
    answer = client.post(page(club), {"url": url, "events": ["round.paired"]}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert says in answer.content.decode()
    assert not Webhook.objects.exists()


def test_turned_off_on_and_deleted_and_another_clubs_hook_is_not_found(client, club, organiser):
    from tests.clubs.factories import ClubFactory

    hook = Webhook.objects.create(club=club, url=PUBLIC, secret="whsec_x", events=["round.paired"])
    elsewhere = Webhook.objects.create(club=ClubFactory(slug="sosedi"), url=PUBLIC, secret="s", events=[])
    login(client, organiser)

    toggle = reverse("webhooks:hook_toggle", args=[club.slug, hook.pk])
    assert client.post(toggle).status_code == 302
    hook.refresh_from_db()
    assert not hook.active
    Webhook.objects.filter(pk=hook.pk).update(failures=20, disabled_for_failures=True)
    client.post(toggle)
    hook.refresh_from_db()
    assert hook.active and hook.failures == 0 and not hook.disabled_for_failures

    assert client.post(reverse("webhooks:hook_toggle", args=[club.slug, elsewhere.pk])).status_code == 404
    assert client.post(reverse("webhooks:hook_delete", args=[club.slug, elsewhere.pk])).status_code == 404
    assert client.post(reverse("webhooks:hook_delete", args=[club.slug, hook.pk])).status_code == 302
    assert list(Webhook.objects.all()) == [elsewhere]
    assert client.get(reverse("webhooks:hook_toggle", args=[club.slug, elsewhere.pk])).status_code == 405


def test_the_page_says_a_hook_was_turned_off_for_failing(client, club, owner):
    Webhook.objects.create(
        club=club,
        url=PUBLIC,
        secret="s",
        events=["round.paired"],
        active=False,
        failures=20,
        disabled_for_failures=True,
    )
    login(client, owner)
    assert (
        "off: 20 failed attempts in a row"
        in client.get(page(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
