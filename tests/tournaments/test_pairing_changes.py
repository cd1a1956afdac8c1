"""The organiser's pairing controls, pairs events: unpair the last round, swap pairs, move a bye, renumber."""

from html import escape

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services, tasks
from tournaments.models import Match, MatchStatus, Notification, TournamentStatus

from .conftest import play_round
from .day.conftest import swiss_with_accounts

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, organiser):
    return swiss_with_accounts(club, organiser, 8, auto_pair=False)


@pytest.fixture
def swiss7(club, organiser):
    return swiss_with_accounts(club, organiser, 7, name="Нечётная швейцарка", auto_pair=False)


def _round2(t, organiser):
    services.pair_next_round(actor=organiser, tournament=t)
    play_round(t.rounds.get(number=1), organiser)
    return services.pair_next_round(actor=organiser, tournament=t)


def _player_report(match):
    """A player of the home pair reports 12:9; it waits for the other pair."""
    user = match.home.player_a.user
    return services.enter_result(actor=user, match=match, home_eyes=12, away_eyes=9)


def _login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


# --- unpairing -----------------------------------------------------------------------------------


def test_the_last_round_is_unpaired_and_paired_again(swiss, organiser):
    rnd = _round2(swiss, organiser)
    tables = [(m.home_id, m.away_id) for m in rnd.matches.order_by("table")]

    assert services.unpair_round(actor=organiser, round=rnd) == 2

    assert list(swiss.rounds.values_list("number", flat=True)) == [1]
    assert not Match.objects.filter(round_id=rnd.pk).exists()
    row = AuditEntry.objects.get(action="round.unpair")
    assert row.before["number"] == 2 and [m[1:3] for m in row.before["matches"]] == [list(t) for t in tables]
    again = services.pair_next_round(actor=organiser, tournament=swiss)
    assert again.number == 2 and again.matches.count() == 4


def test_each_player_is_told_that_the_pairings_were_withdrawn(swiss, organiser):
    rnd = _round2(swiss, organiser)
    services.unpair_round(actor=organiser, round=rnd)
    notes = Notification.objects.filter(kind="tournament.pairing_changed")
    assert notes.count() == 16
    assert "round 2" in notes.first().text and "withdrew" in notes.first().text


def test_unpairing_round_one_goes_back_to_before_the_start(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    services.unpair_round(actor=organiser, round=rnd)
    swiss.refresh_from_db()
    assert swiss.status == TournamentStatus.REGISTRATION and not swiss.rounds.exists()
    assert services.pair_next_round(actor=organiser, tournament=swiss).number == 1


def test_a_round_with_a_confirmed_result_is_not_unpaired(swiss, organiser):
    rnd = _round2(swiss, organiser)
    match = rnd.matches.get(table=3)
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=4)
    with pytest.raises(ValidationError, match="confirmed results .tables 3"):
        services.unpair_round(actor=organiser, round=rnd)
    assert rnd.matches.count() == 4


def test_only_the_last_round_is_unpaired(swiss, organiser):
    _round2(swiss, organiser)
    with pytest.raises(ValidationError, match="Only the last round can be unpaired: round 2 comes after it"):
        services.unpair_round(actor=organiser, round=swiss.rounds.get(number=1))


def test_a_reported_result_is_discarded_only_once_the_organiser_saw_it(swiss, organiser):
    rnd = _round2(swiss, organiser)
    match = _player_report(rnd.matches.get(table=2))
    assert match.status == MatchStatus.UNCONFIRMED
    with pytest.raises(ValidationError, match="reported at table 2 since you looked"):
        services.unpair_round(actor=organiser, round=rnd)
    assert Match.objects.filter(pk=match.pk, home_eyes=12).exists()

    services.unpair_round(actor=organiser, round=rnd, discard={match.pk})
    assert not Match.objects.filter(pk=match.pk).exists()
    discarded = AuditEntry.objects.get(action="round.unpair").before["discarded"]
    assert discarded == [
        {
            "match": match.pk,
            "table": 2,
            "home_eyes": 12,
            "away_eyes": 9,
            "winner_id": match.home_id,
            "forfeit": False,
            "status": "unconfirmed",
        }
    ]


