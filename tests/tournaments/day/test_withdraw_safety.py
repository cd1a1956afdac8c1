"""A tap must not undo a tournament: withdrawals keep reported results, players ask to leave,
the dashboard lists only tables that are really stuck, and late corrections need a reason."""

import datetime
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tournaments import services
from tournaments.models import (
    IndividualEntry,
    Match,
    MatchStatus,
    Notification,
    RequestStatus,
    Round,
    Seat,
    WithdrawalRequest,
)
from tournaments.selectors import day as day_selectors

from ..conftest import make_players, play_round, player_with_account

pytestmark = pytest.mark.django_db


def _reported_win(swiss8, organiser):
    """Round 1 paired; the away pair of table 1 reports its 9:12 win (not yet confirmed)."""
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=1)
    away_user = m.away.player_a.user
    services.enter_result(actor=away_user, match=m, home_eyes=9, away_eyes=12)
    return m, m.away, away_user


def test_the_organisers_withdrawal_keeps_a_reported_result(swiss8, organiser):
    m, pair, _user = _reported_win(swiss8, organiser)
    other = Match.objects.get(round=m.round, table=2)
    services.enter_result(actor=organiser, match=other, home_eyes=12, away_eyes=4)

    services.withdraw_entry(actor=organiser, entry=pair)

    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes, m.status, m.forfeit) == (9, 12, MatchStatus.UNCONFIRMED, False)
    assert not m.corrections.exists()
    pair.refresh_from_db()
    assert pair.status == "withdrawn"


def test_a_withdrawal_forfeits_only_the_unplayed_match(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=3)
    services.withdraw_entry(actor=organiser, entry=m.home)
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes, m.forfeit, m.status) == (0, 12, True, MatchStatus.CONFIRMED)


def test_a_player_cannot_withdraw_his_pair_once_round_1_is_paired(swiss8, organiser):
    m, pair, user = _reported_win(swiss8, organiser)
    with pytest.raises(ValidationError, match="ask the organiser"):
        services.withdraw_entry(actor=user, entry=pair)
    pair.refresh_from_db()
    m.refresh_from_db()
    assert pair.status == "approved"
    assert (m.home_eyes, m.away_eyes, m.status) == (9, 12, MatchStatus.UNCONFIRMED)


def test_a_player_still_withdraws_himself_before_round_1(swiss8):
    pair = swiss8.entries.first()
    services.withdraw_entry(actor=pair.player_a.user, entry=pair)
    pair.refresh_from_db()
    assert pair.status == "withdrawn"


def test_a_players_ask_reaches_the_organiser_who_grants_it(swiss8, organiser):
    m, pair, user = _reported_win(swiss8, organiser)
    ask = services.ask_to_withdraw(actor=user, entry=pair)
    assert services.ask_to_withdraw(actor=user, entry=pair).pk == ask.pk  # asking twice: one ask
    note = Notification.objects.get(user=organiser, kind="withdrawal_request")
    assert pair.name in note.text and "/day/" in note.url
    assert day_selectors.withdrawal_requests(tournament=swiss8) == [ask]
    pair.refresh_from_db()
    assert pair.status == "approved"  # nothing changes until the organiser answers

    services.answer_withdrawal_request(actor=organiser, ask=ask, grant=True)

    pair.refresh_from_db()
    m.refresh_from_db()
    ask.refresh_from_db()
    assert pair.status == "withdrawn" and ask.status == RequestStatus.GRANTED
    assert (m.home_eyes, m.away_eyes, m.status) == (9, 12, MatchStatus.UNCONFIRMED)
    assert Notification.objects.filter(
        user=user, kind="withdrawal_answer", text__contains="withdrawn"
    ).exists()
    assert day_selectors.withdrawal_requests(tournament=swiss8) == []
    with pytest.raises(ValidationError, match="already been answered"):
        services.answer_withdrawal_request(actor=organiser, ask=ask, grant=False)


def test_a_declined_ask_changes_nothing_and_the_player_is_told(swiss8, organiser):
    _m, pair, user = _reported_win(swiss8, organiser)
    ask = services.ask_to_withdraw(actor=user, entry=pair)
    services.answer_withdrawal_request(actor=organiser, ask=ask, grant=False)
    pair.refresh_from_db()
    assert pair.status == "approved"
    assert Notification.objects.filter(
        user=user, kind="withdrawal_answer", text__contains="declined"
    ).exists()


def test_only_the_organiser_answers_an_ask(swiss8, organiser):
    from django.core.exceptions import PermissionDenied

    _m, pair, user = _reported_win(swiss8, organiser)
    ask = services.ask_to_withdraw(actor=user, entry=pair)
    with pytest.raises(PermissionDenied):
        services.answer_withdrawal_request(actor=user, ask=ask, grant=True)


@pytest.fixture
def individual(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Индивидуалка", starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss", swiss_rounds=3,
    )  # fmt: skip
    me = player_with_account(club, "solo")
    for p in [me, *make_players(club, 7, "Игрок")]:
        services.register_player(actor=organiser, tournament=t, player=p)
    return t, IndividualEntry.objects.get(tournament=t, player=me)


