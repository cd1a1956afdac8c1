"""One deal: its hands shuffled or checked, the seats that may ask for a redeal, and its log."""

from __future__ import annotations

import random

from gameplay.engine.cards import (
    CHUNK_POINTS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    NINES,
    PLAIN_SUIT_MASK,
    SEATS,
    SPADES,
    card_to_str,
    mask_cards,
    mask_points,
)
from gameplay.engine.errors import IllegalAction
from gameplay.engine.rules import Rules

_P0, _P1, _P2 = CHUNK_POINTS
#: _BIT_LENGTH[i] = (i + 1).bit_length(): bits to draw for an index in 0..i.
_BIT_LENGTH = tuple((i + 1).bit_length() for i in range(64))


class DealLog:
    """One deal as it happened: enough to write the record and to report the score."""

    __slots__ = ("dealer", "hands", "plays", "redeal", "passed", "trump", "jack_holder", "leader",
                 "trick_winners", "outcome", "points", "eyes", "score_after")

    def __init__(self, dealer: int, hands: tuple[int, int, int, int], trump: int, jack_holder: int,
                 leader: int) -> None:
        self.dealer = dealer
        self.hands = hands
        self.plays: list[int] = []
        self.redeal: int | None = None
        #: Seats that answered "play" in the redeal phase, in the order the answers came (or
        #: whose time ran out); written to the record only while no card is played.
        self.passed: list[int] = []
        self.trump = trump
        self.jack_holder = jack_holder
        self.leader = leader
        self.trick_winners: list[int] = []
        self.outcome: str | None = None
        self.points: tuple[int, int] = (0, 0)
        self.eyes: tuple[int, int] = (0, 0)
        self.score_after: tuple[int, int] = (0, 0)

    @property
    def pair_on_duty(self) -> int:
        return self.jack_holder & 1


def hand_qualifies(rules: Rules, hand: int) -> bool:
    """May a seat with this hand ask for a redeal (RULES.md, "Redeal")?"""
    return bool(redeal_grounds(rules, hand))


def redeal_grounds(rules: Rules, hand: int) -> list[tuple[str, int]]:
    """Why a hand may ask for a redeal: each rule of RULES.md ("Redeal") that it meets, with a
    detail, so a replay can say why a redealt hand qualified and the check stays in one place.

    `("points", p)`: fewer hand points `p` than `redeal_below`; `("four_nines", 0)`: all four
    nines; `("five_of_suit", suit)`: five or more non-jack cards of `suit`. Empty: no redeal.
    """
    grounds: list[tuple[str, int]] = []
    if rules.redeal_below:
        points = mask_points(hand)
        if points < rules.redeal_below:
            grounds.append(("points", points))
    if rules.redeal_four_nines and hand & NINES == NINES:
        grounds.append(("four_nines", 0))
    if rules.redeal_five_of_suit:
        for suit, suit_mask in enumerate(PLAIN_SUIT_MASK):
            if (hand & suit_mask).bit_count() >= 5:
                grounds.append(("five_of_suit", suit))
    return grounds


def shuffled_hands(deck_bits: list[int], rng: random.Random, hand_size: int) -> list[int]:
    """Four hand masks (N E S W) of a deck given as one bit per card, shuffled from `rng`."""
    bits = deck_bits[:]  # one bit per card: shuffling bits deals masks directly
    # Fisher-Yates exactly as random.shuffle does it (same draws, same result), with
    # the rejection sampling of _randbelow inlined: dealing is in every deal's cost.
    getrandbits = rng.getrandbits
    for i in range(len(bits) - 1, 0, -1):
        k = _BIT_LENGTH[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        bits[i], bits[j] = bits[j], bits[i]
    n = hand_size
    return [sum(bits[:n]), sum(bits[n:2 * n]), sum(bits[2 * n:3 * n]), sum(bits[3 * n:])]


def check_hands(hands: tuple[int, ...] | list[int], deck: str, deck_mask: int, hand_size: int) -> None:
    """IllegalAction unless `hands` are four hands of `hand_size` distinct cards of the deck."""
    if len(hands) != 4:
        raise IllegalAction("a deal needs four hands")
    for seat, hand in enumerate(hands):
        if hand & ~deck_mask:
            bad = mask_cards(hand & ~deck_mask)[0]
            raise IllegalAction(f"{card_to_str(bad)} is not in the {deck} deck "
                                f"(hand of {SEATS[seat]})")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & seen:
            bad = mask_cards(hand & seen)[0]
            raise IllegalAction(f"{card_to_str(bad)} is dealt twice (hand of {SEATS[seat]})")
        if hand.bit_count() != hand_size:
            raise IllegalAction(f"{SEATS[seat]} has {hand.bit_count()} cards, "
                                f"not {hand_size}")
        seen |= hand


def redeal_possible(rules: Rules) -> bool:
    """Can any hand ask for a redeal under these rules? If not, no deal has a redeal phase."""
    return bool(rules.redeal_below or rules.redeal_four_nines or rules.redeal_five_of_suit)


def qualifying_seats(rules: Rules, hands: list[int]) -> int:
    """The seats whose hands may ask for a redeal, as a 4-bit mask (bit s = seat s)."""
    mask = 0
    if rules.redeal_four_nines or rules.redeal_five_of_suit:
        for seat in range(4):
            if hand_qualifies(rules, hands[seat]):
                mask |= 1 << seat
    elif rules.redeal_below:
        below = rules.redeal_below
        for seat in range(4):
            h = hands[seat]
            if _P0[h & 0xFFF] + _P1[h >> 12 & 0xFFF] + _P2[h >> 24] < below:
                mask |= 1 << seat
    return mask


def first_suits(jack_holder: int, next_seat: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Each seat's suit (RULES.md): in the first played deal the JC holder is given clubs, the
    next player hearts, his partner spades, the fourth diamonds."""
    suits = [0, 0, 0, 0]
    seat = jack_holder
    for suit in (CLUBS, HEARTS, SPADES, DIAMONDS):
        suits[seat] = suit
        seat = next_seat[seat]
    return (suits[0], suits[1], suits[2], suits[3])