def test_the_confirm_page_shows_what_goes_and_removes_nothing(client, swiss, organiser):
    rnd = _round2(swiss, organiser)
    reported = _player_report(rnd.matches.get(table=2))
    _login(client, organiser)
    url = reverse("tournaments:unpair", kwargs={"slug": swiss.slug, "number": 2})

    page = client.get(url)

    assert page.status_code == 200
    text = page.content.decode()
    assert "Unpair round 2?" in text and "Reported results that will be discarded" in text
    assert escape(reported.home.name) in text and f'name="discard" value="{reported.pk}"' in text
    assert rnd.matches.count() == 4

    done = client.post(url, {"discard": [str(reported.pk)]}, follow=True)
    assert done.redirect_chain[-1][0] == reverse(
        "tournaments:round", kwargs={"slug": swiss.slug, "number": 1}
    )
    assert "Round 2 is unpaired" in done.content.decode()
    assert not swiss.rounds.filter(number=2).exists()


def test_the_confirm_page_refuses_a_result_reported_after_it_was_shown(client, swiss, organiser):
    rnd = _round2(swiss, organiser)
    _login(client, organiser)
    url = reverse("tournaments:unpair", kwargs={"slug": swiss.slug, "number": 2})
    client.get(url)
    _player_report(rnd.matches.get(table=4))  # while the organiser reads the page

    answer = client.post(url, follow=True)

    assert "reported at table 4 since you looked" in answer.content.decode()
    assert swiss.rounds.filter(number=2).exists()


def test_a_player_cannot_unpair(client, swiss, organiser):
    rnd = _round2(swiss, organiser)
    player = rnd.matches.first().home.player_a.user
    _login(client, player)
    url = reverse("tournaments:unpair", kwargs={"slug": swiss.slug, "number": 2})
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert swiss.rounds.filter(number=2).exists()


# --- swapping, byes, table numbers --------------------------------------------------------------


def test_two_pairs_swap_tables_audited_and_told(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    tasks.notify_round_paired(rnd.pk)  # what the pairing's commit queues
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)

    services.swap_in_round(actor=organiser, round=rnd, first=one.home_id, second=two.away_id)

    row = AuditEntry.objects.get(action="round.swap")
    assert row.before["matches"] == [
        [one.pk, one.home_id, one.away_id, 1],
        [two.pk, two.home_id, two.away_id, 2],
    ]
    assert row.after["matches"] == [
        [one.pk, two.away_id, one.away_id, 1],
        [two.pk, two.home_id, one.home_id, 2],
    ]
    moved_to_one = Match.objects.get(pk=one.pk).home.player_a.user
    note = Notification.objects.get(user=moved_to_one, kind="tournament.pairing_changed")
    assert "round 1 was changed: table 1, NS, against" in note.text
    assert Notification.objects.filter(kind="tournament.pairing_changed").count() == 8  # the two tables


def test_a_swap_exchanges_exactly_the_two_pairs(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)
    a, b, c, d = one.home_id, one.away_id, two.home_id, two.away_id

    services.swap_in_round(actor=organiser, round=rnd, first=a, second=d)

    assert (rnd.matches.get(table=1).home_id, rnd.matches.get(table=1).away_id) == (d, b)
    assert (rnd.matches.get(table=2).home_id, rnd.matches.get(table=2).away_id) == (c, a)


def test_a_swap_that_makes_a_rematch_warns_until_accepted(swiss, organiser):
    rnd = _round2(swiss, organiser)
    first_round = swiss.rounds.get(number=1).matches.get(table=1)
    a, b = first_round.home_id, first_round.away_id  # they met in round 1
    at_a = (
        rnd.matches.get(home_id=a) if rnd.matches.filter(home_id=a).exists() else rnd.matches.get(away_id=a)
    )
    opponent_of_a = at_a.away_id if at_a.home_id == a else at_a.home_id

    with pytest.raises(services.PairingWarning, match="have played each other before"):
        services.swap_in_round(actor=organiser, round=rnd, first=opponent_of_a, second=b)
    assert not AuditEntry.objects.filter(action="round.swap").exists()

    services.swap_in_round(actor=organiser, round=rnd, first=opponent_of_a, second=b, accept=True)
    at_a.refresh_from_db()
    assert {at_a.home_id, at_a.away_id} == {a, b}
    assert "have played each other before" in AuditEntry.objects.get(action="round.swap").after["accepted"][0]


def test_the_bye_moves_to_another_pair(swiss7, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss7)
    tasks.notify_round_paired(rnd.pk)
    bye = rnd.matches.get(bye=True)
    had_bye, gets_bye = bye.home_id, rnd.matches.get(table=1).home_id

    services.swap_in_round(actor=organiser, round=rnd, first=had_bye, second=gets_bye)

    bye.refresh_from_db()
    assert bye.home_id == bye.winner_id == gets_bye and bye.status == MatchStatus.CONFIRMED
    assert rnd.matches.get(table=1).home_id == had_bye
    note = Notification.objects.filter(kind="tournament.pairing_changed", user=bye.home.player_a.user).get()
    assert "you now have a bye" in note.text


