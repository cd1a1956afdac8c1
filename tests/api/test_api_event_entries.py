"""An entry found inside its event: ``/api/v1/tournaments/<slug>/entries/<id>/approve|withdraw|reinstate/``
acts on the event's own kind of entry (a pair, or a player of an individual event) through the
entries page's services, and an id of another event or of the other kind is 404. The first
addresses (``/api/v1/entries/<id>/…``) keep to the pairs of pair events they were made for."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Role
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.conftest import make_players, player_with_account, register_pairs
from tournaments import services
from tournaments.models import (
    Entry,
    EntryStatus,
    IndividualEntry,
    Match,
    MatchStatus,
    RequestStatus,
    Seat,
    WithdrawalRequest,
)

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


def _step(tournament, entry, step: str) -> str:
    return reverse(f"api:event_entry_{step}", kwargs={"slug": tournament.slug, "pk": entry.pk})


def _audited(action: str, actor, entry) -> bool:
    return AuditEntry.objects.filter(action=action, actor=actor, object_id=str(entry.pk)).exists()


@pytest.fixture
def solo(club, organiser):
    """An individual Swiss in registration that takes players' own entries, eight players in."""
    event = services.create_tournament(
        actor=organiser, club=club, name="Индивидуалка", starts_on=datetime.date(2026, 10, 9),
        format="ind_swiss", swiss_rounds=3, seeding="manual", self_registration=True,
    )  # fmt: skip
    for player in make_players(club, 8, prefix="Одиночка"):
        services.register_player(actor=organiser, tournament=event, player=player)
    return event


@pytest.fixture
def write_key(club, organiser):
    return bearer(key_for(organiser, "write", [club]))


def test_an_organiser_approves_a_player_who_registered_himself(api, club, organiser, solo, write_key):
    asel = player_with_account(club, "asel")
    waiting = services.self_register_player(actor=asel.user, tournament=solo)
    answer = api.post(_step(solo, waiting, "approve"), **write_key)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["id"], body["kind"], body["status"], body["name"]) == (
        waiting.pk,
        "player",
        "approved",
        "Asel",
    )
    waiting.refresh_from_db()
    assert waiting.status == EntryStatus.APPROVED
    assert _audited("individual.approve", organiser, waiting)


def test_an_organiser_withdraws_a_player_of_a_running_event_as_the_page_does(
    api, club, organiser, solo, write_key
):
    """His table nobody reported is a no-show (12:0 to the other side), the ask he left for the
    organiser is answered by the withdrawal, the audit row is written: the page's own service."""
    rnd = services.pair_next_round(actor=organiser, tournament=solo)
    seat = Seat.objects.filter(round=rnd, match__isnull=False).select_related("entry__player").first()
    leaving = seat.entry
    IndividualEntry.objects.filter(pk=leaving.pk).update(player=player_with_account(club, "olzhas"))
    leaving.refresh_from_db()
    ask = services.ask_to_withdraw(actor=leaving.player.user, entry=leaving)
    answer = api.post(_step(solo, leaving, "withdraw"), **write_key)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "withdrawn" and answer.json()["kind"] == "player"
    leaving.refresh_from_db()
    assert leaving.status == EntryStatus.WITHDRAWN and leaving.withdrawn_after_round == 1
    seat.refresh_from_db()
    assert seat.absent
    match = Match.objects.get(pk=seat.match_id)
    assert match.status == MatchStatus.CONFIRMED and match.forfeit
    assert WithdrawalRequest.objects.get(pk=ask.pk).status == RequestStatus.GRANTED
    assert _audited("individual.withdraw", organiser, leaving)


def test_an_organiser_reinstates_a_withdrawn_player_before_round_1(api, organiser, solo, write_key):
    gone = solo.individual_entries.order_by("pk").first()
    services.withdraw_player(actor=organiser, entry=gone)
    answer = api.post(_step(solo, gone, "reinstate"), **write_key)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "approved"
    gone.refresh_from_db()
    assert gone.status == EntryStatus.APPROVED
    assert _audited("individual.reinstate", organiser, gone)
    services.pair_next_round(actor=organiser, tournament=solo)
    services.withdraw_player(actor=organiser, entry=gone)
    late = api.post(_step(solo, gone, "reinstate"), HTTP_ACCEPT_LANGUAGE="ru", **write_key)
    assert late.status_code == 409 and "уже" in late.json()["detail"]  # round 1 is seated: too late
    gone.refresh_from_db()
    assert gone.status == EntryStatus.WITHDRAWN


