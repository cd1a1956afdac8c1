"""Running an event's rounds and settling its results with an organising key, through the round
and match pages' own services: each operation's answer and audit row; a results key or another
club's key refused; a retried "pair the next round" pairing once; a rematch refused with its
warnings until accepted; a correction that the standings follow."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Role
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.conftest import play_round, player_with_account, register_pairs
from tournaments import services
from tournaments.models import Match, MatchStatus, ResultCorrection, Round

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(organiser, swiss):
    """Four pairs entered, round 1 not paired yet."""
    register_pairs(swiss, organiser, 4)
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    return swiss


@pytest.fixture
def okey(club, organiser):
    return key_for(organiser, "organise", [club])


def _post(api, name, key, body=None, **kwargs):
    extra = kwargs.pop("headers", {})
    return api.post(reverse(f"api:{name}", kwargs=kwargs), body or {}, format="json", **bearer(key), **extra)


def _audited(action: str) -> int:
    return AuditEntry.objects.filter(action=action).count()


def _player_key(club, match, side: str) -> str:
    user = getattr(match, side).player_a.user
    return key_for(user, "write", [club])


# --- pairing the next round --------------------------------------------------------------------


def test_pair_next_answers_the_round_as_the_rounds_list_shows_it(api, okey, field):
    answer = _post(api, "round_pair_next", okey, slug=field.slug)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["number"] == 1 and len(answer.json()["matches"]) == 2
    listed = api.get(reverse("api:round_list", kwargs={"slug": field.slug})).json()
    assert listed == [answer.json()]
    assert _audited("round.pair") == 1


def test_a_retry_with_the_same_idempotency_key_pairs_once(api, okey, field):
    headers = {"HTTP_IDEMPOTENCY_KEY": "pair-round-1"}
    first = _post(api, "round_pair_next", okey, slug=field.slug, headers=headers)
    again = _post(api, "round_pair_next", okey, slug=field.slug, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Round.objects.filter(tournament=field).count() == 1 and _audited("round.pair") == 1


def test_without_a_key_a_second_pairing_is_refused_while_the_round_is_open(api, okey, field):
    assert _post(api, "round_pair_next", okey, slug=field.slug).status_code == 201
    again = _post(api, "round_pair_next", okey, slug=field.slug)
    assert again.status_code == 409 and "Round 1 is not complete" in again.json()["detail"]
    assert Round.objects.filter(tournament=field).count() == 1


# --- who may -----------------------------------------------------------------------------------

ORGANISING = [
    ("round_pair_next", lambda m: {"slug": m.tournament.slug}, {}),
    ("round_unpair", lambda m: {"slug": m.tournament.slug, "number": 1}, {"accept_warnings": True}),
    ("round_swap", lambda m: {"slug": m.tournament.slug, "number": 1}, None),
    ("match_table", lambda m: {"pk": m.pk}, {"table": 9}),
    ("match_correct", lambda m: {"pk": m.pk}, {"home_eyes": 12, "away_eyes": 3, "reason": "typo"}),
    ("match_forfeit", lambda m: {"pk": m.pk}, None),
    ("match_settle", lambda m: {"pk": m.pk}, {}),
]


def _body(body, match):
    if body is not None:
        return body
    return {"first": match.home_id, "second": match.away_id, "loser": match.away_id}


@pytest.mark.parametrize(("name", "where", "body"), ORGANISING, ids=[o[0] for o in ORGANISING])
def test_a_results_key_may_not_run_the_event(api, club, organiser, match, name, where, body):
    """Even the organiser's own key, made to enter results only."""
    key = key_for(organiser, "write", [club])
    before = AuditEntry.objects.count()
    answer = _post(api, name, key, _body(body, match), **where(match))
    assert answer.status_code == 403 and "may not run events" in answer.json()["detail"]
    assert AuditEntry.objects.count() == before


@pytest.mark.parametrize(("name", "where", "body"), ORGANISING, ids=[o[0] for o in ORGANISING])
def test_another_clubs_organising_key_is_refused(api, organiser, match, name, where, body):
    other = ClubFactory(name="Другой клуб", slug="drugoi")
    MembershipFactory(club=other, user=organiser, role=Role.ORGANISER)
    key = key_for(organiser, "organise", [other])
    ru = {"HTTP_ACCEPT_LANGUAGE": "ru"}
    answer = _post(api, name, key, _body(body, match), headers=ru, **where(match))
    assert (
        answer.status_code == 403
        and answer.json()["detail"] == "Этот ключ не может проводить турниры этого клуба."
    )


