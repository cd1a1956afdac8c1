"""A full movement: the organiser is told before the start what the set number of rounds leaves out."""

import datetime
from itertools import combinations

import pytest
from django.urls import reverse

from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import Seat, SeatName, TournamentStatus

from ..conftest import make_players, play_round

pytestmark = pytest.mark.django_db


def _movement(club, organiser, players):
    t = services.create_tournament(
        actor=organiser, club=club, name="Белка-микс", starts_on=datetime.date(2026, 12, 5),
        format="ind_movement",
    )  # fmt: skip
    for p in make_players(club, players, "Игрок"):
        services.register_player(actor=organiser, tournament=t, player=p)
    return t


def test_eight_players_on_the_default_rounds_are_told_what_is_left_out(client, club, organiser):
    t = _movement(club, organiser, 8)
    assert t.swiss_rounds == 5  # the default number of rounds
    home, settings = reverse("tournaments:home", args=[t.slug]), reverse("tournaments:edit", args=[t.slug])
    assert "left out" not in client.get(home).content.decode(), "the public is not told"
    client.login(username="organiser", password=PASSWORD)
    for url in (home, settings):
        page = client.get(url).content.decode()
        assert "takes 7 rounds" in page and "2 of the movement&#x27;s rounds are left out" in page, url
        assert "set the rounds to 7" in page

    services.update_tournament(actor=organiser, tournament=t, swiss_rounds=7)
    assert 'class="notice-box' not in client.get(home).content.decode()
    for _ in range(7):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 7
    partners = set()
    for rnd in t.rounds.all():
        at_tables = Seat.objects.filter(round=rnd).exclude(seat=SeatName.BYE)
        seats = {(s.table, s.seat): s.entry_id for s in at_tables}
        for (table, seat), player in seats.items():
            other = {SeatName.NORTH: SeatName.SOUTH, SeatName.EAST: SeatName.WEST}.get(seat)
            if other:
                partners.add(frozenset((player, seats[(table, other)])))
    players = {e.pk for e in t.individual_entries.all()}
    assert partners == {frozenset(p) for p in combinations(players, 2)}, "every two players partnered once"


def test_more_rounds_than_the_movement_says_partners_repeat(client, club, organiser):
    t = _movement(club, organiser, 5)
    services.update_tournament(actor=organiser, tournament=t, swiss_rounds=7)
    client.login(username="organiser", password=PASSWORD)
    page = client.get(reverse("tournaments:home", args=[t.slug])).content.decode()
    assert "takes 5 rounds" in page and "in the 2 after the movement, partners repeat" in page
