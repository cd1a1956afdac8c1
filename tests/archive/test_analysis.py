"""The double-dummy analysis of archived matches: worked out on its own queue, kept, shown in the
replay ("analysing…" until it is there), summed on the player's page, filled in by the backfill."""

from __future__ import annotations

import datetime
import io
import json

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from archive.models import MatchAnalysis, SeatAnalysis
from archive.services import analysis
from gameplay.engine import Rules, write_record
from gameplay.engine.analysis import analyse_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _short_record(seed: int = 1) -> dict:
    """A real match, resigned early in its second deal: one deal of 32 cards to analyse."""
    state = bot_match(Rules(), seed=seed, stop_after=36)
    state.end_match("resign", 1)
    return write_record(state)


@pytest.fixture
def players(db):
    return [PlayerFactory(display_name=name, user=UserFactory(username=name.lower()))
            for name in ("Asel", "Ivan", "Oleh", "Nurlan")]


def _archive(players, record: dict):
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk, user_id=p.user_id)
             for i, p in enumerate(players)]
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=seats, rules={}, played_at=timezone.now() - datetime.timedelta(hours=1),
        ns_eyes=0, ew_eyes=2, winner=PAIRS[1], reason="resign", reason_seat=1, record=record, public=True))


@pytest.fixture
def match(players):
    return _archive(players, _short_record())


def test_an_analysed_match_keeps_the_solvers_answer_and_each_seats_totals(match):
    assert analysis.analyse_match(match_id=match.pk).startswith("analysed in")
    kept = MatchAnalysis.objects.get(match=match)
    assert kept.result == analyse_record(match.record)
    assert kept.result["deals"][0]["par"]["NS"] + kept.result["deals"][0]["par"]["EW"] == 120
    seats = {s.archived_seat.seat: s for s in SeatAnalysis.objects.filter(analysis=kept)}
    cards = [c for d in kept.result["deals"] for c in d["cards"]]
    assert sum(s.cards for s in seats.values()) == len(cards) == 32
    assert sum(s.points_lost for s in seats.values()) == sum(c["lost"] for c in cards)
    assert all(0 <= s.best_cards <= s.cards == 8 for s in seats.values())


def test_analysing_again_keeps_the_answer_and_mends_the_seats(match):
    analysis.analyse_match(match_id=match.pk)
    first = MatchAnalysis.objects.get(match=match)
    SeatAnalysis.objects.all().delete()  # as when the archive rewrites the match's seats
    assert analysis.analyse_match(match_id=match.pk) == "already analysed"
    again = MatchAnalysis.objects.get(match=match)
    assert (again.pk, again.result, again.seconds) == (first.pk, first.result, first.seconds)
    assert SeatAnalysis.objects.filter(analysis=again).count() == 4


def test_the_archives_notice_queues_it_on_the_analysis_queue(match, django_capture_on_commit_callbacks):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(settings.ANALYSIS_QUEUE)
    with django_capture_on_commit_callbacks(execute=True):
        analysis.follow_archive(sender=None, match_id=match.pk, change="created", players=[])
        analysis.follow_archive(sender=None, match_id=match.pk, change="removed", players=[])
    queued = [json.loads(m) for m in broker.lrange(settings.ANALYSIS_QUEUE, 0, -1)]
    broker.delete(settings.ANALYSIS_QUEUE)
    assert [(m["headers"]["task"], m["headers"]["argsrepr"]) for m in queued] == [
        ("gameplay.analyse_match", f"({match.pk},)")]


def test_the_replay_says_analysing_until_it_is_there_then_shows_best_play(client, match):
    url = reverse("archive:match", args=[match.pk])
    waiting = client.get(url, {"deal": 1, "card": 1}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Best play, with all hands known" in waiting and "Analysing…" in waiting
    analysis.analyse_match(match_id=match.pk)
    result = MatchAnalysis.objects.get(match=match).result["deals"][0]
    page = client.get(url, {"deal": 1, "card": 1}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Analysing…" not in page
    assert f"Par with best play: NS {result['par']['NS']} · EW {result['par']['EW']}" in page
    first = result["cards"][0]
    assert ("a best card." if first["lost"] == 0 else f"{first['lost']} points lost.") in page
    row_line = f"Par NS {result['par']['NS']} · EW {result['par']['EW']}; against it NS"  # the deal list
    assert row_line not in page  # how the deal ended against par is its result: not before its end
    data = json.loads(page.split('id="rp-data" type="application/json">')[1].split("</script>")[0])
    assert data["analysis"]["state"] == "done" and data["analysis"]["deals"][0] is None
    end = client.get(url, {"deal": 1, "card": 32}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The deal ended NS" in end and "against par" in end and row_line in end
    data = json.loads(end.split('id="rp-data" type="application/json">')[1].split("</script>")[0])
    assert data["analysis"]["deals"][0]["cards"][0] == [first["best"], first["lost"]]
    russian = client.get(url, {"deal": 1, "card": 1}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Analysing" not in russian and "Par with" not in russian


def test_a_record_the_solver_cannot_read_is_kept_as_failed_not_retried(match, client, monkeypatch):
    from gameplay.engine import RecordError

    def broken(record):
        raise RecordError("deal 1: a card no hand holds")

    monkeypatch.setattr(analysis, "analyse_record", broken)
    assert analysis.analyse_match(match_id=match.pk).startswith("not analysed")
    monkeypatch.undo()
    assert analysis.analyse_match(match_id=match.pk) == "already analysed"
    page = client.get(reverse("archive:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "This match could not be analysed." in page.content.decode()


def test_the_player_page_sums_his_play_against_best_play(client, match, players):
    url = reverse("archive:player", args=[players[0].pk])
    assert "None of these matches has been analysed yet." in client.get(
        url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    analysis.analyse_match(match_id=match.pk)
    mine = SeatAnalysis.objects.get(archived_seat__player=players[0])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "From 1 analysed match" in page
    assert f"{round(100 * mine.best_cards / mine.cards)}%" in page
    assert str(round(mine.points_lost / mine.deals, 1)) in page


def test_the_backfill_fills_in_what_is_missing_with_a_progress_line(players, match):
    other = _archive(players, _short_record(seed=2))
    out = io.StringIO()
    call_command("analyse_archive", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"[1/2] match {match.pk}: analysed in")
    assert lines[1].startswith(f"[2/2] match {other.pk}: analysed in")
    assert lines[-1] == "2 matches: 2 analysed, 0 could not be analysed, 0 left as they were."
    again = io.StringIO()
    call_command("analyse_archive", stdout=again)
    assert again.getvalue().strip() == "0 matches: 0 analysed, 0 could not be analysed, 0 left as they were."
