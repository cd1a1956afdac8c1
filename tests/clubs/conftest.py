"""Fixtures for club tests: a club with one user per role, and a helper to sign in."""

import pytest

from clubs.models import Role

from .factories import ClubFactory, MembershipFactory, UserFactory


@pytest.fixture
def club(db):
    return ClubFactory(name="Успенка", slug="uspenka")


@pytest.fixture
def owner(club):
    return MembershipFactory(club=club, user=UserFactory(username="owner"), role=Role.OWNER).user


@pytest.fixture
def organiser(club):
    return MembershipFactory(club=club, user=UserFactory(username="organiser"), role=Role.ORGANISER).user


@pytest.fixture
def member(club):
    return MembershipFactory(club=club, user=UserFactory(username="member"), role=Role.MEMBER).user


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def client(client):
    """Pages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client