def test_withdrawing_a_player_keeps_his_reported_table(individual, organiser):
    t, mine = individual
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    seat = Seat.objects.get(round=rnd, entry=mine)
    m = seat.match
    services.enter_result(actor=mine.player.user, match=m, home_eyes=9, away_eyes=12)
    with pytest.raises(ValidationError, match="ask the organiser"):
        services.withdraw_player(actor=mine.player.user, entry=mine)

    ask = services.ask_to_withdraw(actor=mine.player.user, entry=mine)
    services.answer_withdrawal_request(actor=organiser, ask=ask, grant=True)

    m.refresh_from_db()
    mine.refresh_from_db()
    seat.refresh_from_db()
    assert mine.status == "withdrawn"
    assert (m.home_eyes, m.away_eyes, m.status, m.forfeit, seat.absent) == (
        9,
        12,
        "unconfirmed",
        False,
        False,
    )
    assert WithdrawalRequest.objects.get(pk=ask.pk).status == RequestStatus.GRANTED


def test_right_after_pairing_no_table_is_stuck(swiss8, organiser, settings):
    settings.TOURNAMENTS_STUCK_AFTER_MINUTES = 45
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    assert day_selectors.stuck_matches(tournament=swiss8) == []
    later = timezone.now() + timedelta(minutes=46)
    assert len(day_selectors.stuck_matches(tournament=swiss8, now=later)) == 4
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert len(day_selectors.stuck_matches(tournament=swiss8)) == 4


def test_a_table_with_a_reported_result_is_never_stuck(swiss8, organiser):
    _m, _pair, _user = _reported_win(swiss8, organiser)
    later = timezone.now() + timedelta(hours=2)
    assert len(day_selectors.stuck_matches(tournament=swiss8, now=later)) == 3


def test_correcting_after_later_rounds_needs_a_reason_and_names_the_pairings(swiss8, organiser):
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    services.pair_next_round(actor=organiser, tournament=swiss8)
    m = Match.objects.get(round__number=1, table=1, tournament=swiss8)
    with pytest.raises(ValidationError, match="Write the reason"):
        services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12, reason="  ")
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (12, 7)

    later = day_selectors.later_pairings(match=m)
    assert len(later) == 2 and {x.round.number for x in later} == {2}
    assert all({x.home_id, x.away_id} & {m.home_id, m.away_id} for x in later)

    services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12, reason="sheet misread")
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (5, 12)
    assert m.corrections.get().reason == "sheet misread"


def test_a_correction_of_a_confirmed_result_always_needs_a_reason(swiss8, organiser):
    """Even in the last round paired (no later pairing rests on it), a confirmed result is changed
    only with a written reason, kept with the match."""
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    m = Match.objects.get(round__number=1, table=1, tournament=swiss8)
    for blank in ("", "   "):
        with pytest.raises(ValidationError, match="Write the reason for the correction"):
            services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12, reason=blank)
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (12, 7) and not m.corrections.exists()
    services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12, reason="sheet misread")
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (5, 12)
    assert m.corrections.get().reason == "sheet misread"


def test_a_result_not_yet_confirmed_in_the_last_round_is_set_without_a_reason(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = Match.objects.get(round=rnd, table=1)
    services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12)
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (5, 12)


def test_withdrawing_a_pair_directly_answers_its_waiting_ask(swiss8, organiser):
    _m, pair, user = _reported_win(swiss8, organiser)
    ask = services.ask_to_withdraw(actor=user, entry=pair)
    services.withdraw_entry(actor=organiser, entry=pair)
    ask.refresh_from_db()
    assert ask.status == RequestStatus.GRANTED
    assert day_selectors.withdrawal_requests(tournament=swiss8) == []


def test_the_match_page_and_the_api_cannot_correct_a_confirmed_result_without_a_reason(
    swiss8, organiser, client
):
    """The page asks for the reason (its field is required) and refuses a correction without one,
    for the final score and for the deal-by-deal sheet; the API corrects nothing of a confirmed
    result (the organiser corrects on the page)."""
    from clubs import services as club_services
    from clubs.models import TokenScope

    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    m = Match.objects.get(round__number=1, table=1, tournament=swiss8)
    client.force_login(organiser)
    page = client.get(m.get_absolute_url()).content.decode()
    assert 'name="reason" id="id_reason" maxlength="300" required' in page
    sheet = {"deal-1-home": "120", "deal-1-away": "0", "deal-1-jack": "1", "deal-1-all": "1"}
    for data in ({"action": "final", "final-home_eyes": "5", "final-away_eyes": "12", "reason": " "},
                 {"action": "deals", "reason": "", **sheet}):
        answer = client.post(m.get_absolute_url(), data, follow=True).content.decode()
        assert "Write the reason for the correction" in answer
        m.refresh_from_db()
        assert (m.home_eyes, m.away_eyes) == (12, 7) and not m.corrections.exists()
    _token, key = club_services.create_token(
        actor=organiser, name="w", scope=TokenScope.WRITE, clubs=[swiss8.club]
    )
    answer = client.post(f"/api/v1/matches/{m.pk}/result/", {"home_eyes": 5, "away_eyes": 12},
                         content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert answer.status_code == 409 and "already confirmed" in answer.json()["detail"]
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes) == (12, 7)
