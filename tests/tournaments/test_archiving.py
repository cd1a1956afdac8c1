"""Tournament matches in the game's archive: archived when final, updated when corrected, removed
with their result, public once their round is over; who really sat is resolved."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command

from archive.models import ArchivedMatch
from clubs.services.merging import merge_players
from tests.clubs.factories import PlayerFactory
from tournaments import services
from tournaments.models import Match, Seat

from .conftest import make_players, play_round, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(cup):
    return cup


@pytest.fixture
def match(cup_match):
    return cup_match


SHEET = [
    {"points": (70, 50), "jack_holder": 0},
    {"points": (60, 60), "jack_holder": 1},
    {"points": (30, 90), "jack_holder": 0},
    {"points": (120, 0), "jack_holder": 0, "all_tricks": 0},
]


def test_a_sheet_entered_by_the_organiser_is_archived_with_its_deals(match, organiser):
    services.enter_result(actor=organiser, match=match, deals=SHEET)
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert archived.source == "tournament" and not archived.has_record
    assert (archived.ns_eyes, archived.ew_eyes, archived.winner) == (12, 6, "NS")
    assert archived.round_number == 1 and archived.event_name == "Кубок Успенки"
    deals = list(archived.deals.order_by("number"))
    assert [d.outcome for d in deals] == [line.outcome for line in match.deals.order_by("number")]
    assert [(d.ns_points, d.ew_points) for d in deals] == [(70, 50), (60, 60), (30, 90), (120, 0)]
    assert [d.pair_on_duty for d in deals] == [0, 1, 0, 0]
    names = {s.seat: s.player_id for s in archived.seats.all()}
    assert {names[0], names[2]} == {match.home.player_a_id, match.home.player_b_id}
    assert {names[1], names[3]} == {match.away.player_a_id, match.away.player_b_id}
    assert archived.played_at == match.round.created_at  # the organiser's entry came later


def test_a_players_report_waits_for_the_confirmation(match, club):
    asel = match.home.player_a.user if match.home.player_a.user else match.away.player_a.user
    services.enter_result(actor=asel, match=match, home_eyes=12, away_eyes=7)
    assert not ArchivedMatch.objects.exists()
    match.refresh_from_db()
    other = match.away if match.reported_side == "home" else match.home
    services.confirm_result(actor=other.player_a.user, match=match)
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert archived.played_at == match.reported_at  # reported at the table, so played then


def test_the_organiser_entering_a_disputed_result_again_keeps_when_it_was_played(match, organiser):
    """The players reported at the table; the other pair disputed; the organiser entered the sheet
    days later. The match was played when the players reported it, not at the round's pairing, and
    a correction after that keeps the time too."""
    asel = match.home.player_a.user if match.home.player_a.user else match.away.player_a.user
    services.enter_result(actor=asel, match=match, home_eyes=12, away_eyes=7)
    match.refresh_from_db()
    at_the_table = match.reported_at
    other = match.away if match.reported_side == "home" else match.home
    services.dispute_result(actor=other.player_a.user, match=match, note="we won 12:7")
    at_the_table -= datetime.timedelta(hours=1)  # an hour before the organiser's entry
    Match.objects.filter(pk=match.pk).update(reported_at=at_the_table, played_at=at_the_table)
    services.enter_result(actor=organiser, match=match, home_eyes=7, away_eyes=12)
    match.refresh_from_db()
    assert match.reported_side == "organiser" and match.reported_at > at_the_table
    assert ArchivedMatch.objects.get(tournament_match=match.pk).played_at == at_the_table
    services.correct_result(actor=organiser, match=match, home_eyes=12, away_eyes=9, reason="sheet")
    assert ArchivedMatch.objects.get(tournament_match=match.pk).played_at == at_the_table


def test_a_correction_updates_the_archived_match_and_a_forfeit_has_no_deals(match, organiser):
    services.enter_result(actor=organiser, match=match, deals=SHEET)
    first = ArchivedMatch.objects.get(tournament_match=match.pk)
    services.correct_result(actor=organiser, match=match, home_eyes=5, away_eyes=12, reason="sheet misread")
    again = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert again.pk == first.pk and (again.ns_eyes, again.ew_eyes, again.winner) == (5, 12, "EW")
    assert again.deals.count() == 0
    services.record_forfeit(actor=organiser, match=match, loser=match.away)
    forfeit = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert forfeit.reason == "forfeit" and forfeit.winner == "NS" and forfeit.deals.count() == 0
    assert forfeit.reason_seat in (1, 3)


def test_byes_are_not_matches_and_a_round_over_opens_its_matches(club, organiser, swiss):
    register_pairs(swiss, organiser, 5)
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    assert rnd.matches.filter(bye=True).exists()
    first = rnd.matches.filter(bye=False).order_by("table").first()
    services.enter_result(actor=organiser, match=first, home_eyes=12, away_eyes=3)
    assert ArchivedMatch.objects.get(tournament_match=first.pk).public is False  # round still on
    play_round(rnd, organiser)
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    assert ArchivedMatch.objects.count() == rnd.matches.filter(bye=False).count() == 2
    assert set(ArchivedMatch.objects.values_list("public", flat=True)) == {True}


def test_a_match_row_deleted_takes_its_archived_match(match, organiser):
    """Confirmed results are never unpaired; a match row removed all the same (the admin) leaves no
    archived match behind."""
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=2)
    assert ArchivedMatch.objects.count() == 1
    type(match).objects.filter(pk=match.pk).delete()
    assert not ArchivedMatch.objects.exists()


def test_a_substitute_is_archived_where_he_sat(club, organiser, swiss, match):
    sub = PlayerFactory(display_name="Запасной")
    from clubs.models import ClubPlayer

    ClubPlayer.objects.create(club=club, player=sub, added_as=sub.display_name)
    services.substitute(actor=organiser, entry=match.home, round=match.round,
                        player_out=match.home.player_b, player_in=sub)
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=4)
    players = set(ArchivedMatch.objects.get().seats.values_list("player_id", flat=True))
    assert sub.pk in players and match.home.player_b_id not in players


def test_an_individual_event_keeps_its_seats(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Личный",
                                   starts_on=datetime.date(2026, 11, 7), format="ind_swiss", swiss_rounds=2)
    for p in make_players(club, 8):
        services.register_player(actor=organiser, tournament=t, player=p)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.filter(bye=False).first()
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=9)
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    chairs = {s.seat: s.entry.player_id for s in Seat.objects.filter(match=match)}
    assert {a.seat: a.player_id for a in archived.seats.all()} == {
        "NESW".index(letter): pid for letter, pid in chairs.items()
    }


def test_merging_two_players_moves_their_archived_matches(club, organiser, match, owner):
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=2)
    source = match.home.player_a
    twin = PlayerFactory(display_name="Двойник")
    from clubs.models import ClubPlayer

    ClubPlayer.objects.create(club=club, player=twin, added_as=twin.display_name)
    if source.user_id:  # two accounts cannot merge: fold the account-less twin into him
        merge_players(actor=owner, club=club, source=twin, target=source)
        assert ArchivedMatch.objects.get().seats.filter(player=source).exists()
    else:
        merge_players(actor=owner, club=club, source=source, target=twin)
        assert ArchivedMatch.objects.get().seats.filter(player=twin).exists()


def test_the_archive_check_finds_a_planted_mismatch(match, organiser, capsys):
    from gameplay.engine import write_record
    from gameplay.engine.selfplay import bot_match

    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=2)
    state = bot_match(seed=5)
    archived = ArchivedMatch.objects.get()
    # the organiser's entry says the other pair won: the record of some other match was attached
    loser = "EW" if state.winner == 0 else "NS"
    ArchivedMatch.objects.filter(pk=archived.pk).update(record=write_record(state), has_record=True,
                                                         winner=loser)
    with pytest.raises(CommandError) as failure:
        call_command("archive_check")
    assert failure.value.returncode == 1
    out = capsys.readouterr()
    assert f"archived match {archived.pk}" in out.out and "1 disagree" in out.out
