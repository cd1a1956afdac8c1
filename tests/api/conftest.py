"""Fixtures for the API's tests: a Swiss round with players who have accounts, keys, a JSON client."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from clubs import services as club_services
from clubs.models import Role
from tests.clubs.factories import MembershipFactory
from tests.tournaments.conftest import player_with_account, register_pairs
from tournaments import services


@pytest.fixture
def api():
    client = APIClient()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def key_for(user, scope: str = "read", clubs=()) -> str:
    _token, key = club_services.create_token(actor=user, name="test", scope=scope, clubs=list(clubs))
    return key


def bearer(key: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


@pytest.fixture
def swiss(club, organiser):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name="Пятничная швейцарка",
        starts_on=datetime.date(2026, 10, 2),
        format="swiss",
        swiss_rounds=3,
    )


@pytest.fixture
def match(club, organiser, swiss):
    """Round 1's first table: asel and oleh against ivan and nurlan, all members of the club."""
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    for p in (asel, oleh, ivan, nurlan):
        MembershipFactory(club=club, user=p.user, role=Role.MEMBER)
    services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    register_pairs(swiss, organiser, 1, prefix="Сельчанин")
    services.register_entry(actor=organiser, tournament=swiss, player_a=ivan, player_b=nurlan)
    register_pairs(swiss, organiser, 1, prefix="Селянин")
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    return services.pair_next_round(actor=organiser, tournament=swiss).matches.get(table=1)
