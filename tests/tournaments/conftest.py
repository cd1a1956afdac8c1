"""Fixtures for tournament tests: pairs of players, a helper to play rounds (the club and one user
per role are in tests/conftest.py)."""

import datetime

import pytest
from django.utils import translation

from clubs.models import ClubPlayer, Player
from tests.clubs.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus


@pytest.fixture
def client(client):
    """Pages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def make_players(club, n: int, prefix: str = "Игрок") -> list[Player]:
    players = [PlayerFactory(display_name=f"{prefix} {i}") for i in range(1, n + 1)]
    for p in players:
        ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
    return players


def player_with_account(club, username: str) -> Player:
    user = UserFactory(username=username)
    player = PlayerFactory(display_name=username.title(), user=user)
    ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name)
    return player


def register_pairs(tournament, organiser, count: int, prefix: str = "Игрок") -> list:
    players = make_players(tournament.club, 2 * count, prefix)
    return [
        services.register_entry(
            actor=organiser, tournament=tournament, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
        for i in range(count)
    ]


def play_round(rnd, organiser, *, winner=lambda m: "home", loser_eyes=lambda m: 7) -> None:
    """The organiser enters every open result of the round (the home pair wins 12:7 by default)."""
    for match in Match.objects.filter(round=rnd, bye=False, status=MatchStatus.SCHEDULED).order_by(
        "table", "game"
    ):
        home_wins = winner(match) == "home"
        services.enter_result(
            actor=organiser,
            match=match,
            home_eyes=12 if home_wins else loser_eyes(match),
            away_eyes=loser_eyes(match) if home_wins else 12,
        )


@pytest.fixture(autouse=True)
def _english():
    """Service messages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    with translation.override("en"):
        yield


@pytest.fixture
def cup(club, organiser):
    """A three-round Swiss of the Uspenka club, not started."""
    return services.create_tournament(
        actor=organiser, club=club, name="Кубок Успенки", starts_on=datetime.date(2026, 11, 7),
        format="swiss", swiss_rounds=3,
    )


@pytest.fixture
def cup_match(club, organiser, cup):
    """Table 1 of the cup's round 1: asel & oleh against ivan & nurlan, all four with accounts."""
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    services.register_entry(actor=organiser, tournament=cup, player_a=asel, player_b=oleh)
    register_pairs(cup, organiser, 1, prefix="Сельчанин")
    services.register_entry(actor=organiser, tournament=cup, player_a=ivan, player_b=nurlan)
    register_pairs(cup, organiser, 1, prefix="Селянин")
    services.update_tournament(actor=organiser, tournament=cup, seeding="manual")
    return services.pair_next_round(actor=organiser, tournament=cup).matches.get(table=1)
