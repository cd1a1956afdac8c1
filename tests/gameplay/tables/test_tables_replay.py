"""The table's replay page: the server draws the position the address names, a match in progress
shows its finished deals only (to its players, and to spectators where the table says so), and a
private table is nobody else's."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from tables_helpers import play_random

from gameplay import services
from gameplay.engine.positions import Replay
from gameplay.models import Seat, Seating, Table, TableStatus

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client(headers={"accept-language": "en"})
    if user is not None:
        client.force_login(user)
    return client


def _play_deals(table: Table, deals: int, seed: int = 3) -> Table:
    """Random legal moves until `deals` deals are finished (the next one has begun) or the match ends."""
    rng = random.Random(seed)
    while True:
        table.refresh_from_db()
        state = services.load_state(table)
        if table.status != "playing" or state.deals_finished >= deals:
            return table
        play_random(table.pk, rng, 1)


def _hands_shown(html: str) -> dict[str, list[str]]:
    """The cards drawn in each seat's hand on the server-rendered page."""
    out = {}
    for seat, inner in re.findall(r'<div class="rp-hand" data-hand="([NESW])">(.*?)</div>', html, re.S):
        out[seat] = re.findall(r'data-card="([^"]+)"', inner)
    return out


def _trick_shown(html: str) -> list[str]:
    inner = re.search(r'<div class="bt-trick rp-trick[^"]*">(.*?)</div>', html, re.S).group(1)
    return re.findall(r'data-card="([^"]+)"', inner)


def _data(html: str) -> dict:
    found = re.search(r'<script id="rp-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_shared_link_opens_the_position_it_names(dealt_table4):
    table = _play_deals(dealt_table4, 3)
    services.resign(table_id=table.pk, seat=0)
    table.refresh_from_db()
    html = _client().get(f"/tables/{table.pk}/replay/?deal=2&card=5").content.decode()
    replay = Replay.from_record(table.record)
    deal = replay.deals[1]
    played = [c for _s, c in deal.cards[:5]]
    for seat, shown in _hands_shown(html).items():
        assert shown == [c for c in deal.hands[seat] if c not in played], seat
    assert _trick_shown(html) == [played[4]]
    assert _data(html)["position"] == {"deal": 1, "card": 5}
    # the steps are plain links to the neighbouring positions
    assert 'href="?deal=2&amp;card=6"' in html and 'href="?deal=2&amp;card=4"' in html
    assert 'href="?deal=2&amp;card=8"' in html and 'href="?deal=3&amp;card=0"' in html


def test_out_of_range_addresses_open_the_nearest_position(dealt_table4):
    table = _play_deals(dealt_table4, 2)
    services.resign(table_id=table.pk, seat=0)
    table.refresh_from_db()
    replay = Replay.from_record(table.record)
    last = len(replay.deals) - 1
    client = _client()
    far = client.get(f"/tables/{table.pk}/replay/?deal=99&card=999").content.decode()
    assert _data(far)["position"] == {"deal": last, "card": replay.deals[last].plays}
    bad = client.get(f"/tables/{table.pk}/replay/?deal=x&card=-4").content.decode()
    assert _data(bad)["position"] == {"deal": 0, "card": 0}


def _seat_clients(table: Table, people) -> list[Client]:
    return [_client(people[i]) for i in range(4)]


def test_a_match_in_progress_shows_its_players_the_finished_deals_only(dealt_table4, people):
    table = _play_deals(dealt_table4, 2)
    play_random(table.pk, random.Random(5), 6)  # a few cards into the deal being played
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    state = services.load_state(table)
    finished = state.deals_finished
    current = state.deals[-1]
    assert current.outcome is None
    from gameplay.engine.cards import card_to_str, hand_sort_key, mask_cards

    current_hands = [[card_to_str(c) for c in sorted(mask_cards(h), key=hand_sort_key)]
                     for h in current.hands]
    for client in _seat_clients(table, people):
        html = client.get(f"/tables/{table.pk}/replay/?deal=99&card=999").content.decode()
        data = _data(html)
        assert len(data["deals"]) == finished
        assert data["position"]["deal"] == finished - 1
        for deal in data["deals"]:
            assert all(hand not in current_hands for hand in deal["hands"].values())
        assert table.shuffle_seed not in html
        assert "record.json" not in html  # the record itself is published when the match is over
        assert "The deal being played is not shown" in html
    # the table page links to the replay of the finished deals
    assert 'id="table-replay"' in _client(people[0]).get(f"/tables/{table.pk}/").content.decode()


def test_spectators_see_finished_deals_only_where_the_table_shows_hands_one_deal_later(people):
    for delayed in (False, True):
        table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0],
                                      spectators_see_hands_delayed=delayed)
        # fixed seeds (as `dealt_table4`): the same deals on every run, none ends the match at once
        Table.objects.filter(pk=table.pk).update(shuffle_seed="5a" * 32)
        Seat.objects.filter(table=table).update(client_seed="fixed N")
        for letter, user in zip("ESW", people[1:4], strict=True):
            services.sit(table_id=table.pk, user=user, client_seed=f"fixed {letter}")
        table = _play_deals(table, 1)
        assert table.status == TableStatus.PLAYING
        finished = services.load_state(table).deals_finished
        for spectator in (_client(), _client(people[4])):
            response = spectator.get(f"/tables/{table.pk}/replay/")
            assert response.status_code == 200
            html = response.content.decode()
            if delayed:
                assert len(_data(html)["deals"]) == finished
            else:
                assert 'id="rp-data"' not in html and "published when the match is over" in html
        page = _client().get(f"/tables/{table.pk}/").content.decode()
        assert ('id="table-replay"' in page) is delayed


