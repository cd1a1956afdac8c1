"""The archive's list filtered by game: Bilka's matches (whose rules name no game), Kozyol's, or all."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from archive import services as archive_services
from gameplay.engine import write_record
from gameplay.engine.record_games import read_game_record, write_game_record
from gameplay.engine.selfplay import bot_match
from tests.archive.test_archive_downloads import seats, sitter  # noqa: F401 - the fixture
from tests.ratings.other_games import played_out

pytestmark = pytest.mark.django_db


def _kozyol_record() -> dict:
    return write_game_record(played_out({"game": "kozyol"}, 3))


def _archive(club, sitter, record, rules):  # noqa: F811
    state = read_game_record(record)
    ns, ew = state.capped_score
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="upload", seats=seats(sitter), rules=rules,
        played_at=timezone.now() - datetime.timedelta(days=1),
        ns_eyes=ns, ew_eyes=ew, winner="NS" if state.winner == 0 else "EW", record=record, club_id=club.pk,
    ))


def test_the_list_keeps_one_game_when_asked(client, club, sitter):  # noqa: F811
    bilka = _archive(club, sitter, write_record(bot_match(seed=9)), {})
    kozyol = _archive(club, sitter, _kozyol_record(), {"game": "kozyol"})

    def listed(query: str) -> set[int]:
        page = client.get(f"/archive/{query}", HTTP_ACCEPT_LANGUAGE="ru")
        assert page.status_code == 200
        return {row["match"].pk for row in page.context["rows"]}

    assert listed("") == {bilka.pk, kozyol.pk}
    assert listed("?game=bilka") == {bilka.pk}
    assert listed("?game=kozyol") == {kozyol.pk}
    page = client.get("/archive/?game=durak", HTTP_ACCEPT_LANGUAGE="ru")  # not a choice: the form says so
    assert page.status_code == 200
    assert {row["match"].pk for row in page.context["rows"]} == {bilka.pk, kozyol.pk}
    html = client.get("/archive/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'name="game"' in html and "Козёл хвалёный" in html
