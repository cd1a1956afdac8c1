"""The fair-play review command over the archive: it reviews only the finished online matches with
records that the user it runs as may see, and a seat that saw every hand stands out while an
honest one does not (one match of each, 8 layouts per decision: a few seconds)."""

from __future__ import annotations

import copy
import functools
from datetime import UTC, datetime
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from archive import services as archive_services
from archive.models import SeatKind
from bench.fairplay.players import play_deals
from clubs.models import Player
from gameplay.engine.cards import PAIRS
from gameplay.engine.record import read_record

pytestmark = pytest.mark.django_db


@functools.cache
def _whole_match(kind: str, seed: int) -> dict[str, Any]:
    return play_deals(kind, 30, seed=seed)[0]  # only the last match is cut short


def _archive(played: dict[str, Any], player: Player, *, source: str, public: bool) -> None:
    seats = [archive_services.SeatIn(seat=0, name=player.display_name, player_id=player.pk)]
    seats += [archive_services.SeatIn(seat=s, name="", kind=SeatKind.BOT, bot_level="beginner")
              for s in (1, 2, 3)]
    record = copy.deepcopy(played)
    state = read_record(record)
    assert state.winner is not None
    archive_services.archive_match(played=archive_services.PlayedMatch(
        source=source, seats=seats, rules={}, played_at=datetime(2026, 12, 1, tzinfo=UTC),
        ns_eyes=min(state.score[0], 12), ew_eyes=min(state.score[1], 12), winner=PAIRS[state.winner],
        record=record, public=public))


@pytest.fixture
def world(db):
    User = get_user_model()
    User.objects.create_superuser(username="staff", password="x-secret-1", email="s@example.org")
    User.objects.create_user(username="stranger", password="x-secret-1")
    cheat = Player.objects.create(display_name="Сова")
    honest = Player.objects.create(display_name="Ёж")
    uploader = Player.objects.create(display_name="Грузчик")
    _archive(_whole_match("all-seeing", 2), cheat, source="table", public=False)
    _archive(_whole_match("beginner", 2), honest, source="table", public=True)
    _archive(_whole_match("all-seeing", 3), uploader, source="upload", public=True)


def _run(*args: str) -> str:
    out = StringIO()
    call_command("fairplay_review", *args, "--samples", "8", stdout=out)
    return out.getvalue()


def test_staff_see_the_cheat_stand_out_and_the_honest_player_not(world) -> None:
    out = _run("--as", "staff")
    lines = out.splitlines()
    assert lines[0].startswith("2 players")  # the uploaded record is not reviewed
    cheat = next(line for line in lines if line.startswith("Сова"))
    honest = next(line for line in lines if line.startswith("Ёж"))
    assert "below the threshold" in cheat
    assert "below the threshold" not in honest
    assert "Грузчик" not in out
    assert "?deal=" in out  # the heaviest decisions link to their replay positions


def test_a_stranger_reviews_only_the_matches_he_may_see(world) -> None:
    out = _run("--as", "stranger")
    assert "Ёж" in out
    assert "Сова" not in out


def test_an_unknown_user_is_an_error(world) -> None:
    with pytest.raises(CommandError, match="no user"):
        _run("--as", "nobody")


def test_one_player_is_reviewed_alone_and_a_negative_margin_is_refused(world) -> None:
    honest = Player.objects.get(display_name="Ёж")
    out = _run("--as", "staff", "--player", str(honest.pk), "--margin", "0")
    assert out.splitlines()[0].startswith("1 players")
    assert "Ёж" in out and "Сова" not in out
    with pytest.raises(CommandError, match="margin"):
        _run("--as", "staff", "--margin", "-1")