def test_before_any_deal_is_finished_the_page_says_so(table4, people):
    html = _client(people[0]).get(f"/tables/{table4.pk}/replay/").content.decode()
    assert "No deal has been played to the end yet." in html and 'id="rp-data"' not in html


def test_a_private_tables_replay_is_its_players_alone(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0], public=False)
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    url = f"/tables/{table.pk}/replay/"
    assert _client(people[4]).get(url).status_code == 404
    assert _client().get(url).status_code == 404
    assert _client(people[1]).get(url).status_code == 200
    services.resign(table_id=table.pk, seat=0)
    assert _client(people[4]).get(url).status_code == 404
    assert _client(people[2]).get(url).status_code == 200


def test_the_replay_page_reads_the_database_a_bounded_number_of_times(dealt_table4,
                                                                    django_assert_max_num_queries):
    table = _play_deals(dealt_table4, 4)
    services.resign(table_id=table.pk, seat=0)
    client = _client()
    client.get(f"/tables/{table.pk}/replay/")  # the session and the like, once
    with django_assert_max_num_queries(6):
        assert client.get(f"/tables/{table.pk}/replay/?deal=3&card=9").status_code == 200


def _render(record: dict, query: str = "", **kwargs) -> str:
    from django.test import RequestFactory
    from django.utils import translation

    from archive.replays import render_replay

    request = RequestFactory().get(f"/archive/1/{query}")
    with translation.override("en"):
        response = render_replay(request, record=record, title="Archived match", back_url="/archive/",
                                 back_label="Archive", download_url="/archive/1/record.json", **kwargs)
    return response.content.decode()


def test_a_redealt_deal_shows_who_asked_and_why_the_hand_qualified():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from engine_helpers import MatchBuilder

    match = MatchBuilder(rules={"redeal_below": 14}, seed=5)
    asked = match.redeal()
    match.played()
    record = match.record(players={"N": "Aigerim", "E": "Bolat", "S": "Dana", "W": "Erlan"})
    record["deals"].append({**record["deals"][1], "dealer": "N", "plays": record["deals"][1]["plays"][:3]})
    replay = Replay.from_record(record)
    points = replay.deals[0].redeal.hand_points
    html = _render(record)
    name = record["players"][asked]
    assert f"Redeal asked by {name} ({asked})." in html
    assert f"{points} points in the hand, fewer than 14" in html
    # the third deal stops after three cards: its line says so once its result is shown
    assert "This deal was not played to the end." in _render(record, "?results=1")
    assert "Aigerim (N)" in html and 'href="/archive/1/record.json"' in html
    # only the first two deals when the caller says so
    shown = _data(_render(record, "?deal=3", visible_deals=2))
    assert len(shown["deals"]) == 2 and shown["position"]["deal"] == 1


def test_a_record_that_breaks_the_rules_gives_a_page_that_says_why():
    html = _render({"format": "bilka-record/1", "deals": [{"dealer": "N", "hands": {}}]})
    assert "This record cannot be replayed." in html and 'id="rp-data"' not in html
