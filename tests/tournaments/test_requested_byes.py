"""Requested byes on the real database: asked by a player or the organiser before the round is paired,
the pair left out of the pairing and its bye written as the round's result, scored as the event says;
refused with the reason otherwise (another pair's entry, a paired round, the last rounds, too many)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import escape

from clubs.models import AuditEntry
from tournaments import selectors, services
from tournaments.formats import format_of
from tournaments.models import ByeRequest, IndividualEntry, Seat, SeatName

from .conftest import make_players, play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, organiser):
    """A four-round Swiss of five pairs granting one half-point bye each, none in the last round;
    the first pair is asel's (she has an account)."""
    t = services.create_tournament(
        actor=organiser, club=club, name="Швейцарка", starts_on=datetime.date(2026, 12, 5), format="swiss",
        swiss_rounds=4, seeding="manual", bye_requests="half", bye_requests_max=1, bye_requests_not_last=1,
    )  # fmt: skip
    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    mine = services.register_entry(actor=organiser, tournament=t, player_a=asel, player_b=oleh)
    others = register_pairs(t, organiser, 4)
    return t, mine, others


def test_a_player_asks_a_half_bye_the_pair_sits_out_and_scores_a_half(swiss, organiser):
    t, mine, others = swiss
    asel = mine.player_a.user
    ask = services.ask_bye(actor=asel, entry=mine, round_number=2)
    assert (ask.round_number, ask.kind, ask.requested_by) == (2, "half", asel)
    assert services.ask_bye(actor=asel, entry=mine, round_number=2).pk == ask.pk, "asking twice keeps one ask"
    assert AuditEntry.objects.filter(action="entry.ask_bye").count() == 1

    r1 = services.pair_next_round(actor=organiser, tournament=t)
    assert r1.matches.filter(bye=True, requested_bye="").count() == 1, "round 1: five pairs, one pairing bye"
    play_round(r1, organiser)
    r2 = services.pair_next_round(actor=organiser, tournament=t)
    sat_out = r2.matches.get(home=mine)
    assert sat_out.bye and sat_out.requested_bye == "half" and sat_out.status == "confirmed"
    played = [m for m in r2.matches.all() if not m.bye]
    assert len(played) == 2 and all(mine.pk not in (m.home_id, m.away_id) for m in played)
    assert not r2.matches.filter(bye=True, requested_bye=""), "four left: nobody gets the pairing's bye"
    play_round(r2, organiser)

    row = next(line.row for line in selectors.standings(tournament=t).lines if line.entry.pk == mine.pk)
    assert row.requested_byes == 1
    assert row.match_points in (0.5, 1.5, 2.5)
    assert row.match_points - int(row.match_points) == 0.5


def test_the_organiser_asks_for_a_pair_and_a_withdrawn_ask_leaves_the_pair_in_the_pairing(swiss, organiser):
    t, mine, others = swiss
    ask = services.ask_bye(actor=organiser, entry=others[0], round_number=1)
    services.withdraw_bye(actor=organiser, ask=ask)
    assert ByeRequest.objects.get(pk=ask.pk).withdrawn_at is not None
    assert AuditEntry.objects.filter(action="entry.withdraw_bye").count() == 1
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    assert not r1.matches.exclude(requested_bye="").exists()
    # the ask taken back does not count against the limit
    services.ask_bye(actor=organiser, entry=others[0], round_number=2)


def test_forged_asks_are_refused(swiss, club, organiser, member):
    t, mine, others = swiss
    stranger = player_with_account(club, "stranger").user
    for actor in (stranger, member):
        with pytest.raises(PermissionDenied):
            services.ask_bye(actor=actor, entry=others[0], round_number=2)
    with pytest.raises(PermissionDenied):
        services.ask_bye(actor=mine.player_a.user, entry=others[0], round_number=2)
    theirs = services.ask_bye(actor=organiser, entry=others[0], round_number=2)
    with pytest.raises(PermissionDenied):
        services.withdraw_bye(actor=mine.player_a.user, ask=theirs)
    assert ByeRequest.objects.get(pk=theirs.pk).withdrawn_at is None