def test_a_player_withdraws_himself_only_until_round_1_and_never_another(api, club, organiser, solo):
    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    for person in (asel, oleh):
        MembershipFactory(club=club, user=person.user, role=Role.MEMBER)
    mine = services.register_player(actor=organiser, tournament=solo, player=asel)
    other = services.register_player(actor=organiser, tournament=solo, player=oleh)
    key = bearer(key_for(asel.user, "write", [club]))
    refused = api.post(_step(solo, other, "withdraw"), **key)
    assert refused.status_code == 403
    other.refresh_from_db()
    assert other.status == EntryStatus.APPROVED
    # nor approves or reinstates, which only the organisers do
    assert api.post(_step(solo, mine, "approve"), **key).status_code == 403
    services.pair_next_round(actor=organiser, tournament=solo)
    late = api.post(_step(solo, mine, "withdraw"), **key)
    assert late.status_code == 409 and "organiser" in late.json()["detail"]
    mine.refresh_from_db()
    assert mine.status == EntryStatus.APPROVED


def test_a_pair_is_approved_withdrawn_and_reinstated_inside_its_event(api, club, organiser, write_key):
    swiss = services.create_tournament(
        actor=organiser, club=club, name="Парный", starts_on=datetime.date(2026, 10, 2), format="swiss",
        swiss_rounds=3, self_registration=True,
    )  # fmt: skip
    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    pending = services.self_register(actor=asel.user, tournament=swiss, partner=oleh)
    for step, status in (("approve", "approved"), ("withdraw", "withdrawn"), ("reinstate", "approved")):
        answer = api.post(_step(swiss, pending, step), **write_key)
        assert answer.status_code == 200, (step, answer.content)
        assert answer.json()["status"] == status and answer.json()["kind"] == "pair"
        pending.refresh_from_db()
        assert pending.status == status
        assert _audited(f"entry.{step}", organiser, pending)


def test_a_key_that_cannot_write_for_the_club_changes_nothing(api, club, organiser, solo):
    entry = solo.individual_entries.order_by("pk").first()
    url = _step(solo, entry, "withdraw")
    assert api.post(url).status_code == 401
    assert api.post(url, **bearer(key_for(organiser))).status_code == 403
    elsewhere = ClubFactory(name="Павлодар", slug="pavlodar-w")
    MembershipFactory(club=elsewhere, user=organiser, role=Role.ORGANISER)
    refused = api.post(url, HTTP_ACCEPT_LANGUAGE="ru", **bearer(key_for(organiser, "write", [elsewhere])))
    assert refused.status_code == 403 and "заявки на турниры этого клуба" in refused.json()["detail"]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.APPROVED


# --- ids of another event, or of the other kind -------------------------------------------------


@pytest.fixture
def running_pairs(club, organiser):
    """A Swiss of the same club with round 1 paired: four pairs playing."""
    swiss = services.create_tournament(
        actor=organiser, club=club, name="Швейцарка", starts_on=datetime.date(2026, 10, 2), format="swiss",
        swiss_rounds=3,
    )  # fmt: skip
    register_pairs(swiss, organiser, 4, prefix="Парный")
    services.pair_next_round(actor=organiser, tournament=swiss)
    return swiss


def _states(tournament) -> list[tuple]:
    rows = tournament.entries.order_by("pk").values_list("pk", "status")
    return [*rows, *tournament.individual_entries.order_by("pk").values_list("pk", "status")]


