"""A match state dealt a board set (a duplicate table): its boards in order with their dealers, no redeal,
over after the last board whatever the eyes, and its record's `duplicate` and `board` fields."""

import copy
import random

import pytest

from gameplay.engine import MatchState, Rules, read_record, write_record
from gameplay.engine.boards import BoardSet, board_hands, set_seat_suits
from gameplay.engine.errors import RecordError
from gameplay.engine.state import Phase

SEED = bytes(range(32))


def played(numbers, seed=1, rules=None):
    state = MatchState(rules or Rules(), boards=BoardSet.from_seed(SEED, numbers, event="cup"))
    rng = random.Random(seed)  # noqa: S311 - test moves
    while state.phase != Phase.OVER:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_boards_are_dealt_in_order_and_the_set_keeps_its_first_boards_suits():
    state = played((9, 10, 11, 12, 13))
    assert [d.hands for d in state.deals] == [board_hands(SEED, n) for n in (9, 10, 11, 12, 13)]
    assert [d.dealer for d in state.deals] == [0, 1, 2, 3, 0]
    assert state.suit_of_seat == set_seat_suits(board_hands(SEED, 9))
    assert state.winner is None and all(d.outcome != "redeal" for d in state.deals)


def test_twelve_eyes_do_not_end_a_board_set():
    # sixteen boards open far more than 12 eyes for some pair, yet every board is played
    state = played(tuple(range(1, 17)), seed=4)
    assert len(state.deals) == 16 and max(state.capped_score) == 12 and state.winner is None


def test_the_record_names_the_event_and_each_board_and_reads_back():
    state = played((3, 4))
    record = write_record(state)
    assert record["duplicate"] == {"event": "cup", "scheme": "bilka-board/1",
                                   "commitment": BoardSet.from_seed(SEED, (3,)).commitment, "boards": [3, 4]}
    assert [d["board"] for d in record["deals"]] == [3, 4]
    again = read_record(record)
    assert again.phase == Phase.OVER and [d.points for d in again.deals] == [d.points for d in state.deals]
    assert write_record(again) == record


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["deals"][1].update(board=5), "the board must be 4, not 5"),
    (lambda r: r.pop("duplicate"), "board is only for the deals of a duplicate record"),
    (lambda r: r["duplicate"].update(boards=[3]), "this is deal 2"),
    (lambda r: r["duplicate"].update(scheme="bilka-shuffle/1"), "duplicate.scheme must be"),
    (lambda r: r["duplicate"].update(seed="00"), "unknown key 'seed' in duplicate"),
    (lambda r: r.update(shuffle={"scheme": "bilka-shuffle/1"}), "not both"),
])
def test_a_wrong_duplicate_record_is_refused(change, message):
    record = copy.deepcopy(write_record(played((3, 4))))
    change(record)
    with pytest.raises(RecordError, match=message):
        read_record(record)


def test_a_state_without_the_hands_cannot_deal_a_board():
    record = write_record(played((3, 4)))
    record["deals"] = record["deals"][:1]
    state = read_record(record)  # board 3 played: board 4 would be next, its hands unknown here
    with pytest.raises(ValueError, match="hands are not known"):
        state.start_deal()
