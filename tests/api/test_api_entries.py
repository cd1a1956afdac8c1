"""Entries through the API: the list as the entries page shows it (no e-mail, a player without an
account by the club's name for him), and pairs registered, approved and withdrawn with a write key
through the entries page's services (who may, the event's rules, the audit row)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs import services as club_services
from clubs.models import AuditEntry, Role
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.conftest import player_with_account
from tournaments import services
from tournaments.models import Entry, EntryStatus

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


def _list_url(tournament) -> str:
    return reverse("api:entry_list", kwargs={"slug": tournament.slug})


@pytest.fixture
def players(club, organiser):
    """Two players with accounts and one the club entered by name alone, none of them entered yet."""
    asel, oleh = (player_with_account(club, u) for u in ("asel", "oleh"))
    nameless = club_services.add_player(actor=organiser, club=club, display_name="Безаккаунтный Игрок").player
    return asel, oleh, nameless


@pytest.fixture
def players_of(club, organiser):
    def make(*names):
        return [player_with_account(club, n) for n in names]

    return make


def _audited(action: str, actor, entry) -> bool:
    return AuditEntry.objects.filter(action=action, actor=actor, object_id=str(entry.pk)).exists()


def _post(api, tournament, a, b, key=None, **extra):
    headers = bearer(key) if key else {}
    return api.post(_list_url(tournament), {"player_a": a, "player_b": b}, format="json", **headers, **extra)


def test_without_a_key_no_pair_is_registered(api, swiss, players):
    asel, oleh, _ = players
    assert _post(api, swiss, asel.pk, oleh.pk).status_code == 401
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_a_read_key_cannot_register_a_pair(api, organiser, swiss, players):
    asel, oleh, _ = players
    assert _post(api, swiss, asel.pk, oleh.pk, key_for(organiser)).status_code == 403
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_a_write_key_for_another_club_cannot_register_a_pair(api, organiser, swiss, players):
    other = ClubFactory(name="Павлодар", slug="pavlodar-e")
    MembershipFactory(club=other, user=organiser, role=Role.ORGANISER)
    answer = _post(api, swiss, players[0].pk, players[1].pk, key_for(organiser, "write", [other]),
                   HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 403 and "заявки на турниры этого клуба" in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_a_member_who_does_not_run_the_club_is_refused_by_the_service(api, club, member, swiss, players):
    answer = _post(api, swiss, players[0].pk, players[1].pk, key_for(member, "write", [club]))
    assert answer.status_code == 403 and "owners and organisers" in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()
    assert not AuditEntry.objects.filter(action="entry.create").exists()


def test_an_organiser_registers_a_pair_with_its_audit_row(api, club, organiser, swiss, players):
    asel, _oleh, nameless = players
    answer = _post(api, swiss, asel.pk, nameless.pk, key_for(organiser, "write", [club]))
    assert answer.status_code == 201, answer.content
    entry = Entry.objects.get(tournament=swiss)
    assert (entry.player_a, entry.player_b, entry.status) == (asel, nameless, EntryStatus.APPROVED)
    assert entry.registered_by == organiser
    body = answer.json()
    assert body["id"] == entry.pk and body["status"] == "approved"
    assert [p["id"] for p in body["players"]] == [asel.pk, nameless.pk]
    assert body["players"][1]["display_name"] == "Безаккаунтный Игрок"
    assert _audited("entry.create", organiser, entry)


@pytest.mark.parametrize("language", ["ru", "kk", "uk"])
def test_a_player_that_is_not_there_is_refused_by_its_field_in_the_requests_language(
    api, club, organiser, swiss, players, language
):
    """A well-formed id no player has: 409 like every refusal the schema cannot describe (a 400
    is a body that breaks the schema, api/errors.py), with the field it was."""
    answer = _post(api, swiss, players[0].pk, 10**12, key_for(organiser, "write", [club]),
                   HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert answer.status_code == 409
    fields = answer.json()["fields"]
    assert set(fields) == {"player_b"}
    words = {"ru": "В составе клуба нет игрока", "kk": "ойыншы жоқ", "uk": "У складі клубу немає гравця"}
    words = words[language]
    assert words in fields["player_b"][0] and words in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_a_malformed_body_is_400_with_its_fields_in_russian(api, club, organiser, swiss):
    answer = api.post(_list_url(swiss), {"player_a": "asel", "player_b": 0}, format="json",
                      HTTP_ACCEPT_LANGUAGE="ru", **bearer(key_for(organiser, "write", [club])))  # fmt: skip
    assert answer.status_code == 400 and set(answer.json()["fields"]) == {"player_a", "player_b"}
    assert answer.json()["detail"] == "Запрос неверен."
    assert answer.json()["fields"]["player_a"] == ["Введите правильное число."]


def test_one_player_twice_is_refused_by_the_service_in_russian(api, club, organiser, swiss, players):
    answer = _post(api, swiss, players[0].pk, players[0].pk, key_for(organiser, "write", [club]),
                   HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 409
    assert "два разных игрока" in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_a_player_already_entered_is_refused_by_the_tournaments_state_in_russian(
    api, club, organiser, swiss, players
):
    """The service's refusal, as for results (api/errors.py): 409, the request was well formed."""
    asel, oleh, nameless = players
    services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    answer = _post(api, swiss, nameless.pk, oleh.pk, key_for(organiser, "write", [club]),
                   HTTP_ACCEPT_LANGUAGE="ru")  # fmt: skip
    assert answer.status_code == 409
    assert "уже заявлен" in answer.json()["detail"] and "Oleh" in answer.json()["detail"]
    assert Entry.objects.filter(tournament=swiss).count() == 1