def test_refusals_say_why(swiss, organiser):
    t, mine, others = swiss
    asel = mine.player_a.user
    with pytest.raises(ValidationError, match="No bye is granted in the last round"):
        services.ask_bye(actor=asel, entry=mine, round_number=4)
    with pytest.raises(ValidationError, match="there is no round 5"):
        services.ask_bye(actor=asel, entry=mine, round_number=5)
    services.ask_bye(actor=asel, entry=mine, round_number=3)
    with pytest.raises(ValidationError, match="may sit out 1 round at most"):
        services.ask_bye(actor=mine.player_b.user, entry=mine, round_number=2)
    ask = services.ask_bye(actor=organiser, entry=others[1], round_number=1)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    with pytest.raises(ValidationError, match="Round 1 is already paired"):
        services.ask_bye(actor=organiser, entry=others[2], round_number=1)
    with pytest.raises(ValidationError, match="can no longer be taken back"):
        services.withdraw_bye(actor=organiser, ask=ask)
    services.withdraw_entry(actor=organiser, entry=others[3])
    with pytest.raises(ValidationError, match="has withdrawn"):
        services.ask_bye(actor=organiser, entry=others[3], round_number=2)


def test_an_event_that_grants_none_or_a_knockout_refuses(club, organiser, swiss):
    t, mine, others = swiss
    services.update_tournament(actor=organiser, tournament=t, bye_requests="")
    with pytest.raises(ValidationError, match="grants no requested byes"):
        services.ask_bye(actor=organiser, entry=mine, round_number=1)
    cup = services.create_tournament(
        actor=organiser, club=club, name="Кубок", starts_on=datetime.date(2026, 12, 5), format="single_elim",
        bye_requests="half",
    )  # fmt: skip
    entry = register_pairs(cup, organiser, 2, prefix="Кубковый")[0]
    with pytest.raises(ValidationError, match="Only Swiss and individual events"):
        services.ask_bye(actor=organiser, entry=entry, round_number=1)


def test_a_zero_point_bye_scores_nothing_and_the_pair_may_still_get_the_pairing_bye(swiss, organiser):
    t, mine, others = swiss
    services.update_tournament(actor=organiser, tournament=t, bye_requests="zero")
    services.ask_bye(actor=organiser, entry=mine, round_number=1)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    assert r1.matches.get(home=mine).requested_bye == "zero"
    assert not r1.matches.filter(bye=True, requested_bye=""), "four pairs play: no pairing bye"
    play_round(r1, organiser)
    rows = {line.entry.pk: line.row for line in selectors.standings(tournament=t).lines}
    assert rows[mine.pk].match_points == 0 and rows[mine.pk].byes == 0 and rows[mine.pk].requested_byes == 1
    points, _, had_bye = format_of(t)._results_by_entry()
    assert mine.pk not in had_bye, "a requested bye is no pairing bye: the pair may still be given one"
    assert points[mine.pk] == 0


def test_an_individual_player_asks_and_sits_out_with_a_half(club, organiser, client):
    t = services.create_tournament(
        actor=organiser, club=club, name="Личка", starts_on=datetime.date(2026, 12, 5), format="ind_swiss",
        swiss_rounds=3, bye_requests="half",
    )  # fmt: skip
    me = player_with_account(club, "solo")
    for p in [me, *make_players(club, 8, "Игрок")]:
        services.register_player(actor=organiser, tournament=t, player=p)
    entry = IndividualEntry.objects.get(tournament=t, player=me)
    other = IndividualEntry.objects.filter(tournament=t).exclude(pk=entry.pk).first()
    with pytest.raises(PermissionDenied):
        services.ask_bye(actor=me.user, entry=other, round_number=1)
    services.ask_bye(actor=me.user, entry=entry, round_number=1)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    seat = Seat.objects.get(round=r1, entry=entry)
    assert (seat.seat, seat.requested_bye) == (SeatName.BYE, "half")
    assert Seat.objects.filter(round=r1).exclude(seat=SeatName.BYE).count() == 8, "eight seated, two tables"
    play_round(r1, organiser)
    row = next(line.row for line in selectors.standings(tournament=t).lines if line.entry.pk == entry.pk)
    assert (row.match_points, row.requested_byes, row.byes) == (0.5, 1, 0)
    page = client.get(reverse("tournaments:round", args=[t.slug, 1])).content.decode()
    assert "asked to sit out: half a win" in page


