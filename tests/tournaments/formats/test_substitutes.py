"""Substitutes in individual events on the real database: seats passed on, games credited, refusals, pages."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import AuditEntry
from tournaments import selectors, services
from tournaments.core.movement import movement
from tournaments.models import EntryStatus, Seat, SeatName

from ..conftest import make_players, play_round

pytestmark = pytest.mark.django_db


def _event(club, organiser, fmt="ind_movement", players=8, rounds=4):
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Личный турнир",
        starts_on=datetime.date(2026, 12, 12),
        format=fmt,
        swiss_rounds=rounds,
        seeding="manual",
    )
    entries = [
        services.register_player(actor=organiser, tournament=t, player=p) for p in make_players(club, players)
    ]
    return t, entries


def _line(table, entry):
    return next(line for line in table.lines if line.entry.pk == entry.pk)


def test_a_substitute_plays_the_seats_of_a_player_who_left_and_each_is_credited_his_own_games(
    club, organiser, client
):
    t, entries = _event(club, organiser)
    leaver = entries[2]
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    r2 = services.pair_next_round(actor=organiser, tournament=t)
    seat_r2 = Seat.objects.get(round=r2, entry=leaver)
    newcomer = make_players(club, 1, "Запасной")[0]
    sub = services.substitute_player(actor=organiser, entry=leaver, from_round=2, player=newcomer)
    # round 2 is already seated: the seat and the table's partnership pass to the substitute
    seat = Seat.objects.get(pk=seat_r2.pk)
    assert seat.entry_id == sub.pk and seat.table == seat_r2.table and seat.seat == seat_r2.seat
    pair = seat.match.home if seat.seat in (SeatName.NORTH, SeatName.SOUTH) else seat.match.away
    assert newcomer.pk in (pair.player_a_id, pair.player_b_id)
    assert leaver.player_id not in (pair.player_a_id, pair.player_b_id)
    leaver.refresh_from_db()
    assert (leaver.status, leaver.withdrawn_after_round) == (EntryStatus.WITHDRAWN, 1)
    play_round(r2, organiser)
    # later rounds seat him exactly where the movement had the player who left
    expected = movement([e.pk for e in entries], rounds=4)
    for number in (3, 4):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        planned = expected[number - 1]
        seated = {s.entry_id: (s.table, s.seat) for s in Seat.objects.filter(round=rnd)}
        assert sub.pk in seated and leaver.pk not in seated
        for table_no, table in enumerate(planned.tables, start=1):
            for pid in table.players:
                assert seated[sub.pk if pid == leaver.pk else pid][0] == table_no
        play_round(rnd, organiser)
    t.refresh_from_db()
    table = selectors.standings(tournament=t)
    assert _line(table, leaver).row.played == 1, "the player who left keeps his round 1"
    assert _line(table, leaver).row.withdrawn
    assert _line(table, sub).row.played == 3, "the substitute has rounds 2 to 4"
    log = AuditEntry.objects.get(action="individual.substitute")
    assert log.after["from_round"] == 2 and log.after["in"] == newcomer.pk
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "substitute" in page and f"for {leaver.player.display_name} from round 2" in page


def test_a_new_name_comes_in_from_the_next_round_and_the_refusals_say_why(club, organiser):
    t, entries = _event(club, organiser, fmt="ind_swiss", players=8, rounds=3)
    leaver = entries[5]
    with pytest.raises(ValidationError, match="running event"):
        services.substitute_player(actor=organiser, entry=leaver, from_round=1, name="Новый Игрок")
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    play_round(r1, organiser)
    with pytest.raises(ValidationError, match="already in this event"):
        services.substitute_player(actor=organiser, entry=leaver, from_round=2, player=entries[0].player)
    with pytest.raises(ValidationError, match="round 1 already has a confirmed result"):
        services.substitute_player(actor=organiser, entry=leaver, from_round=1, name="Новый Игрок")
    with pytest.raises(ValidationError, match="from 1 to 2"):
        services.substitute_player(actor=organiser, entry=leaver, from_round=3, name="Новый Игрок")
    assert t.individual_entries.count() == 8, "a refusal changes nothing"
    services.withdraw_player(actor=organiser, entry=leaver)  # he left between rounds
    sub = services.substitute_player(actor=organiser, entry=leaver, from_round=2, name="  Новый   Игрок ")
    assert sub.player.display_name == "Новый Игрок" and sub.player.roster_entries.filter(club=club).exists()
    with pytest.raises(ValidationError, match="already been replaced by Новый Игрок"):
        services.substitute_player(actor=organiser, entry=leaver, from_round=2, name="Другой")
    r2 = services.pair_next_round(actor=organiser, tournament=t)
    assert Seat.objects.filter(round=r2, entry=sub).exists()
    assert not Seat.objects.filter(round=r2, entry=leaver).exists()


def test_the_organiser_puts_a_substitute_in_from_the_players_page(club, organiser, client):
    namesake = make_players(club, 1, "Игрок")[0]  # "Игрок 1" on the roster twice: one is not entered
    t, entries = _event(club, organiser)
    assert namesake.display_name == entries[0].player.display_name
    services.pair_next_round(actor=organiser, tournament=t)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    url = reverse("tournaments:player_substitute", args=[t.slug, entries[1].pk])
    assert url in page
    form = client.get(url).content.decode()
    assert 'name="from_round"' in form and 'value="1"' in form
    answer = client.post(url, {"from_round": "1", "name": " игрок   1 "}, follow=True)
    assert "already in this event" in answer.content.decode()
    answer = client.post(url, {"from_round": "1", "name": "Серик Запасной"}, follow=True)
    assert "The substitute is in." in answer.content.decode()
    assert t.individual_entries.get(player__display_name="Серик Запасной").substitute_for_id == entries[1].pk
