"""Running an event with an organising key: created, changed, deleted before it starts, started; its
entries made from a list with seeds, all or none; a pair or player checked in. Each through the
organiser's services (their audit rows), each refused to a results key and to another club's key."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clubs import services as club_services
from clubs.models import AuditEntry, Role
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tests.tournaments.conftest import make_players, register_pairs
from tournaments import services
from tournaments.models import Entry, EntryStatus, IndividualEntry, Tournament, TournamentStatus
from tournaments.selectors.prizes import prize_setup

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db

LIST = reverse("api:tournament_list")


def _detail(t) -> str:
    return reverse("api:tournament_detail", kwargs={"slug": t.slug})


def _start(t) -> str:
    return reverse("api:event_start", kwargs={"slug": t.slug})


def _bulk(t) -> str:
    return reverse("api:entries_bulk", kwargs={"slug": t.slug})


def _check_in(t, entry) -> str:
    return reverse("api:event_entry_check_in", kwargs={"slug": t.slug, "pk": entry.pk})


@pytest.fixture
def organise(club, organiser):
    return bearer(key_for(organiser, "organise", [club]))


@pytest.fixture
def results_only(club, organiser):
    return bearer(key_for(organiser, "write", [club]))


@pytest.fixture
def other_club_key():
    """An organiser of another club, with a key that runs that club's events."""
    other = ClubFactory(name="Покровка", slug="pokrovka")
    boss = MembershipFactory(club=other, user=UserFactory(username="boss"), role=Role.ORGANISER).user
    return bearer(key_for(boss, "organise", [other]))


@pytest.fixture
def cup(club, organiser):
    """A knockout seeded by hand, in registration, with four pairs."""
    event = services.create_tournament(
        actor=organiser, club=club, name="Кубок Успенки", starts_on=datetime.date(2026, 11, 7),
        format="single_elim", seeding="manual",
    )  # fmt: skip
    register_pairs(event, organiser, 4, prefix="Кубковый")
    return event


@pytest.fixture
def solo(club, organiser):
    return services.create_tournament(
        actor=organiser, club=club, name="Одиночный турнир", starts_on=datetime.date(2026, 11, 8),
        format="ind_swiss", swiss_rounds=3, seeding="manual",
    )  # fmt: skip


NEW = {
    "club": "uspenka",
    "name": "Осенняя швейцарка",
    "starts_on": "2026-10-16",
    "format": "swiss",
    "swiss_rounds": 4,
    "tiebreaks": ["buchholz", "eye_difference"],
    "prizes": ["Кубок", "Мешок муки"],
    "rules": {"rout_at": 91, "lucy_by": "points"},
}


# --- create -----------------------------------------------------------------------------------------


def test_an_organiser_creates_a_tournament_as_the_settings_page_does(api, club, organiser, organise):
    answer = api.post(LIST, NEW, format="json", **organise)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["name"], body["club"]["slug"], body["format"], body["status"], body["starts_on"]) == (
        "Осенняя швейцарка", "uspenka", "swiss", "registration", "2026-10-16",
    )  # fmt: skip
    made = Tournament.objects.get(slug=body["slug"])
    assert made.swiss_rounds == 4 and made.tiebreaks == ["buchholz", "eye_difference"]
    assert [p.label for p in prize_setup(made).places] == ["Кубок", "Мешок муки"]
    assert made.rules["rout_at"] == 91 and made.rules["lucy_by"] == "points" and made.rules["deck"] == "32"
    assert AuditEntry.objects.filter(
        action="tournament.create", actor=organiser, tournament_id=made.pk
    ).exists()
    # and it reads back as any tournament does, without a key
    assert api.get(_detail(made)).json() == body


def test_a_retry_with_the_same_idempotency_key_creates_one_tournament(api, club, organise):
    first = api.post(LIST, NEW, format="json", HTTP_IDEMPOTENCY_KEY="new-event-1", **organise)
    again = api.post(LIST, NEW, format="json", HTTP_IDEMPOTENCY_KEY="new-event-1", **organise)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.filter(name="Осенняя швейцарка").count() == 1


def test_a_bad_setting_is_refused_in_the_requests_language_and_nothing_is_made(api, club, organise):
    malformed = api.post(
        LIST, {**NEW, "swiss_rounds": 0}, format="json", HTTP_ACCEPT_LANGUAGE="ru", **organise
    )
    assert malformed.status_code == 400 and "swiss_rounds" in malformed.json()["fields"]
    repeated = api.post(
        LIST, {**NEW, "tiebreaks": ["lucy", "lucy"]}, format="json", HTTP_ACCEPT_LANGUAGE="ru", **organise
    )
    assert repeated.status_code == 409 and "повторённый" in repeated.json()["detail"]
    unknown = api.post(LIST, {**NEW, "club": "nowhere"}, format="json", HTTP_ACCEPT_LANGUAGE="kk", **organise)
    assert unknown.status_code == 409 and "club" in unknown.json()["fields"]
    assert not Tournament.objects.exists()


