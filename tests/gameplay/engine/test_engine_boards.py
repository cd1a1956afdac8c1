"""bilka-board/1 (gameplay/engine/boards.py): a duplicate event's boards from its seed alone, checked
against an independent implementation of docs/shuffle.md's recipe and its worked example."""

import hashlib
import hmac

import pytest

from gameplay.engine.boards import board_dealer, board_hands, board_message, jack_holder, set_seat_suits
from gameplay.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card_to_str, deck_cards, mask_cards
from gameplay.engine.shuffle import commitment_of, deal_hands

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
