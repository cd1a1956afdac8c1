"""The archive through the API by the pages' rules: a private match is absent from the list and 404
on its own for a visitor and a stranger's key, there for its player's key and the club organiser's;
no answer anywhere holds an e-mail address."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from archive import services as archive_services
from archive.models import ArchivedMatch
from clubs.models import Player, Role
from gameplay import services
from gameplay.models import Seating, Table
from gameplay.services import archiving
from tests.clubs.factories import ClubFactory, MembershipFactory

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db
SEES_PRIVATE = {"anonymous": False, "stranger": False, "player": True, "organiser": True}


def _resign(table_id: int, seat: int) -> Table:
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    for s in state.redeal_pending:
        assert services.play(table_id=table_id, seat=s, action="pass", expected_event=table.decision_event).ok
    services.resign(table_id=table_id, seat=seat)
    return Table.objects.get(pk=table_id)


def _club_match(people, club, *, public: bool) -> ArchivedMatch:
    """A club's tournament table played to the end and archived (private: its round is on)."""
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, sit=False, casual=False)
    for user in people:
        services.sit(table_id=table.pk, user=user)
    table = _resign(table.pk, 1)
    ns, ew, winner, reason, seat = archiving.table_result(table)
    played = archive_services.PlayedMatch(
        source="tournament", seats=archiving.seats_of_table(table), rules=table.rules,
        played_at=table.finished_at, ns_eyes=ns, ew_eyes=ew, winner=winner, reason=reason, reason_seat=seat,
        record=table.record, table_id=table.pk, tournament_match=table.pk, tournament=1, club_id=club.pk,
        public=public, event_name="Кубок")  # fmt: skip
    return archive_services.archive_match(played=played)


@pytest.fixture
def world(db):
    User = get_user_model()
    users = {
        n: User.objects.create_user(username=f"acct-{n}", email=f"{n}@mail.example", password="x-secret-1")
        for n in ("p0", "p1", "p2", "p3", "stranger", "boss")
    }
    for n in ("p0", "p1", "p2", "p3"):
        Player.objects.create(display_name=n.upper(), user=users[n])
    club = ClubFactory(name="Успенка", slug="uspenka-api")
    MembershipFactory(club=club, user=users["boss"], role=Role.ORGANISER)
    four = [users[n] for n in ("p0", "p1", "p2", "p3")]
    matches = {"private": _club_match(four, club, public=False)}
    matches["public"] = _club_match(four, club, public=True)
    viewers = {"anonymous": None, "stranger": users["stranger"], "player": users["p2"]}
    viewers["organiser"] = users["boss"]
    return matches, viewers


def _headers(user) -> dict:
    return bearer(key_for(user)) if user is not None else {}


@pytest.mark.parametrize("viewer", list(SEES_PRIVATE))
def test_a_private_match_is_seen_only_by_its_players_and_the_clubs_organisers(api, world, viewer):
    matches, viewers = world
    headers = _headers(viewers[viewer])
    listed = api.get(reverse("api:archive_list"), **headers)
    assert listed.status_code == 200
    ids = {m["id"] for m in listed.json()["results"]}
    assert matches["public"].pk in ids
    assert (matches["private"].pk in ids) is SEES_PRIVATE[viewer]
    for name in ("archive_detail", "archive_record"):
        private = api.get(reverse(f"api:{name}", kwargs={"pk": matches["private"].pk}), **headers)
        assert private.status_code == (200 if SEES_PRIVATE[viewer] else 404)
        public = api.get(reverse(f"api:{name}", kwargs={"pk": matches["public"].pk}), **headers)
        assert public.status_code == 200


def test_the_record_is_the_matchs_bilka_record(api, world):
    matches, _viewers = world
    answer = api.get(reverse("api:archive_record", kwargs={"pk": matches["public"].pk}))
    assert answer.json() == matches["public"].record and answer.json()["format"].startswith("bilka-record/")


@pytest.mark.parametrize("viewer", ["anonymous", "organiser"])
def test_no_answer_holds_an_email_address(api, world, viewer):
    matches, viewers = world
    headers = _headers(viewers[viewer])
    player = Player.objects.filter(user__isnull=False).first()
    urls = [
        reverse("api:club_list"), reverse("api:club_detail", kwargs={"slug": "uspenka-api"}),
        reverse("api:player_list"), reverse("api:player_detail", kwargs={"pk": player.pk}),
        reverse("api:archive_list"), reverse("api:rating_list") + "?min_matches=0",
        *(reverse(f"api:{n}", kwargs={"pk": m.pk}) for k, m in matches.items()
          if k == "public" or viewer == "organiser" for n in ("archive_detail", "archive_record")),
    ]  # fmt: skip
    for url in urls:
        answer = api.get(url, **headers)
        assert answer.status_code == 200, url
        text = json.dumps(answer.json(), ensure_ascii=False)
        assert "@mail.example" not in text, url
        assert "email" not in text, url
