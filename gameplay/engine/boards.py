"""bilka-board/1: the boards of a duplicate event, dealt from the event's committed seed.

A board is one fixed deal that every table of the event plays with the same cards, so a board
cannot mix in each table's client seeds as `bilka-shuffle/1` does. Before round 1 the server draws
a secret 32-byte event seed and publishes its SHA-256 (`shuffle.commitment_of`); board k (from 1)
is a fixed function of the seed and k, and the seed is revealed when the event ends, so anyone can
deal every board again and check that every table had the same cards (docs/shuffle.md, "Duplicate
boards", has a worked example):

    message = "bilka-board/1" | k (4 bytes BE)
    the deck is shuffled by the HMAC stream of the event seed over that message, exactly as a deal
    of bilka-shuffle/1 is (`shuffle.shuffled_deck`), and dealt in four slices to N, E, S, W.

A board set (the boards a table plays in one round) is played with one assignment of suits to
seats: its first board's jack of clubs decides it, as the first played deal of a match does
(RULES.md, "Whose suit is trump"). There is no redeal. The board's dealer is bridge's: board 1 N,
2 E, 3 S, 4 W, and round again (it leads only under `first_lead: after_dealer`).

A board's **par** is the card points NS take when all four play best with all hands known: the
double-dummy solver's value of the board's first position (its trump and leader as a table of the
event starts it, `board_start`).
"""

from __future__ import annotations

from typing import Final

from gameplay.engine.cards import JC
from gameplay.engine.deal import first_suits
from gameplay.engine.deal_position import Position
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import shuffled_deck
from gameplay.engine.solver import Solver

SCHEME: Final = "bilka-board/1"
_PREFIX: Final = SCHEME.encode("ascii")


def board_message(board: int) -> bytes:
    """The HMAC message of board ``board`` (from 1)."""
    if not 1 <= board < 2**32:
        raise ValueError(f"a board's number is 1 or more, not {board}")
    return _PREFIX + board.to_bytes(4, "big")


def board_hands(seed: bytes, board: int, deck: str = "32") -> tuple[int, int, int, int]:
    """The four hands (bitmasks, N E S W) of board ``board`` of the event whose seed is ``seed``."""
    cards = shuffled_deck(seed, board_message(board), deck)
    h = len(cards) // 4
    n, e, s, w = (sum(1 << c for c in cards[i * h:(i + 1) * h]) for i in range(4))
    return (n, e, s, w)


def board_dealer(board: int) -> int:
    """The board's dealer (0..3 = N E S W): N deals board 1, E board 2, and so on."""
    return (board - 1) % 4


def jack_holder(hands: tuple[int, int, int, int]) -> int:
    """The seat holding the jack of clubs."""
    return next(seat for seat in range(4) if hands[seat] >> JC & 1)


def set_seat_suits(first_board: tuple[int, int, int, int],
                   direction: str = "clockwise") -> tuple[int, int, int, int]:
    """Each seat's suit for a whole board set, from the set's first board (its jack of clubs)."""
    next_seat = (1, 2, 3, 0) if direction == "clockwise" else (3, 0, 1, 2)
    return first_suits(jack_holder(first_board), next_seat)


def set_first_board(board: int, boards_per_set: int) -> int:
    """The first board of the set that ``board`` belongs to (sets are boards 1..B, B+1..2B, ...)."""
    if boards_per_set < 1:
        raise ValueError(f"a set has 1 board or more, not {boards_per_set}")
    return (board - 1) // boards_per_set * boards_per_set + 1


def _next_seats(direction: str) -> tuple[int, int, int, int]:
    return (1, 2, 3, 0) if direction == "clockwise" else (3, 0, 1, 2)


def board_start(seed: bytes, board: int, boards_per_set: int, rules: Rules) -> Position:
    """Board ``board`` before its first card, as every table of the event starts it: the trump is
    the suit the set gives the jack of clubs' seat, and the jack holder leads (or, under
    `first_lead: after_dealer`, the player after the board's dealer)."""
    hands = board_hands(seed, board, rules.deck)
    next_seat = _next_seats(rules.direction)
    suits = set_seat_suits(board_hands(seed, set_first_board(board, boards_per_set), rules.deck),
                           rules.direction)
    holder = jack_holder(hands)
    leader = holder if rules.first_lead == "jack_holder" else next_seat[board_dealer(board)]
    return Position.start(hands, suits[holder], leader, ace_discard_ban=rules.ace_discard_ban,
                          next_seat=next_seat)


def board_par(seed: bytes, board: int, boards_per_set: int, rules: Rules) -> int:
    """The card points NS take on the board with best play by all four (EW take the rest of 120)."""
    pos = board_start(seed, board, boards_per_set, rules)
    return Solver(pos.trump, pos.next_seat).value(pos)
