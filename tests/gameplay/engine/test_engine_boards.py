"""bilka-board/1 (gameplay/engine/boards.py): a duplicate event's boards from its seed alone, checked
against an independent implementation of docs/shuffle.md's recipe and its worked example."""

import hashlib
import hmac

import pytest

from gameplay.engine.boards import (
    board_dealer,
    board_hands,
    board_message,
    board_par,
    board_start,
    jack_holder,
    set_first_board,
    set_seat_suits,
)
from gameplay.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card_to_str, deck_cards, mask_cards
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import commitment_of, deal_hands
from gameplay.engine.solver import Solver

SEED = bytes(range(32))


def _independent(seed: bytes, board: int, deck: str = "32") -> list[set[str]]:
    """docs/shuffle.md, "Duplicate boards", read literally."""
    cards = [card_to_str(c) for c in deck_cards(deck)]
    message = b"bilka-board/1" + board.to_bytes(4, "big")
    stream = b"".join(hmac.new(seed, message + b.to_bytes(4, "big"), hashlib.sha256).digest()
                      for b in range(64))
    pos = 0
    for i in range(len(cards) - 1, 0, -1):
        while True:
            r = stream[pos]
            pos += 1
            if r < 256 - 256 % (i + 1):
                break
        j = r % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    h = len(cards) // 4
    return [set(cards[s * h:(s + 1) * h]) for s in range(4)]


def _names(hands) -> list[set[str]]:
    return [{card_to_str(c) for c in mask_cards(m)} for m in hands]


@pytest.mark.parametrize("deck", ["32", "36"])
def test_boards_follow_the_documented_recipe(deck):
    for board in range(1, 41):
        hands = board_hands(SEED, board, deck)
        assert _names(hands) == _independent(SEED, board, deck)
        assert sum(bin(m).count("1") for m in hands) == len(deck_cards(deck))
        assert hands[0] | hands[1] | hands[2] | hands[3] == sum(1 << c for c in deck_cards(deck))


def test_the_worked_example_of_the_docs():
    assert commitment_of(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert _names(board_hands(SEED, 1)) == [
        {"JC", "JD", "7C", "KS", "7S", "TD", "KD", "QD"},
        {"AC", "KC", "QC", "8C", "TS", "KH", "8H", "8D"},
        {"TC", "9C", "AS", "QS", "9S", "8S", "QH", "7H"},
        {"JS", "JH", "AH", "TH", "9H", "AD", "9D", "7D"},
    ]
    assert jack_holder(board_hands(SEED, 1)) == 0 and jack_holder(board_hands(SEED, 2)) == 1
    # the set of boards 1-4 is played with board 1's suits: N clubs, E hearts, S spades, W diamonds
    assert set_seat_suits(board_hands(SEED, 1)) == (CLUBS, HEARTS, SPADES, DIAMONDS)
    assert set_seat_suits(board_hands(SEED, 1), "counterclockwise") == (CLUBS, DIAMONDS, SPADES, HEARTS)


def test_a_board_is_the_same_at_every_table_and_differs_from_a_match_deal():
    assert board_hands(SEED, 7) == board_hands(SEED, 7)
    assert board_hands(SEED, 7) != board_hands(SEED, 8)
    assert board_hands(SEED, 7) != board_hands(bytes(32), 7)
    # a board's message can never be a bilka-shuffle/1 deal's: the schemes' names differ
    assert list(board_hands(SEED, 1)) != deal_hands(SEED, ["a", "b", "c", "d"], 1)
    assert [board_dealer(b) for b in range(1, 9)] == [0, 1, 2, 3, 0, 1, 2, 3]
    for bad in (0, -1, 2**32):
        with pytest.raises(ValueError):
            board_message(bad)


# --- par: the board's first position as a table of the event starts it, and best play from it ---

@pytest.mark.parametrize("rules", [Rules(), Rules(first_lead="after_dealer"),
                                   Rules(direction="counterclockwise", deck="28")],
                         ids=["jack-holder-leads", "after-dealer", "counterclockwise-28"])
@pytest.mark.parametrize("board", [1, 2, 3, 4, 7])
def test_board_start_is_the_engines_deal(rules, board):
    """The engine, dealt the board's hands with the set's suits and the board's dealer, starts the
    same deal: the same trump (the suit of the jack of clubs' seat) and the same first leader."""
    per = 4
    first = board_hands(SEED, set_first_board(board, per), rules.deck)
    state = MatchState(rules, auto_deal=False, first_dealer=board_dealer(board), seed=0)
    state.suit_of_seat = set_seat_suits(first, rules.direction)
    state.start_deal(hands=board_hands(SEED, board, rules.deck))
    log = state.deals[-1]
    pos = board_start(SEED, board, per, rules)
    assert (pos.trump, pos.leader, pos.hands) == (log.trump, log.leader, log.hands)
    assert pos.next_seat == ((1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2))


def test_board_par_is_best_play_for_both_sides():
    """Par is what NS take when each side picks its best card: the best first card's value for the
    leader's side (checked card by card on the 28-card deck, where that is quick), within 0..120;
    the first board of a set is the same board whatever the set's size."""
    short = Rules(deck="28")
    for board in (1, 2, 3):
        pos = board_start(SEED, board, 4, short)
        values = Solver(pos.trump, pos.next_seat).card_values(pos)
        best = max(values.values()) if pos.to_move % 2 == 0 else min(values.values())
        assert board_par(SEED, board, 4, short) == best
    assert [board_par(SEED, b, 4, Rules()) for b in (2, 3)] == [0, 27]  # two quick 32-card boards
    assert board_par(SEED, 1, 2, short) == board_par(SEED, 1, 4, short)


def test_set_first_board():
    assert [set_first_board(b, 3) for b in (1, 3, 4, 6, 7)] == [1, 1, 4, 4, 7]
    with pytest.raises(ValueError):
        set_first_board(1, 0)
