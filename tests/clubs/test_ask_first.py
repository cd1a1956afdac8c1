"""Taking a player off the roster, removing a member and leaving a club ask first: a GET is the
question (what will happen), only the POST from it does it; with JavaScript it is a dialog."""

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import ClubPlayer, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_taking_a_player_off_the_roster_asks_first(client, club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Нұрлан")
    client.force_login(organiser)
    url = reverse("clubs:roster_toggle", args=[club.slug, entry.pk]) + "?off=1"
    page = client.get(reverse("clubs:roster", args=[club.slug])).content.decode()
    assert f'href="{url}"' in page and "<dialog" in page

    question = client.get(url).content.decode()
    assert "Take Нұрлан off the roster?" in question and "Nothing is deleted" in question
    assert ClubPlayer.objects.get(pk=entry.pk).active

    client.post(url)
    assert not ClubPlayer.objects.get(pk=entry.pk).active
    client.post(url)  # the same confirmed post again does not put him back
    assert not ClubPlayer.objects.get(pk=entry.pk).active
    client.post(reverse("clubs:roster_toggle", args=[club.slug, entry.pk]))  # "Put back"
    assert ClubPlayer.objects.get(pk=entry.pk).active


def test_removing_a_member_asks_first(client, club, owner, member):
    client.force_login(owner)
    url = reverse("clubs:member_remove", args=[club.slug, member.pk])
    assert f'href="{url}"' in client.get(reverse("clubs:members", args=[club.slug])).content.decode()
    question = client.get(url).content.decode()
    assert f"Remove {member.get_username()} from the club?" in question
    assert Membership.objects.filter(club=club, user=member).exists()
    client.post(url)
    assert not Membership.objects.filter(club=club, user=member).exists()


def test_leaving_a_club_asks_first(client, club, member):
    client.force_login(member)
    url = reverse("clubs:club_leave", args=[club.slug])
    assert "Leave the club" in client.get(url).content.decode()
    assert Membership.objects.filter(club=club, user=member).exists()
    client.post(url)
    assert not Membership.objects.filter(club=club, user=member).exists()


def test_others_do_not_even_see_the_question(client, club, member, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Нұрлан")
    client.force_login(member)
    url = reverse("clubs:roster_toggle", args=[club.slug, entry.pk]) + "?off=1"
    assert client.get(url).status_code == 403
    assert client.get(reverse("clubs:member_remove", args=[club.slug, organiser.pk])).status_code == 403
