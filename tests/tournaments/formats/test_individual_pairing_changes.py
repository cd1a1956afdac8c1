"""Individual events: the organiser swaps two players (at tables or sitting out), and unpairs."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import Entry, Match, Seat, SeatName

from ..conftest import make_players, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Индивидуалка",
        starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss",
        swiss_rounds=3,
    )
    for p in make_players(club, 9, "Игрок"):
        services.register_player(actor=organiser, tournament=t, player=p)
    return t


def _seat(rnd, entry_id):
    return Seat.objects.get(round=rnd, entry_id=entry_id)


def _partnerships(match):
    match = Match.objects.select_related("home", "away").get(pk=match.pk)
    return {
        frozenset((match.home.player_a_id, match.home.player_b_id)),
        frozenset((match.away.player_a_id, match.away.player_b_id)),
    }


def test_two_players_at_different_tables_change_seats_and_partners(event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    north1 = Seat.objects.get(round=rnd, table=1, seat=SeatName.NORTH)
    east2 = Seat.objects.get(round=rnd, table=2, seat=SeatName.EAST)
    south1 = Seat.objects.get(round=rnd, table=1, seat=SeatName.SOUTH)
    west2 = Seat.objects.get(round=rnd, table=2, seat=SeatName.WEST)

    services.swap_in_round(actor=organiser, round=rnd, first=north1.entry_id, second=east2.entry_id)

    moved = _seat(rnd, north1.entry_id)
    assert (moved.table, moved.seat, moved.match_id) == (2, SeatName.EAST, east2.match_id)
    assert _seat(rnd, east2.entry_id).seat == SeatName.NORTH
    player = {s.entry_id: s.entry.player_id for s in (north1, east2, south1, west2)}
    assert frozenset((player[east2.entry_id], player[south1.entry_id])) in _partnerships(north1.match)
    assert frozenset((player[north1.entry_id], player[west2.entry_id])) in _partnerships(east2.match)
    row = AuditEntry.objects.get(action="round.swap")
    assert [north1.entry_id, "N", 1] in row.before["seats"] and [north1.entry_id, "E", 2] in row.after[
        "seats"
    ]


def test_the_player_sitting_out_swaps_with_a_seated_one(event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    out = Seat.objects.get(round=rnd, seat=SeatName.BYE)
    west3 = Seat.objects.get(round=rnd, table=2, seat=SeatName.WEST)

    services.swap_in_round(actor=organiser, round=rnd, first=out.entry_id, second=west3.entry_id)

    assert _seat(rnd, west3.entry_id).seat == SeatName.BYE and _seat(rnd, west3.entry_id).match_id is None
    came_in = _seat(rnd, out.entry_id)
    assert (came_in.seat, came_in.table, came_in.match_id) == (SeatName.WEST, 2, west3.match_id)
    match = Match.objects.select_related("away").get(pk=west3.match_id)
    assert out.entry.player_id in (match.away.player_a_id, match.away.player_b_id)


PARTNER_SEAT = {"N": "S", "S": "N", "E": "W", "W": "E"}


def test_a_repeated_partnership_warns_until_accepted(event, organiser):
    r1 = services.pair_next_round(actor=organiser, tournament=event)
    partner_in_1 = {
        s.entry_id: Seat.objects.get(round=r1, match=s.match, seat=PARTNER_SEAT[s.seat]).entry_id
        for s in Seat.objects.filter(round=r1).exclude(seat=SeatName.BYE)
    }
    play_round(r1, organiser)
    r2 = services.pair_next_round(actor=organiser, tournament=event)
    for seat in Seat.objects.filter(round=r2).exclude(seat=SeatName.BYE):
        old_partner = partner_in_1.get(seat.entry_id)
        partner_now = Seat.objects.get(round=r2, match=seat.match, seat=PARTNER_SEAT[seat.seat])
        if old_partner and _seat(r2, old_partner).match_id != seat.match_id:
            break
    else:
        raise AssertionError("no player of round 2 has his round-1 partner at another table")

    with pytest.raises(services.PairingWarning, match="have partnered before"):
        services.swap_in_round(actor=organiser, round=r2, first=partner_now.entry_id, second=old_partner)
    assert _seat(r2, old_partner).match_id != seat.match_id  # nothing changed

    services.swap_in_round(
        actor=organiser, round=r2, first=partner_now.entry_id, second=old_partner, accept=True
    )
    assert _seat(r2, old_partner).match_id == seat.match_id
    assert _seat(r2, old_partner).seat == PARTNER_SEAT[seat.seat]


def test_unpairing_removes_the_tables_seats_and_partnerships(event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    partnerships = {e for m in rnd.matches.all() for e in (m.home_id, m.away_id)}

    services.unpair_round(actor=organiser, round=rnd)

    assert not Seat.objects.filter(round_id=rnd.pk).exists()
    assert not Entry.objects.filter(pk__in=partnerships).exists()
    again = services.pair_next_round(actor=organiser, tournament=event)
    assert again.seats.count() == 9


def test_the_round_page_offers_the_players_to_swap(client, event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    assert client.login(username=organiser.username, password=PASSWORD)
    text = client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode()
    assert "Swap two players" in text
    out = Seat.objects.select_related("entry__player").get(round=rnd, seat=SeatName.BYE)
    assert f'<option value="{out.entry_id}">Bye · {out.entry.player.display_name}</option>' in text


def test_a_table_renumbered_moves_its_players_seats_with_it(event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    first = rnd.matches.get(table=1)

    services.set_table_number(actor=organiser, match=first, table=5)

    assert set(Seat.objects.filter(match=first).values_list("table", flat=True)) == {5}
    assert set(Seat.objects.filter(round=rnd, seat=SeatName.BYE).values_list("table", flat=True)) == {0}
