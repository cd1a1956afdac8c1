"""The demo data loads, can be loaded twice, and lets the documented account in."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from clubs.models import Club, ClubPlayer, Membership, Player, Role

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent(capsys):
    call_command("seed_demo")
    counts = (
        Club.objects.count(),
        Player.objects.count(),
        ClubPlayer.objects.count(),
        Membership.objects.count(),
    )
    call_command("seed_demo")
    assert (
        Club.objects.count(),
        Player.objects.count(),
        ClubPlayer.objects.count(),
        Membership.objects.count(),
    ) == counts
    out = capsys.readouterr().out
    assert "demo / bilka-demo" in out
    uspenka = Club.objects.get(name="Успенка")
    assert uspenka.slug == "uspenka"
    assert Membership.objects.get(club=uspenka, user__username="demo").role == Role.OWNER
    assert Membership.objects.get(club=uspenka, user__username="organiser").role == Role.ORGANISER
    assert uspenka.roster.filter(player__user__isnull=True).count() >= 10
    assert Club.objects.count() == 2
    assert authenticate(username="demo", password="bilka-demo") is not None