# --- unpairing, swapping, table numbers --------------------------------------------------------


def test_unpair_asks_before_losing_a_reported_result(api, club, okey, match):
    asel = match.home.player_a.user
    services.enter_result(actor=asel, match=match, home_eyes=12, away_eyes=5)
    asked = _post(api, "round_unpair", okey, slug=match.tournament.slug, number=1)
    assert asked.status_code == 409
    assert asked.json()["warnings"] == ["Table 1 has a reported result that is lost with the pairing."]
    assert Round.objects.filter(pk=match.round_id).exists()
    done = _post(api, "round_unpair", okey, {"accept_warnings": True}, slug=match.tournament.slug, number=1)
    assert done.status_code == 200 and done.json() == {"number": 1}
    assert not Round.objects.filter(pk=match.round_id).exists() and _audited("round.unpair") == 1


def test_unpair_refuses_a_round_with_a_confirmed_result(api, okey, organiser, match):
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=5)
    answer = _post(api, "round_unpair", okey, {"accept_warnings": True}, slug=match.tournament.slug, number=1)
    assert answer.status_code == 409 and "confirmed results" in answer.json()["detail"]


def test_a_rematch_swap_is_refused_with_its_warnings_until_accepted(api, okey, organiser, match):
    swiss = match.tournament
    play_round(match.round, organiser)  # the home pairs win round 1
    second = services.pair_next_round(actor=organiser, tournament=swiss)
    winners = second.matches.get(table=1)  # round 1's two winners
    losers = second.matches.get(table=2)
    body = {"first": winners.away_id, "second": losers.home_id}  # back to round 1's pairings
    asked = _post(api, "round_swap", okey, body, slug=swiss.slug, number=2)
    assert asked.status_code == 409 and len(asked.json()["warnings"]) == 2
    assert all("have played each other before" in w for w in asked.json()["warnings"])
    assert asked.json()["detail"] == " ".join(asked.json()["warnings"])
    assert Match.objects.get(pk=winners.pk).away_id == winners.away_id and _audited("round.swap") == 0
    done = _post(api, "round_swap", okey, {**body, "accept_warnings": True}, slug=swiss.slug, number=2)
    assert done.status_code == 200
    assert Match.objects.get(pk=winners.pk).away_id == losers.home_id
    row = AuditEntry.objects.get(action="round.swap")
    assert len(row.after["accepted"]) == 2


def test_a_swap_with_the_pair_that_has_the_bye_moves_the_bye(api, okey, organiser, swiss):
    register_pairs(swiss, organiser, 5)
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    bye = rnd.matches.get(bye=True)
    playing = rnd.matches.filter(bye=False).first()
    body = {"first": bye.home_id, "second": playing.home_id}
    answer = _post(api, "round_swap", okey, body, slug=swiss.slug, number=1)
    assert answer.status_code == 200
    assert Match.objects.get(pk=bye.pk).home_id == playing.home_id
    assert [m["bye"] for m in answer.json()["matches"]].count(True) == 1


def test_a_table_gets_another_number(api, okey, match):
    answer = _post(api, "match_table", okey, {"table": 7}, pk=match.pk)
    assert answer.status_code == 200 and answer.json()["table"] == 7
    assert _audited("round.table_number") == 1
    bad = _post(api, "match_table", okey, {"table": 0}, pk=match.pk)
    assert bad.status_code == 400 and "table" in bad.json()["fields"]


# --- results: correcting, forfeits, disputes and settling them ---------------------------------


def _standings(api, swiss) -> dict[int, dict]:
    lines = api.get(reverse("api:standings", kwargs={"slug": swiss.slug})).json()["lines"]
    return {line["entry"]["id"]: line for line in lines}


def test_a_correction_needs_its_reason_and_the_standings_follow(api, club, okey, organiser, match):
    swiss = match.tournament
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=5)
    again = _post(api, "match_result", okey, {"home_eyes": 3, "away_eyes": 12}, pk=match.pk)
    assert again.status_code == 409 and f"/api/v1/matches/{match.pk}/correct/" in again.json()["detail"]
    before = _standings(api, swiss)
    assert before[match.home_id]["wins"] == 1 and before[match.away_id]["eyes_for"] == 5
    bare = _post(api, "match_correct", okey, {"home_eyes": 3, "away_eyes": 12}, pk=match.pk)
    assert bare.status_code == 409 and "reason" in bare.json()["detail"]
    body = {"home_eyes": 3, "away_eyes": 12, "reason": "Перепутали стороны"}
    done = _post(api, "match_correct", okey, body, pk=match.pk)
    assert done.status_code == 200 and done.json()["winner"] == "away"
    after = _standings(api, swiss)
    assert after[match.home_id]["wins"] == 0 and after[match.away_id]["wins"] == 1
    assert after[match.away_id]["eyes_for"] == 12
    assert _audited("match.correct") == 1
    assert ResultCorrection.objects.get(match=match).reason == "Перепутали стороны"