def test_an_unknown_tournament_is_404(api, club, organiser, players):
    answer = api.post("/api/v1/tournaments/no-such-event/entries/", {"player_a": 1, "player_b": 2},
                      format="json", **bearer(key_for(organiser, "write", [club])))  # fmt: skip
    assert answer.status_code == 404
    assert api.get("/api/v1/tournaments/no-such-event/entries/").status_code == 404


def test_the_list_shows_the_entries_as_the_page_does_and_no_email(api, club, organiser, swiss, players):
    asel, oleh, nameless = players
    first = services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    ivan, nurlan = player_with_account(club, "ivan"), player_with_account(club, "nurlan")
    gone = services.register_entry(actor=organiser, tournament=swiss, player_a=ivan, player_b=nameless)
    services.withdraw_entry(actor=organiser, entry=gone)
    third = services.register_entry(actor=organiser, tournament=swiss, player_a=nurlan, player_b=nameless)
    answer = api.get(_list_url(swiss))
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 3 and body["next"] is None
    lines = body["results"]
    assert [e["id"] for e in lines] == [first.pk, gone.pk, third.pk]
    assert [e["status"] for e in lines] == ["approved", "withdrawn", "approved"]
    assert lines[0]["name"] == "Asel & Oleh"
    assert lines[2]["players"][1] == {"id": nameless.pk, "display_name": "Безаккаунтный Игрок",
                                      "city": nameless.city}  # fmt: skip
    # random seeding, before round 1: the page shows no seed, nor does the API
    assert {e["seed"] for e in lines} == {None}
    text = answer.content.decode()
    assert "@" not in text and "example.com" not in text
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    assert [e["seed"] for e in api.get(_list_url(swiss)).json()["results"]] == [1, 2, 3]


def test_the_list_comes_in_pages(api, organiser, swiss, players_of):
    people = players_of("a1", "a2", "b1", "b2", "c1", "c2")
    for i in range(0, 6, 2):
        services.register_entry(actor=organiser, tournament=swiss, player_a=people[i], player_b=people[i + 1])
    body = api.get(_list_url(swiss), {"page_size": 2}).json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert api.get(_list_url(swiss), {"page": "x"}).status_code == 400


