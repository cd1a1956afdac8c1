"""Records out: an archived match's record, or a sheet-only match's sheet, as a file, for those
who may see the match; everyone else gets the 404 of a match that does not exist."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest
from django.utils import timezone

from archive import services as archive_services
from archive.models import SeatKind
from clubs.models import Role
from gameplay.engine import write_record
from gameplay.engine.selfplay import bot_match
from tests.clubs.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SHEET = [
    archive_services.SheetDeal(outcome="win", pair_on_duty=0, ns_points=70, ew_points=50, ns_eyes=1,
                               ew_eyes=0,
                       ns_score=1, ew_score=0),
    archive_services.SheetDeal(outcome="redeal", pair_on_duty=None, ns_points=None, ew_points=None, ns_eyes=0,
                       ew_eyes=0, ns_score=1, ew_score=0),
    archive_services.SheetDeal(outcome="lucy", pair_on_duty=1, ns_points=0, ew_points=120, ns_eyes=0,
                               ew_eyes=12,
                       ns_score=1, ew_score=12),
]


@pytest.fixture
def sitter(db):
    user = UserFactory(username="sitter")
    return PlayerFactory(display_name="Асель", user=user)


def seats(sitter):
    return [archive_services.SeatIn(seat=0, name="Асель", player_id=sitter.pk, user_id=sitter.user_id),
            archive_services.SeatIn(seat=1, name="Олег"), archive_services.SeatIn(seat=2, name="Иван"),
            archive_services.SeatIn(seat=3, name="Бот", kind=SeatKind.BOT)]


def archived(club, sitter, *, record=False, public=True):
    state, record = None, None if not record else record
    if record:
        state = bot_match(seed=9, players={"N": "Асель", "E": "Олег", "S": "Иван", "W": "Бот"})
        record = write_record(state)
    ns, ew = state.capped_score if state else (1, 12)
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="upload", seats=seats(sitter), rules={}, played_at=timezone.now() - datetime.timedelta(days=1),
        ns_eyes=ns, ew_eyes=ew, winner="NS" if ns > ew else "EW", record=record,
        sheet=() if record else SHEET, club_id=club.pk, public=public,
    ))


def test_the_record_downloads_as_a_file(client, club, sitter):
    match = archived(club, sitter, record=True)
    response = client.get(f"/archive/{match.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="bilka-{match.pk}.json"'
    assert response["Content-Type"].startswith("application/json")
    assert json.loads(response.content) == match.record
    assert client.get(f"/archive/{match.pk}/sheet.csv").status_code == 404  # it has its record instead
    assert client.get(f"/archive/{match.pk}/sheet.json").status_code == 404


def test_a_sheet_only_match_downloads_its_sheet(client, club, sitter):
    match = archived(club, sitter)
    assert client.get(f"/archive/{match.pk}/record.json").status_code == 404
    response = client.get(f"/archive/{match.pk}/sheet.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == f'attachment; filename="bilka-{match.pk}-sheet.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["number", "outcome", "on_duty", "points_ns", "points_ew", "eyes_ns", "eyes_ew",
                       "score_ns", "score_ew"]
    assert rows[1:] == [["1", "win", "NS", "70", "50", "1", "0", "1", "0"],
                        ["2", "redeal", "", "", "", "0", "0", "1", "0"],
                        ["3", "lucy", "EW", "0", "120", "0", "12", "1", "12"]]
    response = client.get(f"/archive/{match.pk}/sheet.json")
    assert response["Content-Disposition"] == f'attachment; filename="bilka-{match.pk}-sheet.json"'
    sheet = json.loads(response.content)
    assert sheet["format"] == "bilka-sheet/1"
    assert sheet["players"] == {"N": "Асель", "E": "Олег", "S": "Иван", "W": "Бот"}
    assert sheet["rules"] == match.rules and sheet["rules"]["deck"] == "32"
    assert sheet["score"] == {"NS": 1, "EW": 12} and sheet["winner"] == "EW"
    assert sheet["deals"][2] == {"number": 3, "outcome": "lucy", "on_duty": "EW",
                                 "points": {"NS": 0, "EW": 120}, "eyes": {"NS": 0, "EW": 12},
                                 "score": {"NS": 1, "EW": 12}}
    assert sheet["deals"][1]["on_duty"] is None and sheet["deals"][1]["points"] == {"NS": None, "EW": None}


@pytest.mark.parametrize("kind", ["record", "sheet"])
def test_a_private_match_is_only_for_its_players_and_its_organisers(client, club, sitter, organiser, kind):
    match = archived(club, sitter, record=kind == "record", public=False)
    urls = ([f"/archive/{match.pk}/record.json"] if kind == "record"
            else [f"/archive/{match.pk}/sheet.csv", f"/archive/{match.pk}/sheet.json"])
    missing = [u.replace(f"/{match.pk}/", f"/{match.pk + 1000}/") for u in urls]
    stranger = UserFactory(username="stranger")
    MembershipFactory(club=club, user=stranger, role=Role.MEMBER)  # a member is not an organiser
    for who in (None, stranger):
        if who is not None:
            client.force_login(who)
        for address in urls + missing:
            response = client.get(address)
            assert response.status_code == 404, (who, address)
    for who in (sitter.user, organiser):
        client.force_login(who)
        for address in urls:
            assert client.get(address).status_code == 200, (who, address)


def test_the_match_page_links_its_files(client, club, sitter):
    with_record, sheet_only = archived(club, sitter, record=True), archived(club, sitter)
    page = client.get(with_record.get_absolute_url()).content.decode()
    assert f"/archive/{with_record.pk}/record.json" in page
    page = client.get(sheet_only.get_absolute_url()).content.decode()
    assert f"/archive/{sheet_only.pk}/sheet.csv" in page and f"/archive/{sheet_only.pk}/sheet.json" in page