def test_the_swap_leaves_a_requested_bye_where_it_is_and_unpairing_keeps_the_ask(swiss, organiser):
    t, mine, others = swiss
    services.ask_bye(actor=organiser, entry=mine, round_number=1)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    with pytest.raises(ValidationError, match="not swapped"):
        services.swap_in_round(actor=organiser, round=r1, first=mine.pk, second=others[0].pk, accept=True)
    assert r1.matches.get(home=mine).requested_bye == "half"
    services.unpair_round(actor=organiser, round=r1)
    again = services.pair_next_round(actor=organiser, tournament=t)
    assert again.matches.get(home=mine).requested_bye == "half", "paired again, the ask still stands"


def test_the_pages_and_the_api_show_a_requested_bye_apart(swiss, organiser, client):
    t, mine, others = swiss
    services.ask_bye(actor=organiser, entry=mine, round_number=1)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    rounds = client.get(reverse("api:round_list", args=[t.slug])).json()
    byes = [m for r in rounds for m in r["matches"] if m["bye"]]
    assert {(m["home"]["id"], m["requested_bye"]) for m in byes} == {(mine.pk, "half")}
    lines = client.get(reverse("api:standings", args=[t.slug])).json()["lines"]
    row = next(line for line in lines if line["entry"]["id"] == mine.pk)
    assert (row["match_points"], row["requested_byes"], row["byes"]) == (0.5, 1, 0)
    crosstable = client.get(reverse("tournaments:crosstable", args=[t.slug])).content.decode()
    assert "asked ½" in crosstable
    standings = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert 'id="requested-bye-rule"' in standings and "<abbr" in standings and "RB" in standings


def test_forged_posts_to_the_pages_are_refused_and_change_nothing(swiss, organiser, client, club):
    t, mine, others = swiss
    client.force_login(mine.player_a.user)
    theirs = client.post(reverse("tournaments:bye_ask", args=[t.slug]), {"entry": others[0].pk, "round": 2})
    assert theirs.status_code == 403
    elsewhere = services.create_tournament(
        actor=organiser, club=club, name="Другая", starts_on=datetime.date(2026, 12, 5), format="swiss",
        bye_requests="half",
    )  # fmt: skip
    foreign = register_pairs(elsewhere, organiser, 2, prefix="Чужой")[0]
    borrowed = client.post(reverse("tournaments:bye_ask", args=[t.slug]), {"entry": foreign.pk, "round": 2})
    assert borrowed.status_code == 404
    ask = services.ask_bye(actor=organiser, entry=others[0], round_number=2)
    assert client.post(reverse("tournaments:bye_withdraw", args=[t.slug, ask.pk])).status_code == 403
    assert client.post(reverse("tournaments:bye_withdraw", args=[elsewhere.slug, ask.pk])).status_code == 404
    assert not ByeRequest.objects.filter(entry=others[0]).exclude(withdrawn_at=None).exists()
    assert not ByeRequest.objects.filter(entry=mine).exists()
    services.pair_next_round(actor=organiser, tournament=t)
    ask_url = reverse("tournaments:bye_ask", args=[t.slug])
    late = client.post(ask_url, {"entry": mine.pk, "round": 1}, follow=True)
    assert "Round 1 is already paired" in late.content.decode()
    assert not ByeRequest.objects.filter(entry=mine).exists()
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    assert 'id="byes"' in page and f'name="entry" value="{mine.pk}"' in page
    assert others[0].name not in page.split('id="byes"')[1].split("</section>")[0], "only his own pair's card"


def test_the_settings_take_what_a_requested_bye_scores_and_refuse_anything_else(swiss, organiser, client):
    t, mine, others = swiss
    with pytest.raises(ValidationError, match="half a win or nothing"):
        services.update_tournament(actor=organiser, tournament=t, bye_requests="third")
    with pytest.raises(ValidationError, match="at least 1"):
        services.update_tournament(actor=organiser, tournament=t, bye_requests_max=0)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:edit", args=[t.slug])).content.decode()
    assert 'name="bye_requests"' in page and 'name="bye_requests_not_last"' in page


def test_the_dashboard_names_who_sits_out_the_round_to_pair(swiss, organiser, client):
    t, mine, others = swiss
    services.ask_bye(actor=organiser, entry=others[2], round_number=1)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:dashboard", args=[t.slug])).content.decode()
    box = page.split('id="sitting-out"')[1].split("</p>")[0]
    assert "Sitting out round 1 at their own ask" in box and escape(others[2].name) in box
    assert escape(mine.name) not in box