def test_a_forfeit_scores_the_loser_nil(api, okey, match):
    answer = _post(api, "match_forfeit", okey, {"loser": match.away_id, "reason": "не пришли"}, pk=match.pk)
    assert answer.status_code == 200
    shown = answer.json()
    assert (shown["home_eyes"], shown["away_eyes"], shown["forfeit"]) == (12, 0, True)
    assert ResultCorrection.objects.get(match=match).reason == "не пришли" and _audited("match.correct") == 1
    stranger = _post(api, "match_forfeit", okey, {"loser": match.home_id + 1000}, pk=match.pk)
    assert stranger.status_code == 409 and "loser" in stranger.json()["fields"]


def test_the_other_pair_disputes_and_the_organiser_keeps_the_reported_result(api, club, okey, match):
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=5)
    own = _post(api, "match_dispute", _player_key(club, match, "home"), pk=match.pk)
    assert own.status_code == 403
    disputed = _post(
        api, "match_dispute", _player_key(club, match, "away"), {"note": "Было 12:9"}, pk=match.pk
    )
    assert disputed.status_code == 200 and disputed.json()["status"] == MatchStatus.DISPUTED
    assert _audited("match.dispute") == 1
    settled = _post(api, "match_settle", okey, pk=match.pk)
    assert settled.status_code == 200 and settled.json()["status"] == MatchStatus.CONFIRMED
    assert (settled.json()["home_eyes"], settled.json()["away_eyes"]) == (12, 5)
    assert _audited("match.confirm") == 1
    again = _post(api, "match_settle", okey, pk=match.pk)
    assert again.status_code == 409 and "not disputed" in again.json()["detail"]


def test_the_organiser_settles_a_dispute_with_his_own_score(api, club, okey, match):
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=5)
    services.dispute_result(actor=match.away.player_a.user, match=match, note="")
    half = _post(api, "match_settle", okey, {"home_eyes": 12}, pk=match.pk)
    assert half.status_code == 409 and "both pairs' eyes" in half.json()["detail"]
    settled = _post(api, "match_settle", okey, {"home_eyes": 12, "away_eyes": 9}, pk=match.pk)
    assert settled.status_code == 200 and settled.json()["away_eyes"] == 9
    assert settled.json()["status"] == MatchStatus.CONFIRMED and _audited("match.correct") == 1


def test_a_dispute_note_must_be_text(api, club, match):
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=5)
    answer = _post(api, "match_dispute", _player_key(club, match, "away"), {"note": 5}, pk=match.pk)
    assert answer.status_code == 400 and "note" in answer.json()["fields"]
    assert Match.objects.get(pk=match.pk).status == MatchStatus.UNCONFIRMED


def test_an_individual_events_tables_go_through_the_same_operations(api, club, okey, organiser):
    """Its tables are matches of two partnerships: paired, swapped (two players) and corrected alike."""
    solo = services.create_tournament(
        actor=organiser, club=club, name="Индивидуалка", format="ind_swiss", swiss_rounds=3, seeding="manual"
    )
    for i in range(8):
        services.register_player(
            actor=organiser, tournament=solo, player=player_with_account(club, f"ind{i}")
        )
    paired = _post(api, "round_pair_next", okey, slug=solo.slug)
    assert paired.status_code == 201 and len(paired.json()["matches"]) == 2
    norths = Round.objects.get(tournament=solo).seats.filter(table__in=(1, 2), seat="N")
    one, two = (s.entry_id for s in norths)
    swapped = _post(api, "round_swap", okey, {"first": one, "second": two}, slug=solo.slug, number=1)
    assert swapped.status_code == 200 and _audited("round.swap") == 1
    table = Match.objects.get(tournament=solo, table=1)
    fixed = _post(api, "match_correct", okey, {"home_eyes": 12, "away_eyes": 4}, pk=table.pk)
    assert fixed.status_code == 200 and fixed.json()["status"] == MatchStatus.CONFIRMED
