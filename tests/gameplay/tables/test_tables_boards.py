"""A table in boards mode (a duplicate event's set): dealt exactly its boards, no redeal, over after the
last one, and no viewer ever gets another seat's cards or the hands of a board still to come."""

from __future__ import annotations

import json
import random

import pytest
from tables_helpers import CARD_RE, legal_strings

from gameplay import selectors, services
from gameplay.engine.boards import BoardSet, board_dealer, board_hands
from gameplay.engine.cards import SEATS, card_to_str, mask_cards
from gameplay.models import Seating, Table, TableEvent
from gameplay.protocol.frames import frame_for

pytestmark = pytest.mark.django_db

SEED = bytes(range(32))
BOARDS = (5, 6, 7)


@pytest.fixture
def boards_table(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER,
                                  user=people[0], boards=BoardSet.from_seed(SEED, BOARDS, event="ev"))
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table


def _hands(state) -> list[set[str]]:
    if state.current_deal is None:
        return [set(), set(), set(), set()]
    return [{card_to_str(c) for c in mask_cards(h)} for h in state.hands]


def _check(part, secret: set[str], where: str) -> None:
    text = json.dumps(part, ensure_ascii=False)
    leaked = set(CARD_RE.findall(text)) & secret
    assert not leaked, f"{where}: {sorted(leaked)} leaked in {text[:300]}"
    for board in BOARDS:  # a board's hands as the table stores them (card masks)
        for mask in board_hands(SEED, board):
            assert str(mask) not in text, f"{where}: a hand of board {board} as a mask"
    assert "board_hands" not in text and SEED.hex() not in text


def test_a_boards_table_deals_its_boards_and_ends_after_the_last(people, boards_table):
    rng = random.Random(3)
    table_id = boards_table.pk
    table = Table.objects.get(pk=table_id)
    assert table.shuffle_seed == "" and selectors.snapshot(table, None)["table"]["shuffle"] is None
    # the page names the board being played from the set's numbers ("Board 6 (2 of 3)")
    assert selectors.snapshot(table, 0)["table"]["boards"] == list(BOARDS)
    for _step in range(8 * 4 * len(BOARDS) + 5):
        table = Table.objects.get(pk=table_id)
        if table.status != "playing":
            break
        before = services.load_state(table)
        assert before.redeal_pending == ()  # a board is never redealt
        before_hands = _hands(before)
        mover, action = before.to_move, rng.choice(legal_strings(before))
        outcome = services.play(table_id=table_id, seat=mover, action=action, expected_event=table.event_seq)
        assert outcome.ok, outcome.message
        after = services.load_state(Table.objects.get(pk=table_id))
        event = TableEvent.objects.get(table_id=table_id, number=outcome.event_number)
        for viewer in (0, 1, 2, 3, None):
            frame = frame_for(event, viewer)
            secret = set().union(*(before_hands[t] for t in range(4) if t != viewer)) - {action}
            _check({k: v for k, v in frame.items() if k != "view"}, secret, f"event for {viewer}")
            after_secret = set().union(*(_hands(after)[t] for t in range(4) if t != viewer))
            _check(frame["view"], after_secret, f"view for {viewer}")
            if _step % 9 == 0:
                _check(selectors.snapshot(Table.objects.get(pk=table_id), viewer), after_secret,
                       f"snapshot for {viewer}")
    table = Table.objects.get(pk=table_id)
    assert table.status == "finished"
    assert table.result["reason"] == "boards" and table.result["winner"] is None
    deals = table.record["deals"]
    assert [d["board"] for d in deals] == list(BOARDS)
    assert [d["dealer"] for d in deals] == [SEATS[board_dealer(b)] for b in BOARDS]
    assert "redeal" not in json.dumps(deals)
    assert table.record["duplicate"] == {"event": "ev", "scheme": "bilka-board/1",
                                         "commitment": BoardSet.from_seed(SEED, BOARDS).commitment,
                                         "boards": list(BOARDS)}


def test_client_seeds_do_not_change_the_boards(people):
    a = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0],
                              boards=BoardSet.from_seed(SEED, BOARDS))
    for user, seed in zip(people[1:4], ("x", "y", "z"), strict=True):
        services.sit(table_id=a.pk, user=user, client_seed=seed)
    state = services.load_state(Table.objects.get(pk=a.pk))
    assert state.deals[0].hands == board_hands(SEED, BOARDS[0]) and state.shuffle is None


def test_the_table_page_of_a_boards_table_shows_only_the_viewers_hand(people, boards_table):
    from django.test import Client

    state = services.load_state(Table.objects.get(pk=boards_table.pk))
    hands = _hands(state)
    for user, seat in [(people[0], 0), (people[2], 2), (people[4], None), (None, None)]:
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in (f"/tables/{boards_table.pk}/", f"/tables/{boards_table.pk}/state.json"):
            response = client.get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            secret = set().union(*(hands[t] for t in range(4) if t != seat))
            assert not set(CARD_RE.findall(text)) & secret, (url, seat)
            assert "board_hands" not in text and SEED.hex() not in text


def test_an_ordinary_table_names_no_boards(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    assert "boards" not in selectors.snapshot(table, 0)["table"]
