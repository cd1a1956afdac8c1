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
from gameplay.engine.errors import RecordError
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import commitment_of, is_hex64, shuffled_deck
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


#: The record's `duplicate` object: which event, which scheme, the event's commitment, the set's boards.
_RECORD_KEYS: Final = frozenset({"event", "scheme", "commitment", "boards"})


class BoardSet:
    """The boards one live table plays, in order: their numbers, the event's commitment, and the
    hands of each (secret: a table holds only its own set's hands, never the event seed).

    A state with a board set deals deal k as board ``numbers[k-1]``, with that board's dealer, no
    redeal, and ends after the last board, not at 12 eyes. `dealt` is None where the hands are not
    known (a record read back): such a state replays its deals from their recorded hands only.
    """

    __slots__ = ("commitment", "dealt", "event", "numbers")

    def __init__(self, numbers: tuple[int, ...], *, commitment: str, event: str = "",
                 dealt: tuple[tuple[int, int, int, int], ...] | None = None) -> None:
        if not numbers:
            raise ValueError("a board set has at least one board")
        for number in numbers:
            board_message(number)  # checks the number
        if dealt is not None and len(dealt) != len(numbers):
            raise ValueError("a board set's hands are one set of four per board")
        self.numbers = tuple(numbers)
        self.commitment = commitment
        self.event = event
        self.dealt = dealt

    @classmethod
    def from_seed(cls, seed: bytes, numbers: tuple[int, ...] | list[int] | range, *, deck: str = "32",
                  event: str = "") -> BoardSet:
        """The set of boards ``numbers`` of the event whose seed is ``seed``, dealt."""
        numbers = tuple(numbers)
        return cls(numbers, commitment=commitment_of(seed), event=event,
                   dealt=tuple(board_hands(seed, n, deck) for n in numbers))

    def board(self, k: int) -> int:
        """The number of deal k's board (k from 1); ValueError past the last board."""
        if not 1 <= k <= len(self.numbers):
            raise ValueError(f"the set has {len(self.numbers)} boards, not {k}")
        return self.numbers[k - 1]

    def dealer(self, k: int) -> int:
        return board_dealer(self.board(k))

    def hands(self, k: int) -> tuple[int, int, int, int]:
        """The hands of deal k (board ``numbers[k-1]``); ValueError when they are not known."""
        self.board(k)
        if self.dealt is None:
            raise ValueError("the board set's hands are not known, so no board can be dealt")
        return self.dealt[k - 1]

    def to_json(self) -> dict[str, object]:
        """The record's `duplicate` object: public from the start (the hands are never in it)."""
        return {"event": self.event, "scheme": SCHEME, "commitment": self.commitment,
                "boards": list(self.numbers)}


def read_board_set(value: object) -> BoardSet:
    """The record's `duplicate` object, checked (RecordError says what is wrong)."""
    if not isinstance(value, dict):
        raise RecordError("duplicate must be a JSON object")
    unknown = set(value) - _RECORD_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in duplicate")
    if value.get("scheme") != SCHEME:
        raise RecordError(f"duplicate.scheme must be {SCHEME!r}, not {value.get('scheme')!r}")
    if not is_hex64(value.get("commitment")):
        raise RecordError("duplicate.commitment must be 64 lowercase hex digits (a SHA-256)")
    event = value.get("event", "")
    if not isinstance(event, str):
        raise RecordError("duplicate.event must be a string")
    numbers = value.get("boards")
    if (not isinstance(numbers, list) or not numbers
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n < 2**32 for n in numbers)
            or len(set(numbers)) != len(numbers)):
        raise RecordError("duplicate.boards must list the set's board numbers (1 or more, each once)")
    return BoardSet(tuple(numbers), commitment=str(value["commitment"]), event=event)
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
