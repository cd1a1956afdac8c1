"""Events recorded by the tournaments' real services: what each change is told as, and to whom."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from tests.clubs.factories import ClubFactory
from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import MatchStatus, TournamentStatus
from webhooks.models import Delivery, TournamentEvent, Webhook

pytestmark = pytest.mark.django_db


def kinds(t) -> list[str]:
    return list(TournamentEvent.objects.filter(tournament=t).order_by("id").values_list("type", flat=True))


def test_pairing_a_round_is_told_with_its_tables_and_no_names(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)

    event = TournamentEvent.objects.get(tournament=swiss)
    assert event.type == "round.paired"
    assert event.data["round"] == 1 and event.data["change"] == "paired"
    tables = {(m.table, m.home_id, m.away_id) for m in rnd.matches.all()}
    assert {(m["table"], m["home"], m["away"]) for m in event.data["matches"]} == tables
    payload = event.payload(swiss.slug)
    assert payload["tournament"] == swiss.slug and payload["type"] == "round.paired"
    names = [p.display_name for e in swiss.entries.all() for p in (e.player_a, e.player_b)]
    assert not any(name in str(payload) for name in names)


def test_a_players_report_then_the_other_pairs_confirmation(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.order_by("table").first()
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=9)
    entered = TournamentEvent.objects.filter(tournament=swiss).latest("id")
    assert entered.type == "result.entered"
    assert entered.data["status"] == MatchStatus.UNCONFIRMED
    assert (entered.data["home_eyes"], entered.data["away_eyes"], entered.data["winner"]) == (12, 9, "home")

    services.confirm_result(actor=match.away.player_a.user, match=match)

    assert kinds(swiss)[-3:] == ["result.entered", "result.confirmed", "standings.changed"]
    confirmed = TournamentEvent.objects.filter(tournament=swiss, type="result.confirmed").get()
    assert confirmed.data["match"] == match.pk and confirmed.data["status"] == MatchStatus.CONFIRMED


def test_a_correction_says_what_the_result_was(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.order_by("table").first()
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=3)
    assert kinds(swiss)[-3:] == ["result.entered", "result.confirmed", "standings.changed"]

    services.correct_result(actor=organiser, match=match, home_eyes=5, away_eyes=12, reason="Перепутали")

    corrected = TournamentEvent.objects.filter(tournament=swiss, type="result.corrected").get()
    assert corrected.data["winner"] == "away" and (
        corrected.data["home_eyes"],
        corrected.data["away_eyes"],
    ) == (5, 12)
    assert corrected.data["before"] == {"home_eyes": 12, "away_eyes": 3, "forfeit": False, "winner": "home"}
    assert "Перепутали" not in str(corrected.data)  # the reason stays on the match's page
    assert kinds(swiss)[-1] == "standings.changed"


def test_unpairing_pairing_again_and_a_swap_are_told_as_pairings(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    services.unpair_round(actor=organiser, round=rnd)
    again = services.pair_next_round(actor=organiser, tournament=swiss)
    first, second = again.matches.order_by("table")[:2]
    services.swap_in_round(
        actor=organiser, round=again, first=first.home_id, second=second.home_id, accept=True
    )

    events = list(TournamentEvent.objects.filter(tournament=swiss).order_by("id"))
    assert [(e.type, e.data["change"]) for e in events] == [
        ("round.paired", "paired"),
        ("round.paired", "unpaired"),
        ("round.paired", "paired"),
        ("round.paired", "swapped"),
    ]
    assert events[1].data["matches"] == []
    table1 = next(m for m in events[3].data["matches"] if m["table"] == first.table)
    assert table1["home"] == second.home_id


def test_the_last_result_finishes_the_tournament_once(swiss, organiser):
    for _number in range(3):
        rnd = services.pair_next_round(actor=organiser, tournament=swiss)
        play_round(rnd, organiser)
    swiss.refresh_from_db()
    assert swiss.status == TournamentStatus.FINISHED

    finished = TournamentEvent.objects.filter(tournament=swiss, type="tournament.finished")
    assert finished.count() == 1 and finished.get().data == {"rounds": 3}
    assert kinds(swiss)[-1] == "tournament.finished"


def test_a_refused_or_rolled_back_change_tells_nothing(swiss, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.order_by("table").first()
    before = TournamentEvent.objects.count()
    with pytest.raises(ValidationError):
        services.confirm_result(actor=organiser, match=match)  # nothing entered yet
    with pytest.raises(RuntimeError), transaction.atomic():
        services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=0)
        raise RuntimeError("the caller changed his mind")
    assert TournamentEvent.objects.count() == before


def test_a_clubs_hooks_hear_only_its_own_tournaments_and_the_kinds_they_chose(swiss, organiser, club):
    everything = Webhook.objects.create(
        club=club, url="https://example.org/a", secret="s", events=["round.paired", "result.confirmed"]
    )
    results_only = Webhook.objects.create(
        club=club, url="https://example.org/b", secret="s", events=["result.confirmed"]
    )
    switched_off = Webhook.objects.create(
        club=club, url="https://example.org/c", secret="s", events=["round.paired"], active=False
    )
    other_club = Webhook.objects.create(
        club=ClubFactory(name="Соседи", slug="sosedi"),
        url="https://example.org/d",
        secret="s",
        events=["round.paired"],
    )

    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    services.enter_result(
        actor=organiser, match=rnd.matches.order_by("table").first(), home_eyes=12, away_eyes=1
    )

    sent = sorted(Delivery.objects.values_list("hook_id", "event__type"))
    assert sent == sorted(
        [
            (everything.pk, "round.paired"),
            (everything.pk, "result.confirmed"),
            (results_only.pk, "result.confirmed"),
        ]
    )
    assert not Delivery.objects.filter(hook__in=[switched_off, other_club]).exists()
    assert set(Delivery.objects.values_list("status", flat=True)) == {"pending"}
