"""Who may see a match, on every route that shows one, from each kind of viewer.

Four matches: a public casual table, an invitation-only one, a tournament match whose round is
still being played, and one whose round is over (with a sheet-only match of that tournament).
Viewers: a visitor, a signed-in stranger, a player who sat in the match, an organiser of the
tournament's club. Every refusal is the 404 of a match that does not exist.
"""

from __future__ import annotations

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

pytestmark = pytest.mark.django_db
VIEWERS = ("anonymous", "stranger", "player", "organiser")
SEES = {
    "public": {"anonymous", "stranger", "player", "organiser"},
    "private": {"player"},
    "round_on": {"player", "organiser"},
    "round_over": {"anonymous", "stranger", "player", "organiser"},
    "sheet": {"anonymous", "stranger", "player", "organiser"},
}


def _answer_and_resign(table_id: int, seat: int) -> Table:
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    for s in state.redeal_pending:
        assert services.play(table_id=table_id, seat=s, action="pass", expected_event=table.decision_event).ok
    services.resign(table_id=table_id, seat=seat)
    return Table.objects.get(pk=table_id)


def _tournament_table(people, club, key: int, public: bool) -> tuple[Table, ArchivedMatch]:
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, sit=False, casual=False)
    for user in people:
        services.sit(table_id=table.pk, user=user)
    table = _answer_and_resign(table.pk, 1)
    ns, ew, winner, reason, seat = archiving.table_result(table)
    played = archive_services.PlayedMatch(
        source="tournament", seats=archiving.seats_of_table(table), rules=table.rules,
        played_at=table.finished_at, ns_eyes=ns, ew_eyes=ew, winner=winner, reason=reason, reason_seat=seat,
        record=table.record, table_id=table.pk, tournament_match=key, tournament=1, club_id=club.pk,
        public=public, event_name="Кубок")
    return table, archive_services.archive_match(played=played)


@pytest.fixture
def world(db):
    User = get_user_model()
    users = {n: User.objects.create_user(username=n, password="x-secret-1")
             for n in ("p0", "p1", "p2", "p3", "stranger", "boss")}
    for n in ("p0", "p1", "p2", "p3"):
        Player.objects.create(display_name=n.upper(), user=users[n])
    club = ClubFactory(name="Успенка", slug="uspenka-v")
    MembershipFactory(club=club, user=users["boss"], role=Role.ORGANISER)
    four = [users[n] for n in ("p0", "p1", "p2", "p3")]
    matches, tables = {}, {}
    for key, public in (("public", True), ("private", False)):
        table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=four[0], public=public)
        for user in four[1:]:
            services.sit(table_id=table.pk, user=user)
        tables[key] = _answer_and_resign(table.pk, 2)
        matches[key] = ArchivedMatch.objects.get(table_id=tables[key].pk)
    tables["round_on"], matches["round_on"] = _tournament_table(four, club, 1, public=False)
    tables["round_over"], matches["round_over"] = _tournament_table(four, club, 2, public=True)
    sheet = archive_services.PlayedMatch(
        source="tournament", seats=archiving.seats_of_table(tables["round_over"]), rules={},
        played_at=tables["round_over"].finished_at, ns_eyes=12, ew_eyes=1, winner="NS", tournament_match=3,
        tournament=1, club_id=club.pk, public=True,
        sheet=[archive_services.SheetDeal(outcome="win", pair_on_duty=0, ns_points=70, ew_points=50,
                                          ns_eyes=1,
                                  ew_eyes=0, ns_score=1, ew_score=0)])
    matches["sheet"] = archive_services.archive_match(played=sheet)
    viewers = {"anonymous": None, "stranger": users["stranger"], "player": users["p2"],
               "organiser": users["boss"]}
    return matches, tables, viewers


def _routes(key, match, table):
    routes = [reverse("archive:match", args=[match.pk])]
    if match.has_record:
        routes.append(reverse("archive:record", args=[match.pk]))
    else:
        routes += [reverse("archive:sheet_csv", args=[match.pk]),
                   reverse("archive:sheet_json", args=[match.pk])]
    if table is not None:
        routes += [reverse(name, args=[table.pk]) for name in
                   ("gameplay:replay", "gameplay:record_json", "gameplay:verify_table")]
        if table.casual:
            routes.append(reverse("archive:table_match", args=[table.pk]))
    return routes


@pytest.mark.parametrize("who", VIEWERS)
def test_every_route_that_shows_a_match_follows_one_rule(client, world, who):
    matches, tables, viewers = world
    if viewers[who] is not None:
        client.force_login(viewers[who])
    listing = client.get(reverse("archive:list")).content.decode()
    player = Player.objects.get(user__username="p2")
    player_page = client.get(reverse("archive:player", args=[player.pk])).content.decode()
    assert client.get(reverse("archive:match", args=[999999])).status_code == 404
    for key, match in matches.items():
        allowed = who in SEES[key]
        for route in _routes(key, match, tables.get(key)):
            response = client.get(route)
            expected = (200, 302) if allowed else (404,)
            assert response.status_code in expected, (who, key, route, response.status_code)
        link = reverse("archive:match", args=[match.pk])
        assert (link in listing) == allowed, (who, key, "archive list")
        assert (link in player_page) == allowed, (who, key, "player page")
    # the private table itself: its players only; the tournament tables are watched by anyone
    assert client.get(tables["private"].get_absolute_url()).status_code == (200 if who == "player" else 404)
    assert client.get(tables["round_on"].get_absolute_url()).status_code == 200
