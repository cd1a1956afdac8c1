"""No viewer ever receives a card he may not see: events, snapshots, catch-up, page, JSON, refusals.

Many random deals are played through the service. After each event, the frame each seat and a
spectator would get is scanned for card notation (`JC`, `TH`) and for any other card encoding
(lists of small ints); a card in another seat's hand must never appear. The partner counts as
"another seat".
"""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from tables_helpers import CARD_RE, legal_strings

from gameplay import selectors, services
from gameplay.engine.cards import SEATS, card_to_str, mask_cards
from gameplay.models import Seat, Table, TableEvent
from gameplay.protocol.frames import frame_for

pytestmark = pytest.mark.django_db


def _hands(state) -> list[set[str]]:
    if state.current_deal is None:
        return [set(), set(), set(), set()]
    return [{card_to_str(c) for c in mask_cards(h)} for h in state.hands]


def _secret(hands: list[set[str]], viewer: int | None) -> set[str]:
    return set().union(*(hands[t] for t in range(4) if t != viewer))


def _int_lists(value) -> list:
    """Lists of ints anywhere in a JSON value (a card-as-int encoding would show up here)."""
    found = []
    if isinstance(value, dict):
        for v in value.values():
            found += _int_lists(v)
    elif isinstance(value, list):
        if value and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            found.append(value)
        for v in value:
            found += _int_lists(v)
    return found


def _check(frame_part, secret: set[str], where: str) -> None:
    text = json.dumps(frame_part, ensure_ascii=False)
    leaked = set(CARD_RE.findall(text)) & secret
    assert not leaked, f"{where}: {sorted(leaked)} leaked in {text[:300]}"
    assert not _int_lists(frame_part), f"{where}: a list of ints in {text[:300]}"
    assert '"hands"' not in text, f"{where}: a hands field"


def test_random_deals_leak_no_card(people, dealt_table4):
    table4 = dealt_table4
    rng = random.Random(20261130)
    table_id = table4.pk
    deals_seen = set()
    hands_at: dict[int, list[set[str]]] = {}
    for _step in range(8 * 4 * 6 + 40):  # about six deals with redeals
        table = Table.objects.get(pk=table_id)
        if table.status != "playing":
            break
        before = services.load_state(table)
        before_hands = _hands(before)
        deals_seen.add(len(before.deals))
        mover = before.to_move
        action = rng.choice(legal_strings(before))
        # a refusal names nothing but the refused player's own card
        others_card = next(iter(_secret(before_hands, mover)), None)
        if others_card:
            refused = services.play(table_id=table_id, seat=mover, action=others_card,
                                    expected_event=table.event_seq)
            assert not refused.ok
            _check({"m": refused.message}, _secret(before_hands, mover) - {others_card}, "refusal")
        outcome = services.play(table_id=table_id, seat=mover, action=action, expected_event=table.event_seq)
        assert outcome.ok
        after = services.load_state(Table.objects.get(pk=table_id))
        after_hands = _hands(after)
        event = TableEvent.objects.get(table_id=table_id, number=outcome.event_number)
        hands_at[event.number] = after_hands
        for viewer in (0, 1, 2, 3, None):
            frame = frame_for(event, viewer)
            public = {k: v for k, v in frame.items() if k != "view"}
            _check(public, _secret(before_hands, viewer) - {action}, f"event public for {viewer}")
            _check(frame["view"], _secret(after_hands, viewer), f"event view for {viewer}")
            if viewer is not None:
                assert set(frame["view"]["hand"] or []) == after_hands[viewer]
            else:
                assert frame["view"]["hand"] is None
        if _step % 7 == 0:
            table = Table.objects.get(pk=table_id)
            for viewer in (0, 1, 2, 3, None):
                snap = selectors.snapshot(table, viewer)
                _check(snap, _secret(after_hands, viewer), f"snapshot for {viewer}")
                for frame in selectors.catch_up(table, viewer, max(5, table.event_seq - 5)):
                    _check(frame["view"], _secret(hands_at[frame["n"]], viewer), f"catch-up view {viewer}")
    assert len(deals_seen) >= 3


def _client_for(user=None, session_key=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_pages_and_json_show_only_the_viewers_hand(people, table4):
    rng = random.Random(7)
    from tables_helpers import play_random

    play_random(table4.pk, rng, 9)
    table = Table.objects.get(pk=table4.pk)
    state = services.load_state(table)
    hands = _hands(state)
    viewers = [(people[i], i) for i in range(4)] + [(people[4], None), (None, None)]
    for user, seat in viewers:
        client = _client_for(user)
        for url in (f"/tables/{table.pk}/", f"/tables/{table.pk}/state.json"):
            response = client.get(url)
            assert response.status_code == 200
            text = response.content.decode()
            leaked = set(CARD_RE.findall(text)) & _secret(hands, seat)
            assert not leaked, f"{url} for seat {seat} leaks {sorted(leaked)}"
            if seat is not None:
                assert hands[seat] <= set(CARD_RE.findall(text)), url
    # the record (every hand) is refused while the match is played; the replay shows finished deals only
    assert _client_for(people[0]).get(f"/tables/{table.pk}/record.json").status_code == 404
    replay = _client_for(people[0]).get(f"/tables/{table.pk}/replay/")
    assert replay.status_code == 200
    if state.deals_finished:
        assert len(replay.context["replay_data"]["deals"]) == state.deals_finished
    else:
        assert replay.context["empty"]


def test_spectators_see_hands_one_deal_later_when_the_table_says_so(people):
    table = services.create_table(rules={}, seating="in_order", user=people[0],
                                  spectators_see_hands_delayed=True)
    for u in people[1:4]:
        services.sit(table_id=table.pk, user=u)
    rng = random.Random(11)
    while True:
        table.refresh_from_db()
        state = services.load_state(table)
        spectator = selectors.snapshot(table, None)["view"]
        seat_view = selectors.snapshot(table, 0)["view"]
        assert "previous_hands" not in seat_view
        if state.deals_finished:
            break
        assert spectator["previous_hands"] is None
        services.play(table_id=table.pk, seat=state.to_move, action=rng.choice(legal_strings(state)),
                      expected_event=table.event_seq)
    first = table.record["deals"][0]["hands"]
    assert spectator["previous_hands"] == first
    # and the hands of the deal being played stay hidden
    current = set().union(*(set(v) for v in table.record["deals"][-1]["hands"].values()))
    view_wo_previous = {k: v for k, v in spectator.items() if k != "previous_hands"}
    _check(view_wo_previous, current - set(state.trick), "spectator view")


def test_seat_rows_never_reach_a_frame(table4):
    """Session keys and user ids of seats stay on the server."""
    seat = Seat.objects.filter(table=table4).first()
    seat.session_key = "secret-session-key-123"
    seat.save()
    text = json.dumps(selectors.snapshot(Table.objects.get(pk=table4.pk), None))
    assert "secret-session-key-123" not in text
    assert all(s not in text for s in ('"user"', "session"))
    assert SEATS  # notation import used