def test_creating_needs_an_organising_key_for_that_club(api, club, organiser, results_only, other_club_key):
    assert api.post(LIST, NEW, format="json").status_code == 401
    refused = api.post(LIST, NEW, format="json", HTTP_ACCEPT_LANGUAGE="uk", **results_only)
    assert refused.status_code == 403 and refused.json()["detail"]
    assert api.post(LIST, NEW, format="json", **other_club_key).status_code == 403
    assert not Tournament.objects.exists()
    assert api.get(LIST).status_code == 200  # reading stays open


def test_a_member_cannot_get_a_key_that_runs_events(club, member):
    with pytest.raises(PermissionDenied):
        club_services.create_token(actor=member, name="x", scope="organise", clubs=[club])


def test_an_organiser_who_lost_his_role_is_refused_by_the_service(api, club, organiser, organise):
    organiser.memberships.filter(club=club).update(role=Role.MEMBER)
    assert api.post(LIST, NEW, format="json", **organise).status_code == 403
    assert not Tournament.objects.exists()


# --- edit -------------------------------------------------------------------------------------------


def test_an_organiser_changes_settings_partially(api, organiser, cup, organise):
    rout = cup.rules["rout_at"]
    answer = api.patch(
        _detail(cup), {"venue": "Дом культуры", "rules": {"lucy": "zero"}}, format="json", **organise
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["venue"] == "Дом культуры"
    cup.refresh_from_db()
    assert cup.venue == "Дом культуры" and cup.name == "Кубок Успенки"
    assert cup.rules["lucy"] == "zero" and cup.rules["rout_at"] == rout  # the other rules kept
    row = AuditEntry.objects.get(action="tournament.update", actor=organiser, tournament_id=cup.pk)
    assert row.after["venue"] == "Дом культуры"


def test_the_format_is_fixed_once_round_1_is_paired(api, organiser, cup, organise):
    services.pair_next_round(actor=organiser, tournament=cup)
    answer = api.patch(
        _detail(cup), {"format": "swiss"}, format="json", HTTP_ACCEPT_LANGUAGE="ru", **organise
    )
    assert answer.status_code == 409 and answer.json()["detail"]
    assert api.patch(_detail(cup), {"venue": "Клуб"}, format="json", **organise).status_code == 200
    cup.refresh_from_db()
    assert cup.format == "single_elim" and cup.venue == "Клуб"


def test_editing_is_refused_to_a_results_key_and_another_clubs_key(api, cup, results_only, other_club_key):
    for headers in (results_only, other_club_key):
        assert api.patch(_detail(cup), {"venue": "Чужой"}, format="json", **headers).status_code == 403
    cup.refresh_from_db()
    assert cup.venue == ""


# --- delete -----------------------------------------------------------------------------------------


def test_an_event_not_started_is_deleted_with_its_entries(api, client, club, organiser, cup, organise):
    pk = cup.pk
    answer = api.delete(_detail(cup), **organise)
    assert answer.status_code == 204
    assert (
        not Tournament.objects.filter(pk=pk).exists() and not Entry.objects.filter(tournament_id=pk).exists()
    )
    row = AuditEntry.objects.get(action="tournament.delete", actor=organiser, tournament_id=pk)
    assert row.before["entries"] == 4 and row.before["name"] == "Кубок Успенки"
    assert api.get(_detail(cup)).status_code == 404
    client.force_login(organiser)  # the club's log still shows the event that is gone
    log = client.get(reverse("clubs:audit", kwargs={"slug": club.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert log.status_code == 200 and "Турнир удалён до начала" in log.content.decode()


def test_a_running_event_is_not_deleted(api, organiser, cup, organise):
    services.pair_next_round(actor=organiser, tournament=cup)
    answer = api.delete(_detail(cup), HTTP_ACCEPT_LANGUAGE="kk", **organise)
    assert answer.status_code == 409 and answer.json()["detail"]
    assert Tournament.objects.filter(pk=cup.pk).exists()
    assert not AuditEntry.objects.filter(action="tournament.delete").exists()


def test_deleting_is_refused_to_a_results_key_and_another_clubs_key(api, cup, results_only, other_club_key):
    for headers in (results_only, other_club_key):
        assert api.delete(_detail(cup), **headers).status_code == 403
    assert api.delete(_detail(cup)).status_code == 401
    assert Tournament.objects.filter(pk=cup.pk).exists()


# --- start ------------------------------------------------------------------------------------------


def test_starting_pairs_round_1_and_a_second_start_is_refused(api, organiser, cup, organise):
    answer = api.post(_start(cup), **organise)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "running"
    assert cup.rounds.count() == 1 and cup.rounds.get().matches.count() == 2
    assert AuditEntry.objects.filter(action="round.pair", actor=organiser, tournament_id=cup.pk).exists()
    again = api.post(_start(cup), HTTP_ACCEPT_LANGUAGE="ru", **organise)
    assert again.status_code == 409 and again.json()["detail"]
    assert cup.rounds.count() == 1


def test_starting_is_refused_to_a_results_key_and_another_clubs_key(api, cup, results_only, other_club_key):
    for headers in (results_only, other_club_key):
        assert api.post(_start(cup), **headers).status_code == 403
    cup.refresh_from_db()
    assert cup.status == TournamentStatus.REGISTRATION and not cup.rounds.exists()


# --- entries from a list, with seeds ----------------------------------------------------------------


def test_pairs_are_entered_from_a_list_at_the_seeds_asked_for(api, club, organiser, cup, organise):
    a, b, c, d = make_players(club, 4, prefix="Новичок")
    body = {
        "entries": [{"player_a": a.pk, "player_b": b.pk, "seed": 1}, {"player_a": c.pk, "player_b": d.pk}]
    }
    answer = api.post(_bulk(cup), body, format="json", **organise)
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert [e["kind"] for e in made] == ["pair", "pair"] and made[0]["seed"] == 1
    order = list(cup.entries.order_by("seed").values_list("player_a_id", flat=True))
    assert order[0] == a.pk and order[-1] == c.pk and len(order) == 6  # the four before move down one
    assert list(cup.entries.order_by("seed").values_list("seed", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert (
        AuditEntry.objects.filter(action="entry.create", actor=organiser, tournament_id=cup.pk).count() == 6
    )
    seeded = AuditEntry.objects.get(action="entry.seed", actor=organiser, tournament_id=cup.pk)
    assert seeded.after == {"seeds": {str(made[0]["id"]): 1}}


def test_a_list_with_one_bad_line_enters_nobody_and_names_the_line(api, club, organiser, cup, organise):
    a, b, c, d = make_players(club, 4, prefix="Новичок")
    taken = cup.entries.order_by("seed").first().player_a
    stranger = make_players(ClubFactory(slug="elsewhere"), 1, prefix="Чужак")[0]
    body = {
        "entries": [
            {"player_a": a.pk, "player_b": b.pk},
            {"player_a": c.pk, "player_b": c.pk},
            {"player_a": d.pk, "player_b": taken.pk},
            {"player_a": stranger.pk, "player_b": d.pk},
        ]
    }
    before = cup.entries.count()
    answer = api.post(_bulk(cup), body, format="json", HTTP_ACCEPT_LANGUAGE="ru", **organise)
    assert answer.status_code == 409
    assert set(answer.json()["fields"]) == {"entries.3.player_a"}  # not on the club's roster, first
    del body["entries"][3]
    answer = api.post(_bulk(cup), body, format="json", HTTP_ACCEPT_LANGUAGE="ru", **organise)
    assert answer.status_code == 409, answer.content
    fields = answer.json()["fields"]
    assert set(fields) == {"entries.1.player_b", "entries.2.player_b"}
    assert "уже" in fields["entries.2.player_b"][0]
    assert cup.entries.count() == before and not Entry.objects.filter(player_a=a).exists()


def test_seeds_are_refused_where_the_page_shows_no_arrows(api, club, organiser, organise):
    swiss = services.create_tournament(actor=organiser, club=club, name="Швейцарка", format="swiss")
    a, b = make_players(club, 2)
    body = {"entries": [{"player_a": a.pk, "player_b": b.pk, "seed": 1}]}
    answer = api.post(_bulk(swiss), body, format="json", **organise)
    assert answer.status_code == 409 and set(answer.json()["fields"]) == {"entries.0.seed"}
    assert not swiss.entries.exists()


def test_a_line_of_the_wrong_kind_is_refused_by_its_fields(api, club, cup, solo, organise):
    a, b = make_players(club, 2)
    wrong = api.post(_bulk(cup), {"entries": [{"player": a.pk}]}, format="json", **organise)
    assert wrong.status_code == 409  # the schema cannot say which kind the event takes
    assert set(wrong.json()["fields"]) == {"entries.0.player_a", "entries.0.player_b", "entries.0.player"}
    assert api.post(_bulk(solo), {"entries": []}, format="json", **organise).status_code == 400


def test_players_of_an_individual_event_are_entered_with_seeds(api, club, organiser, solo, organise):
    players = make_players(club, 3, prefix="Одиночка")
    body = {
        "entries": [
            {"player": players[0].pk},
            {"player": players[1].pk},
            {"player": players[2].pk, "seed": 1},
        ]
    }
    answer = api.post(_bulk(solo), body, format="json", **organise)
    assert answer.status_code == 201, answer.content
    assert [e["kind"] for e in answer.json()] == ["player"] * 3
    order = list(solo.individual_entries.order_by("seed").values_list("player_id", flat=True))
    assert order == [players[2].pk, players[0].pk, players[1].pk]
    assert AuditEntry.objects.filter(action="individual.enter", tournament_id=solo.pk).count() == 3
    assert AuditEntry.objects.filter(action="individual.seed", tournament_id=solo.pk).exists()


def test_a_list_is_refused_to_a_results_key_and_another_clubs_key(
    api, club, cup, results_only, other_club_key
):
    a, b = make_players(club, 2)
    body = {"entries": [{"player_a": a.pk, "player_b": b.pk}]}
    for headers in (results_only, other_club_key):
        assert api.post(_bulk(cup), body, format="json", **headers).status_code == 403
    assert not cup.entries.filter(player_a=a).exists()


# --- check-in ---------------------------------------------------------------------------------------


def test_a_pair_and_a_player_are_checked_in(api, club, organiser, cup, solo, organise):
    pair = cup.entries.order_by("seed").first()
    answer = api.post(_check_in(cup, pair), **organise)
    assert answer.status_code == 200 and answer.json()["status"] == "checked_in"
    assert AuditEntry.objects.filter(
        action="entry.check_in", actor=organiser, object_id=str(pair.pk)
    ).exists()
    player = services.register_player(actor=organiser, tournament=solo, player=make_players(club, 1)[0])
    answer = api.post(_check_in(solo, player), **organise)
    assert answer.status_code == 200 and answer.json()["status"] == "checked_in"
    assert IndividualEntry.objects.get(pk=player.pk).status == EntryStatus.CHECKED_IN
    assert AuditEntry.objects.filter(action="individual.check_in", object_id=str(player.pk)).exists()


def test_check_in_takes_the_fee_in_the_same_step_and_no_read_shows_it(api, organiser, cup, organise):
    set_fee = api.patch(_detail(cup), {"entry_fee": 312000, "fee_currency": "RUB"}, format="json", **organise)
    assert set_fee.status_code == 200
    cup.refresh_from_db()
    assert (cup.entry_fee, cup.fee_currency) == (312000, "RUB")
    assert api.patch(_detail(cup), {"fee_currency": "USD"}, format="json", **organise).status_code == 400
    pair, other = cup.entries.order_by("seed")[:2]
    answer = api.post(_check_in(cup, pair), {"paid": "cash"}, format="json", **organise)
    assert answer.status_code == 200 and answer.json()["status"] == "checked_in"
    assert "paid" not in answer.json() and "312000" not in answer.content.decode()
    pair.refresh_from_db()
    assert (pair.paid, pair.paid_amount, pair.paid_to) == ("cash", 312000, organiser)
    assert AuditEntry.objects.filter(action="entry.payment", object_id=str(pair.pk)).exists()
    paid = {"paid": "transfer", "amount": 258500}
    answer = api.post(_check_in(cup, other), paid, format="json", **organise)
    other.refresh_from_db()
    assert (other.paid, other.paid_amount) == ("transfer", 258500)
    refused = api.post(_check_in(cup, other), {"paid": "bitcoin"}, format="json", **organise)
    assert refused.status_code == 400
    listed = api.get(reverse("api:entry_list", kwargs={"slug": cup.slug})).content.decode()
    assert "transfer" not in listed and "258500" not in listed and '"paid' not in listed


def test_check_in_closes_when_round_1_is_paired(api, organiser, cup, organise):
    services.pair_next_round(actor=organiser, tournament=cup)
    pair = cup.entries.order_by("seed").first()
    answer = api.post(_check_in(cup, pair), HTTP_ACCEPT_LANGUAGE="uk", **organise)
    assert answer.status_code == 409 and answer.json()["detail"]


def test_check_in_is_refused_to_a_results_key_and_another_clubs_key(api, cup, results_only, other_club_key):
    pair = cup.entries.order_by("seed").first()
    for headers in (results_only, other_club_key):
        assert api.post(_check_in(cup, pair), **headers).status_code == 403
    pair.refresh_from_db()
    assert pair.status == EntryStatus.APPROVED
