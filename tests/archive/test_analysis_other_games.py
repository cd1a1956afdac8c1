"""The double-dummy analysis of archived matches of the other games: a Kozyol match analysed by its
own solver on the same queue, kept with each seat's totals and shown in its replay from the card
the analysis starts at; a Bilka-for-two record analysed through the same service; no puzzles from
either (they stay Bilka's)."""

from __future__ import annotations

import datetime
import json
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from archive.models import MatchAnalysis, Puzzle, SeatAnalysis
from archive.services import analysis
from gameplay.engine import variant_bot
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import PAIRS
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.record_games import write_game_record
from gameplay.engine.state import Phase
from gameplay.engine.variant_analysis import KOZYOL_FROM_CARDS, analyse_game_record
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _played(state: KozyolMatchState | Bilka2MatchState, deals: int, seed: int) -> dict:
    """The record of `deals` deals played by the beginner at every seat, then resigned."""
    rng = random.Random(seed)  # noqa: S311 - test players
    while len([d for d in state.deals if d.outcome not in (None, "redeal")]) < deals:
        if state.phase == Phase.REDEAL:
            state.end_redeal_phase()
            continue
        state.apply(variant_bot.choose_action(state.observation(state.to_move), rng))
    state.end_match("resign", 1)
    return write_game_record(state)


@pytest.fixture
def players(db):
    return [PlayerFactory(display_name=name, user=UserFactory(username=name.lower()))
            for name in ("Asel", "Ivan", "Oleh", "Nurlan")]


def _archive(players, record: dict, rules: dict):
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk, user_id=p.user_id)
             for i, p in enumerate(players)]
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=seats, rules=rules, played_at=timezone.now() - datetime.timedelta(hours=1),
        ns_eyes=0, ew_eyes=2, winner=PAIRS[1], reason="resign", reason_seat=1, record=record, public=True))


def test_a_kozyol_match_is_analysed_and_its_replay_shows_each_card_against_best_play(client, players):
    rules = KozyolRules(redeal_below=0)
    record = _played(KozyolMatchState(rules, seed=7), 2, 7)
    match = _archive(players, record, rules.to_json())
    assert analysis.analyse_match(match_id=match.pk).startswith("analysed in")
    kept = MatchAnalysis.objects.get(match=match)
    assert kept.result == analyse_game_record(record) and kept.result["game"] == "kozyol"
    cards = [c for d in kept.result["deals"] for c in d["cards"]]
    seats = {s.archived_seat.seat: s for s in SeatAnalysis.objects.filter(analysis=kept)}
    assert len(seats) == 4 and sum(s.cards for s in seats.values()) == len(cards) > 0
    assert sum(s.points_lost for s in seats.values()) == sum(c["lost"] for c in cards)
    assert not Puzzle.objects.filter(match=match).exists()  # puzzles are Bilka's
    # the replay: the note, and the panel from the card the analysis starts at (36 cards: the 13th)
    deal = kept.result["deals"][0]
    start = deal["from_ply"]
    assert start == 36 - KOZYOL_FROM_CARDS
    url = reverse("archive:match", args=[match.pk])
    before = client.get(url, {"deal": 1, "card": 1}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Its double-dummy analysis starts in each deal once at most 24 cards are left" in before
    par = f"Par with best play from card {start + 1}: NS {deal['par']['NS']} · EW {deal['par']['EW']}"
    assert par in before and "Analysing…" not in before
    assert '<p class="rp-dd-last"></p>' in before  # card 1 is not judged
    first = deal["cards"][0]
    page = client.get(url, {"deal": 1, "card": start + 1}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    last = page.split('<p class="rp-dd-last">')[1].split("</p>")[0]
    assert ("a best card." if first["lost"] == 0 else f"{first['lost']} points lost.") in last
    end = client.get(url, {"deal": 1, "card": len(record["deals"][0]["plays"])}, HTTP_ACCEPT_LANGUAGE="en")
    html = end.content.decode()
    data = json.loads(html.split('id="rp-data" type="application/json">')[1].split("</script>")[0])
    shown = data["analysis"]["deals"][0]  # sent once the deal is over (no spoilers before)
    assert shown["from_ply"] == start and shown["cards"][:start] == [None] * start
    assert shown["cards"][start] == [first["best"], first["lost"]]
    # the par graph starts where the analysis does
    assert f"Before card {start + 1}: par NS {deal['par']['NS']}" in page
    russian = client.get(url, {"deal": 1, "card": start + 1}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Par with" not in russian and "начиная с карты" in russian


def test_a_bilka_for_two_record_is_analysed_by_the_same_service(players):
    rules = Bilka2Rules()
    record = _played(Bilka2MatchState(rules, seed=3), 1, 3)
    assert record["game"] == "bilka-2"
    result = analysis.analyse_any_record(record)
    assert result == analyse_game_record(record) and result["game"] == "bilka-2"
    totals = analysis.seat_totals(result)
    assert set(totals) == {"N", "S"}
    assert totals["N"]["cards"] + totals["S"]["cards"] == len(result["deals"][0]["cards"]) == 32
    assert totals["N"]["deals"] == totals["S"]["deals"] == 1
    # (the archive keeps four-seat matches only for now: once Bilka for two's matches are
    # archived, `analyse_match` reads them through `analyse_any_record` and `seat_letters`)
    assert analysis.seat_letters("bilka-2") == "NS" and analysis.seat_letters("kozyol") == "NESW"