@pytest.fixture
def pending(club, swiss, organiser, players):
    """A pair that registered itself, accepted by the partner, and waits for the organiser."""
    asel, oleh, _ = players
    services.update_tournament(actor=organiser, tournament=swiss, self_registration=True)
    swiss.refresh_from_db()
    asked = services.self_register(actor=asel.user, tournament=swiss, partner=oleh)
    return services.accept_partner(actor=oleh.user, entry=asked)


def test_an_organiser_approves_a_waiting_pair(api, club, organiser, pending):
    url = reverse("api:entry_approve", kwargs={"pk": pending.pk})
    answer = api.post(url, **bearer(key_for(organiser, "write", [club])))
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "approved"
    pending.refresh_from_db()
    assert pending.status == EntryStatus.APPROVED
    assert _audited("entry.approve", organiser, pending)


def test_a_pair_waiting_for_its_partner_is_listed_so_and_the_organiser_approves_it_for_her(
    api, club, swiss, organiser, players
):
    asel, oleh, _ = players
    services.update_tournament(actor=organiser, tournament=swiss, self_registration=True)
    asked = services.self_register(actor=asel.user, tournament=swiss, partner=oleh)
    listed = {e["id"]: e["status"] for e in api.get(_list_url(swiss)).json()["results"]}
    assert listed[asked.pk] == "partner"
    url = reverse("api:entry_approve", kwargs={"pk": asked.pk})
    answer = api.post(url, **bearer(key_for(organiser, "write", [club])))
    assert answer.status_code == 200 and answer.json()["status"] == "approved"


def test_a_player_cannot_approve_his_own_pair(api, club, pending):
    url = reverse("api:entry_approve", kwargs={"pk": pending.pk})
    MembershipFactory(club=club, user=pending.player_a.user, role=Role.MEMBER)
    answer = api.post(url, **bearer(key_for(pending.player_a.user, "write", [club])))
    assert answer.status_code == 403
    pending.refresh_from_db()
    assert pending.status == EntryStatus.PENDING


def test_an_approval_needs_a_write_key_for_the_club(api, organiser, pending):
    url = reverse("api:entry_approve", kwargs={"pk": pending.pk})
    assert api.post(url).status_code == 401
    assert api.post(url, **bearer(key_for(organiser))).status_code == 403
    other = ClubFactory(name="Павлодар", slug="pavlodar-a")
    MembershipFactory(club=other, user=organiser, role=Role.ORGANISER)
    assert api.post(url, **bearer(key_for(organiser, "write", [other]))).status_code == 403
    assert api.post(reverse("api:entry_approve", kwargs={"pk": 10**9}),
                    **bearer(key_for(organiser, "write", [other]))).status_code == 404  # fmt: skip
    pending.refresh_from_db()
    assert pending.status == EntryStatus.PENDING


def test_an_organiser_withdraws_a_pair_and_a_member_not_in_it_cannot(
    api, club, organiser, member, swiss, players
):
    asel, oleh, _ = players
    entry = services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    url = reverse("api:entry_withdraw", kwargs={"pk": entry.pk})
    refused = api.post(url, **bearer(key_for(member, "write", [club])), HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 403 and refused.json()["detail"]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.APPROVED
    answer = api.post(url, **bearer(key_for(organiser, "write", [club])))
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert _audited("entry.withdraw", organiser, entry)


def test_an_individual_events_list_has_its_players_one_by_one(api, club, organiser, players):
    solo = services.create_tournament(actor=organiser, club=club, name="Индивидуалка",
                                      starts_on=datetime.date(2026, 10, 9), format="ind_swiss",
                                      swiss_rounds=3)  # fmt: skip
    for player in players:
        services.register_player(actor=organiser, tournament=solo, player=player)
    lines = api.get(_list_url(solo)).json()["results"]
    assert [[p["id"] for p in e["players"]] for e in lines] == [[p.pk] for p in players]
    assert lines[2]["name"] == "Безаккаунтный Игрок" and {e["late"] for e in lines} == {False}
    refused = _post(api, solo, players[0].pk, players[1].pk, key_for(organiser, "write", [club]))
    assert refused.status_code == 409  # players enter an individual event alone
