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


def test_a_withdrawal_tells_each_match_it_forfeits_as_a_result(swiss, organiser):
    """A pair withdrawn while its match is unplayed loses it 0:12: that result reaches the hooks as
    any other (entered, confirmed, standings changed), and the event's log names it."""
    from clubs.models import AuditEntry

    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.order_by("table").first()
    before = TournamentEvent.objects.filter(tournament=swiss).count()

    services.withdraw_entry(actor=organiser, entry=match.home)

    told = list(TournamentEvent.objects.filter(tournament=swiss).order_by("id")[before:])
    assert [e.type for e in told] == ["result.entered", "result.confirmed", "standings.changed"]
    assert told[0].data["match"] == match.pk and told[0].data["forfeit"] is True
    assert (told[0].data["home_eyes"], told[0].data["away_eyes"], told[0].data["winner"]) == (0, 12, "away")
    row = AuditEntry.objects.get(tournament_id=swiss.pk, action="match.withdrawal_forfeit")
    assert row.object_id == str(match.pk)


def test_a_withdrawal_leaves_a_reported_result_and_tells_no_forfeit(swiss, organiser):
    """Only a match nobody reported is forfeited: a reported one keeps its result, and no forfeit
    reaches the hooks."""
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    match = rnd.matches.order_by("table").first()
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=4)
    before = TournamentEvent.objects.filter(tournament=swiss).count()

    services.withdraw_entry(actor=organiser, entry=match.home)

    match.refresh_from_db()
    assert (match.home_eyes, match.away_eyes, match.forfeit) == (12, 4, False)
    told = TournamentEvent.objects.filter(tournament=swiss).order_by("id")[before:]
    assert not [e for e in told if e.data.get("forfeit")]


def test_a_withdrawn_pair_drawn_into_the_next_knockout_round_is_told_after_the_pairing(club, organiser):
    import datetime

    from tests.tournaments.conftest import register_pairs

    t = services.create_tournament(actor=organiser, club=club, name="Кубок хуков", format="single_elim",
                                   seeding="manual", starts_on=datetime.date(2026, 12, 6))
    entries = register_pairs(t, organiser, 4)
    first = services.pair_next_round(actor=organiser, tournament=t)
    play_round(first, organiser)  # the home pairs win
    winner = first.matches.get(slot=0).winner
    services.withdraw_entry(actor=organiser, entry=winner)
    before = TournamentEvent.objects.filter(tournament=t).count()

    final = services.pair_next_round(actor=organiser, tournament=t)

    told = list(TournamentEvent.objects.filter(tournament=t).order_by("id")[before:])
    assert [e.type for e in told][:3] == ["round.paired", "result.entered", "result.confirmed"]
    forfeited = final.matches.get()
    assert told[1].data["match"] == forfeited.pk and told[1].data["forfeit"] is True
    assert winner.pk in (forfeited.home_id, forfeited.away_id) and len(entries) == 4
