"""Seeding "by rating": pairs by the sum of their partners' ratings, players by their own; the
unrated after the rated ones."""

from __future__ import annotations

import datetime

import pytest

from ratings.models import BILKA_FOUR, PlayerRating
from tournaments import services
from tournaments.models import IndividualEntry

from .conftest import make_players, register_pairs

pytestmark = pytest.mark.django_db


def _rate(player, rating):
    PlayerRating.objects.create(player=player, game=BILKA_FOUR, rating=rating, deviation=50, mu=0, var=0.01,
                                matches=10)


def test_pairs_are_seeded_by_the_sum_of_their_partners_ratings(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Кубок", format="swiss", swiss_rounds=3,
                                   starts_on=datetime.date(2026, 10, 2), seeding="rating")
    pairs = register_pairs(t, organiser, 6)
    sums = {0: (1500, 1500), 1: (1900, 1300), 2: (1400, 1450), 3: (1700, 1700)}  # pairs 4, 5 unrated
    for i, (a, b) in sums.items():
        _rate(pairs[i].player_a, a)
        _rate(pairs[i].player_b, b)
    _rate(pairs[4].player_a, 2400)  # one rated partner is not enough: the pair is unrated
    services.pair_next_round(actor=organiser, tournament=t)
    seeds = {e.pk: e.seed for e in t.entries.all()}
    order = sorted(pairs, key=lambda e: seeds[e.pk])
    assert [e.pk for e in order[:4]] == [pairs[3].pk, pairs[1].pk, pairs[0].pk, pairs[2].pk]
    assert {e.pk for e in order[4:]} == {pairs[4].pk, pairs[5].pk}


def test_players_of_an_individual_event_are_seeded_by_their_rating(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Личка", format="ind_movement",
                                   starts_on=datetime.date(2026, 10, 2), seeding="rating")
    players = make_players(club, 8)
    for p in players:
        services.register_player(actor=organiser, tournament=t, player=p)
    for i, p in enumerate(players[:5]):
        _rate(p, 1400 + 50 * i)
    services.pair_next_round(actor=organiser, tournament=t)
    order = [e.player_id for e in IndividualEntry.objects.filter(tournament=t).order_by("seed")]
    assert order[:5] == [p.pk for p in reversed(players[:5])]
    assert set(order[5:]) == {p.pk for p in players[5:]}
