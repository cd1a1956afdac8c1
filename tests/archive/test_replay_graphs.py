"""The replay's graphs as the server draws them: the par of a deal card by card (each card's lost
points, the pair that lost them, a link per position, only up to the position shown), the match's
eyes deal by deal (only the deals the replay has finished), and a word where there is no par graph."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from archive.models import MatchAnalysis
from archive.replay_analysis import against_line, analysis_data
from archive.replay_graphs import par_points
from archive.replays import deal_row, player_name
from archive.services import analysis
from gameplay.engine.positions import Replay
from tests.archive.test_analysis import _archive, _short_record
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(db):
    players = [PlayerFactory(display_name=name, user=UserFactory(username=name.lower()))
               for name in ("Asel", "Ivan", "Oleh", "Nurlan")]
    # seed 3: par NS 95, cards of both pairs lose points
    return _archive(players, _short_record(seed=3))


@pytest.fixture
def analysed(match):
    analysis.analyse_match(match_id=match.pk)
    return match


def _get(client, match, query: str, lang: str = "en") -> str:
    url = reverse("archive:match", args=[match.pk])
    return client.get(f"{url}?{query}", HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def _block(html: str, id_: str) -> str:
    """The markup of the graph whose wrapper has `id_` (up to the wrapper's own end)."""
    start = html.index(f'id="{id_}"')
    return html[start:html.index("</details>", start)]


def _points(block: str) -> list[dict]:
    """The par graph's point links, in order: card, href, current, lost label and its pair."""
    found = []
    link = r'<a class="rp-pg-pt( rp-pg-current)?" href="([^"]+)" data-card="(\d+)"(.*?)</a>'
    for m in re.finditer(link, block, re.S):
        lost = re.search(r'<text class="rp-pg-num rp-(ns|ew)"[^>]*>−(\d+)</text>', m[4])
        found.append({"card": int(m[3]), "href": m[2], "current": bool(m[1]),
                      "lost": (lost[1].upper(), int(lost[2])) if lost else None})
    return found


def test_the_par_moves_by_each_cards_lost_points_against_the_pair_that_played_it(analysed):
    replay = Replay.from_record(analysed.record)
    result = MatchAnalysis.objects.get(match=analysed).result
    deal = replay.deals[0]
    points = par_points(deal, analysis_data(replay, result, 1)[0])
    cards = result["deals"][0]["cards"]
    assert [p["card"] for p in points] == list(range(deal.plays + 1))
    # the par before each card is the solver's own for that position, and after the last card
    # it is what NS took
    assert [p["ns"] for p in points[:-1]] == [c["par"]["NS"] for c in cards]
    assert points[-1]["ns"] == deal.points["NS"]
    lost = [(p["pair"], p["lost"]) for p in points[1:] if p["lost"]]
    assert lost == [("NS" if c["seat"] in "NS" else "EW", c["lost"]) for c in cards if c["lost"]]
    assert {pair for pair, _ in lost} == {"NS", "EW"}  # this deal has losses of both pairs


def test_the_par_graph_shows_the_deal_up_to_the_position_each_point_a_link(client, analysed):
    cards = MatchAnalysis.objects.get(match=analysed).result["deals"][0]["cards"]
    for k in (0, 9, 20, 32):
        points = _points(_block(_get(client, analysed, f"deal=1&card={k}"), "rp-pg"))
        assert [p["card"] for p in points] == list(range(k + 1))
        assert [p["href"] for p in points] == [f"?deal=1&amp;card={j}" for j in range(k + 1)]
        assert [p["card"] for p in points if p["current"]] == [k]
        expected = [(j + 1, ("NS" if c["seat"] in "NS" else "EW", c["lost"]))
                    for j, c in enumerate(cards[:k]) if c["lost"]]
        assert [(p["card"], p["lost"]) for p in points if p["lost"]] == expected
    # asked for every result: the whole deal, the mark where the position is, links keep the choice
    every = _points(_block(_get(client, analysed, "deal=1&card=3&results=1"), "rp-pg"))
    assert len(every) == 33 and [p["card"] for p in every if p["current"]] == [3]
    assert every[5]["href"] == "?deal=1&amp;card=5&amp;results=1"


def test_the_page_at_card_0_draws_no_outcome_of_the_deal_in_its_graphs(client, analysed):
    page = _get(client, analysed, "deal=1&card=0")
    par = _block(page, "rp-pg")
    assert [p["card"] for p in _points(par)] == [0] and "card=1" not in par and "−" not in par
    eyes = _block(page, "rp-eg")
    assert "rp-eg-dot" not in eyes and "eyes after it" not in eyes
    assert "not finished yet in the replay" in eyes
    # the deal's end shows its eyes; the next deal is still blank
    end = _block(_get(client, analysed, "deal=1&card=32"), "rp-eg")
    replay = Replay.from_record(analysed.record)
    after = replay.deals[0].score_after
    assert f"Deal 1: eyes after it NS {after['NS']} : EW {after['EW']}" in end
    assert end.count('class="rp-eg-dot rp-ns"') == 1 and "<title>Deal 2</title>" in end


def test_the_eye_graph_links_every_deal_to_its_first_card(client, match):
    eyes = _block(_get(client, match, "deal=2&card=0"), "rp-eg")
    links = re.findall(r'<a class="rp-eg-deal( rp-eg-current)?" href="([^"]+)" data-deal="(\d)"', eyes)
    assert [(href, bool(cur)) for cur, href, _ in links] == [
        ("?deal=1&amp;card=0", False), ("?deal=2&amp;card=0", True)]
    # deal 1 is over; deal 2 (resigned) is over at card 0 when it was resigned before its first card
    second_over = Replay.from_record(match.record).deals[1].plays == 0
    assert eyes.count('class="rp-eg-dot rp-ns"') == 1 + second_over


def test_graphs_alone_for_the_script_and_a_word_where_there_is_no_par_graph(client, match):
    pending = _get(client, match, "deal=1&card=4")
    assert "No par graph yet: the match is still being analysed." in pending and 'id="rp-pg"' in pending
    drawn = pending[pending.index('id="rp-pg"'):]
    assert "<svg" not in drawn[:drawn.index("</div>")]
    MatchAnalysis.objects.create(match=match, record_hash=match.record_hash, result=None, error="broken")
    failed = _get(client, match, "deal=1&card=4", "ru")
    assert "Графика лучшей игры нет: эту партию не удалось проанализировать." in failed
    MatchAnalysis.objects.all().delete()
    analysis.analyse_match(match_id=match.pk)
    part = _get(client, match, "deal=1&card=6&part=results")
    # the graphs and the result bits alone: not the page, not its board
    assert part.lstrip().startswith("<div") and "<body" not in part and "rp-felt" not in part
    assert [p["card"] for p in _points(_block(part, "rp-pg"))] == list(range(7)) and 'id="rp-eg"' in part


def _data(html: str) -> dict:
    found = re.search(r'<script id="rp-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found[1])


def test_the_page_at_card_0_holds_no_outcome_of_the_deal_nor_of_later_ones(client, analysed):
    replay = Replay.from_record(analysed.record)
    first = replay.deals[0]
    par = MatchAnalysis.objects.get(match=analysed).result["deals"][0]["par"]
    with translation.override("en"):
        names = {s: player_name(replay.players, s) for s in "NESW"}
        row = deal_row(first, names)
        # the outcome badge's word, the final points, the eyes opened, the score after, the deal
        # against par, the match's winner
        told = [f'"outcome": "{row["outcome"]}"', f">{row['outcome']}</span>", row["points"], row["eyes"],
                row["score"], against_line(par, first.points), " won"]
    start = _get(client, analysed, "deal=1&card=0")
    assert [t for t in told if t in start] == []
    data = _data(start)
    assert data["deals"] == [{"number": 1, "plays": 32, "stub": True},
                             {"number": 2, "plays": replay.deals[1].plays, "stub": True}]
    assert data["rows"] == [None, None] and data["analysis"]["deals"] == [None, None]
    assert re.search(r'<span aria-label="eyes" data-rp-match hidden></span>', start)  # no match score
    assert "data-rp-winner" not in start
    # a card before the end still tells nothing; the end tells it all (hidden nowhere)
    assert [t for t in told if t in _get(client, analysed, "deal=1&card=31")] == []
    end = _get(client, analysed, "deal=1&card=32")
    assert [t for t in told if t not in end] == [" won"]  # the match is not over yet
    over = _get(client, analysed, f"deal=2&card={replay.deals[1].plays}")
    assert " won" in over and "data-rp-winner" in over
    assert _data(end)["rows"][0]["outcome"] == row["outcome"]
    assert _data(end)["deals"][0]["tricks"] and _data(end)["rows"][0]["outcome"] == row["outcome"]
    # the script's question for the deal it steps into gets the deal whole
    url = reverse("archive:match", args=[analysed.pk])
    got = client.get(f"{url}?deal=1&part=deal", HTTP_ACCEPT_LANGUAGE="en").json()
    assert [tuple(c) for c in got["deal"]["cards"]] == list(first.cards)
    assert got["deal"]["score_after"] == first.score_after and got["row"]["outcome"] == row["outcome"]
    assert len(got["analysis"]["cards"]) == 32


def test_the_script_gets_no_deal_the_caller_does_not_show(match):
    """A match being played shows its finished deals only: asked for a later deal, the script gets
    the last one shown, never the one being played."""
    from django.test import RequestFactory

    from archive.replays import render_replay

    request = RequestFactory().get("/tables/1/replay/?deal=2&part=deal")
    response = render_replay(request, record=match.record, title="t", back_url="/", back_label="b",
                             download_url=None, visible_deals=1)
    got = json.loads(response.content)
    assert got["deal"]["number"] == 1 and got["analysis"] is None