@pytest.mark.parametrize("step", ["approve", "withdraw", "reinstate"])
def test_an_id_of_another_event_or_kind_is_404_and_changes_nothing(
    api, organiser, solo, running_pairs, write_key, step
):
    services.pair_next_round(actor=organiser, tournament=solo)
    pair = running_pairs.entries.order_by("pk").first()
    player = solo.individual_entries.order_by("pk").first()
    partnership = solo.entries.order_by("pk").first()  # a table's partnership in the individual event
    before = _states(running_pairs) + _states(solo)
    for event, entry in ((solo, pair), (running_pairs, player), (solo, partnership),
                         (running_pairs, partnership)):  # fmt: skip
        answer = api.post(_step(event, entry, step), HTTP_ACCEPT_LANGUAGE="ru", **write_key)
        assert answer.status_code == 404, (event.slug, entry, answer.content)
        assert answer.json() == {"detail": "Не найдено."}
    assert _states(running_pairs) + _states(solo) == before


def test_the_first_addresses_reach_only_pairs_of_pair_events(
    api, club, organiser, solo, running_pairs, write_key
):
    """A partnership of an individual event's table is no pair; an id a player of an individual event
    has (rows from before the two kinds drew ids from one sequence share some) reaches no pair."""
    services.pair_next_round(actor=organiser, tournament=solo)
    partnership = solo.entries.order_by("pk").first()
    pair = running_pairs.entries.order_by("pk").first()
    twin = IndividualEntry.objects.create(  # an old player's row with the pair's number
        pk=pair.pk, tournament=solo, player=player_with_account(club, "twin")
    )
    before = _states(running_pairs) + _states(solo)
    for step in ("approve", "withdraw"):
        for pk in (partnership.pk, twin.pk):
            answer = api.post(reverse(f"api:entry_{step}", kwargs={"pk": pk}), **write_key)
            assert answer.status_code == 404 and answer.json() == {"detail": "Not found."}, (step, pk)
    assert _states(running_pairs) + _states(solo) == before
    # a pair whose number no player has is still withdrawn there, as the address was made for
    other = running_pairs.entries.exclude(pk=pair.pk).order_by("pk").first()
    answer = api.post(reverse("api:entry_withdraw", kwargs={"pk": other.pk}), **write_key)
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"


def test_pairs_and_players_never_share_an_id(club, organiser, solo, running_pairs):
    """One sequence for both kinds (migration ``0021_entry_ids_one_sequence``)."""
    pair_ids = set(Entry.objects.values_list("pk", flat=True))
    player_ids = set(IndividualEntry.objects.values_list("pk", flat=True))
    assert pair_ids and player_ids and not pair_ids & player_ids
    newest = services.register_player(
        actor=organiser, tournament=solo, player=make_players(club, 1, "Ещё")[0]
    )
    assert newest.pk > max(pair_ids)


def test_a_pair_is_registered_from_the_clubs_roster_only(api, club, organiser, write_key):
    """A player of another club's roster is not there for this club's event (409, by its field)."""
    swiss = services.create_tournament(
        actor=organiser, club=club, name="Парный", starts_on=datetime.date(2026, 10, 2), format="swiss",
        swiss_rounds=3,
    )  # fmt: skip
    ours = make_players(club, 1, "Наш")[0]
    theirs = make_players(ClubFactory(name="Бирлик", slug="birlik-r"), 1, "Чужой")[0]
    answer = api.post(reverse("api:entry_list", kwargs={"slug": swiss.slug}),
                      {"player_a": ours.pk, "player_b": theirs.pk}, format="json",
                      HTTP_ACCEPT_LANGUAGE="uk", **write_key)  # fmt: skip
    assert answer.status_code == 409
    assert answer.json()["fields"] == {"player_b": ["У складі клубу немає гравця з таким id."]}
    assert not swiss.entries.exists()


@pytest.mark.parametrize(
    "path",
    ["/api/v1/tournaments/x/entries/%0A4/approve/", "/api/v1/matches/4%0A/", "/api/v1/%0A", "/api/nothing/"],
)
def test_any_other_address_under_the_api_is_its_json_404_a_line_break_too(api, path):
    """schemathesis found an id with a line break answered by the site's HTML 404 page."""
    answer = api.post(path, HTTP_ACCEPT_LANGUAGE="kk")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert set(answer.json()) == {"detail"}
