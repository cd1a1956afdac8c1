"""Cards as small ints, hands as bitmasks, the notation of RULES.md (`JC`, `TH`, `7S`) and of actions.

A card id is `suit * 9 + rank` with suits `C D H S` (0..3) and ranks `6 7 8 9 T J Q K A`
(0..8), so a hand of any deck fits in a 36-bit int and a suit is a 9-bit slice of it.
"""

from __future__ import annotations

from typing import Final

SUITS: Final = "CDHS"
RANKS: Final = "6789TJQKA"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
JACK_RANK: Final = 5
NINE_RANK: Final = 3
ACE_RANK: Final = 8

SEATS: Final = "NESW"
PAIRS: Final = ("NS", "EW")
N, E, S, W = 0, 1, 2, 3

NUM_CARDS: Final = 36

#: Points of a card by rank: A 11, 10 10, K 4, Q 3, J 2, the rest 0.
RANK_VALUE: Final = (0, 0, 0, 0, 10, 2, 3, 4, 11)
VALUE: Final[tuple[int, ...]] = tuple(RANK_VALUE[c % 9] for c in range(NUM_CARDS))
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(NUM_CARDS))

JACKS: Final = sum(1 << (s * 9 + JACK_RANK) for s in range(4))
JC: Final = CLUBS * 9 + JACK_RANK
SUIT_MASK: Final = tuple(0x1FF << (9 * s) for s in range(4))
#: Non-jack cards of each suit: the cards that "follow" a plain lead of that suit.
PLAIN_SUIT_MASK: Final = tuple(SUIT_MASK[s] & ~JACKS for s in range(4))
NINES: Final = sum(1 << (s * 9 + NINE_RANK) for s in range(4))

#: Ranks in each deck; every deck totals 120 points.
DECK_RANKS: Final[dict[str, str]] = {
    "32": "789TJQKA",
    "36": "6789TJQKA",
    "32-no-sevens": "689TJQKA",
    "28": "89TJQKA",
}


def deck_cards(deck: str) -> list[int]:
    """The card ids of a deck, clubs first, low to high."""
    ranks = DECK_RANKS[deck]
    return [s * 9 + RANKS.index(r) for s in range(4) for r in ranks]


def deck_mask(deck: str) -> int:
    return sum(1 << c for c in deck_cards(deck))


def card_to_str(card: int) -> str:
    return RANKS[card % 9] + SUITS[card // 9]


def card_from_str(text: str) -> int:
    """Parse `JC`, `TH`, `7S`; raise ValueError on anything else."""
    if not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return SUITS.index(text[1]) * 9 + RANKS.index(text[0])


def seat_from_str(text: str) -> int:
    if not isinstance(text, str) or len(text) != 1 or text not in SEATS:
        raise ValueError(f"not a seat: {text!r}")
    return SEATS.index(text)


def pair_from_str(text: str) -> int:
    if text not in PAIRS:
        raise ValueError(f"not a pair: {text!r}")
    return PAIRS.index(text)


def _chunk_table(shift: int) -> tuple[list[int], ...]:
    return tuple([shift + b for b in range(12) if m >> b & 1] for m in range(4096))


_CHUNK0: Final = _chunk_table(0)
_CHUNK1: Final = _chunk_table(12)
_CHUNK2: Final = _chunk_table(24)
#: Card lists and points of each 12-bit slice of a mask, for look-ups in the hot path.
CHUNK_CARDS: Final = (_CHUNK0, _CHUNK1, _CHUNK2)
CHUNK_POINTS: Final = tuple(tuple(sum(VALUE[c] for c in chunk) for chunk in table) for table in CHUNK_CARDS)


def mask_cards(mask: int) -> list[int]:
    """The card ids in a mask, ascending: three table look-ups, no bit loop."""
    return _CHUNK0[mask & 0xFFF] + _CHUNK1[mask >> 12 & 0xFFF] + _CHUNK2[mask >> 24]


def mask_points(mask: int) -> int:
    p0, p1, p2 = CHUNK_POINTS
    return p0[mask & 0xFFF] + p1[mask >> 12 & 0xFFF] + p2[mask >> 24]


def is_jack(card: int) -> bool:
    return card % 9 == JACK_RANK


def suit_of(card: int) -> int:
    return card // 9


def hand_sort_key(card: int) -> tuple[int, int]:
    """Display order: jacks first (JC JS JH JD), then suits C S H D, high to low."""
    order = (0, 3, 2, 1)
    if card % 9 == JACK_RANK:
        return (0, order[card // 9])
    plain_rank = (0, 1, 2, 3, 6, -1, 4, 5, 7)
    return (1 + order[card // 9], -plain_rank[card % 9])


#: Special action ids beside the card ids 0..35, used in the redeal phase.
REDEAL: Final = 36
PASS: Final = 37


def action_from_str(text: str) -> int:
    """A client's action: a card (`JS`), `redeal` or `pass`; ValueError for anything else."""
    if text == "redeal":
        return REDEAL
    if text == "pass":
        return PASS
    return card_from_str(text)


def action_to_str(action: int) -> str:
    if action == REDEAL:
        return "redeal"
    if action == PASS:
        return "pass"
    return card_to_str(action)