def test_a_second_bye_warns(swiss7, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss7)
    had_bye = rnd.matches.get(bye=True).home_id
    play_round(rnd, organiser)
    rnd2 = services.pair_next_round(actor=organiser, tournament=swiss7)
    with pytest.raises(services.PairingWarning, match="already had a bye"):
        services.swap_in_round(
            actor=organiser, round=rnd2, first=rnd2.matches.get(bye=True).home_id, second=had_bye
        )


def test_the_pairing_stays_once_a_result_of_the_round_is_confirmed(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    services.enter_result(actor=organiser, match=rnd.matches.get(table=4), home_eyes=12, away_eyes=1)
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)
    with pytest.raises(ValidationError, match="confirmed results"):
        services.swap_in_round(actor=organiser, round=rnd, first=one.home_id, second=two.home_id)
    with pytest.raises(ValidationError, match="confirmed results"):
        services.set_table_number(actor=organiser, match=one, table=9)


def test_a_reported_table_is_not_swapped(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    one = _player_report(rnd.matches.get(table=1))
    with pytest.raises(ValidationError, match="Table 1 has a reported result"):
        services.swap_in_round(
            actor=organiser, round=rnd, first=one.home_id, second=rnd.matches.get(table=2).home_id
        )


def test_a_table_number_taken_by_another_table_is_exchanged(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    one, three = rnd.matches.get(table=1), rnd.matches.get(table=3)

    services.set_table_number(actor=organiser, match=one, table=3)
    services.set_table_number(actor=organiser, match=rnd.matches.get(table=2), table=12)

    assert Match.objects.get(pk=one.pk).table == 3 and Match.objects.get(pk=three.pk).table == 1
    assert sorted(rnd.matches.values_list("table", flat=True)) == [1, 3, 4, 12]
    row = AuditEntry.objects.filter(action="round.table_number").first()
    assert row.before and row.after
    with pytest.raises(ValidationError, match="from 1 to 999"):
        services.set_table_number(actor=organiser, match=one, table=0)


# --- the pages -----------------------------------------------------------------------------------


def test_the_round_page_offers_the_controls_to_the_organiser_only(client, swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    url = reverse("tournaments:round", kwargs={"slug": swiss.slug, "number": 1})
    assert "Change the pairing" not in client.get(url).content.decode()
    _login(client, organiser)
    text = client.get(url).content.decode()
    assert "Change the pairing" in text and "Unpair round 1…" in text
    assert escape(rnd.matches.get(table=1).home.name) in text


def test_a_swap_through_the_page_warns_then_is_accepted(client, swiss, organiser):
    rnd = _round2(swiss, organiser)
    first_round = swiss.rounds.get(number=1).matches.get(table=1)
    a, b = first_round.home_id, first_round.away_id
    at_a = (
        rnd.matches.get(home_id=a) if rnd.matches.filter(home_id=a).exists() else rnd.matches.get(away_id=a)
    )
    other = at_a.away_id if at_a.home_id == a else at_a.home_id
    _login(client, organiser)
    url = reverse("tournaments:swap", kwargs={"slug": swiss.slug, "number": 2})

    warned = client.post(url, {"first": other, "second": b})
    assert warned.status_code == 200
    assert "have played each other before" in warned.content.decode()
    assert 'name="accept" value="1"' in warned.content.decode()

    done = client.post(url, {"first": other, "second": b, "accept": "1"}, follow=True)
    assert "Swapped." in done.content.decode()
    at_a.refresh_from_db()
    assert {at_a.home_id, at_a.away_id} == {a, b}


def test_a_swap_without_two_choices_says_so(client, swiss, organiser):
    services.pair_next_round(actor=organiser, tournament=swiss)
    _login(client, organiser)
    url = reverse("tournaments:swap", kwargs={"slug": swiss.slug, "number": 1})
    answer = client.post(url, {"first": "", "second": "x"}, follow=True)
    assert "Choose the two to swap." in answer.content.decode()


def test_a_table_number_through_the_page(client, swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    one = rnd.matches.get(table=1)
    _login(client, organiser)
    url = reverse("tournaments:table_number", kwargs={"slug": swiss.slug, "number": 1})
    assert (
        "from 1 to 999" in client.post(url, {"match": one.pk, "table": "abc"}, follow=True).content.decode()
    )
    client.post(url, {"match": one.pk, "table": "7"})
    assert Match.objects.get(pk=one.pk).table == 7
