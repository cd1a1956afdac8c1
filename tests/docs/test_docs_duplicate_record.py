"""docs/record-format.md's duplicate record: its boards are the event seed's, and it reads and scores."""

from __future__ import annotations

import copy

import pytest

from gameplay.engine import RecordError, read_record, score_record
from gameplay.engine.boards import board_dealer, board_hands, set_seat_suits
from gameplay.engine.cards import SEATS, card_from_str
from gameplay.engine.shuffle import commitment_of

from .test_docs_examples import RECORD_DOC, example_json

DOC_SEED = bytes(range(32))  # shuffle.md's example event seed, 000102…1f


def test_the_duplicate_example_is_dealt_from_the_event_seed_and_replays() -> None:
    record = example_json(RECORD_DOC, "duplicate")
    assert record["duplicate"]["commitment"] == commitment_of(DOC_SEED)
    for deal, board in zip(record["deals"], record["duplicate"]["boards"], strict=True):
        assert deal["board"] == board and deal["dealer"] == SEATS[board_dealer(board)]
        hands = tuple(sum(1 << card_from_str(c) for c in deal["hands"][s]) for s in SEATS)
        assert hands == board_hands(DOC_SEED, board)
    state = read_record(record)
    # N clubs, E hearts, S spades, W diamonds
    assert state.suit_of_seat == set_seat_suits(board_hands(DOC_SEED, 1)) == (0, 2, 3, 1)
    score = score_record(record)
    assert [d["trump"] for d in score["deals"]] == ["C", "H"] and score["winner"] is None
    assert score["deals"][1]["on_duty"] == "EW" and score["deals"][1]["tricks"][0]["leader"] == "E"


def test_a_board_out_of_order_in_the_example_is_refused() -> None:
    record = copy.deepcopy(example_json(RECORD_DOC, "duplicate"))
    record["deals"][1]["board"] = 3
    with pytest.raises(RecordError, match="deal 2: the board must be 2, not 3"):
        read_record(record)
