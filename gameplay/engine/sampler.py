"""The hidden hands a seat cannot see, drawn at random among those consistent with what it has seen.

What one seat knows of the other three hands (`Knowledge.of`): its own hand and every card
played in the deal, with who played it (`Observation.history`); how many cards each seat holds;
that the jack-of-clubs holder is public (the trump is his suit), so `JC` is in his hand until
played; and the voids shown by not following: a seat that did not follow a lead holds no card
that follows it (a trump lead is followed by jacks and the trump suit, a plain lead by that
suit's non-jack cards, since jacks are trumps); under `ace_discard_ban`, a seat that could not
follow and still played a banned ace (a plain ace of a suit not yet led) held nothing but banned
aces. A "play" answer to the redeal question says nothing certain (any seat may pass), so it is
not used.

`Knowledge.sample` draws the three hidden hands uniformly among all deals meeting these
constraints, exactly: cards are grouped by the set of seats that may hold them, the number of
ways to complete a deal is counted per group (at most seven groups, three seats), and each
group's split is drawn in proportion to its number of completions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from gameplay.engine.cards import JC, PLAIN_SUIT_MASK, VALUE, deck_mask, mask_cards
from gameplay.engine.deal_position import trick_winner
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES
from gameplay.engine.observation import Observation

_JC_BIT = 1 << JC


class Inconsistent(ValueError):
    """No deal fits the observation (it cannot come from a real table)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What `seat` knows of the hidden cards: `unknown` (the cards the other three hold),
    `allowed[s]` the cards seat s may hold, `forced[s]` the cards it must hold (JC),
    `sizes[s]` how many it holds; plus what the solver needs of the deal so far."""

    seat: int
    hand: int
    unknown: int
    allowed: tuple[int, int, int, int]
    forced: tuple[int, int, int, int]
    sizes: tuple[int, int, int, int]
    unled_aces: int
    points: tuple[int, int]
    next_seat: tuple[int, int, int, int]

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        if not isinstance(obs, Observation):
            raise TypeError("the hidden hands are inferred from an Observation only")
        if obs.seat is None or obs.hand is None or obs.trump is None or obs.rules is None:
            raise ValueError("not a seat's observation of a deal in play")
        seat, trump, rules = obs.seat, obs.trump, obs.rules
        next_seat = (1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2)
        hand = sum(1 << c for c in obs.hand)
        played = sum(1 << c for _, c in obs.history)
        unknown = deck_mask(rules.deck) & ~hand & ~played
        allowed = [unknown, unknown, unknown, unknown]
        allowed[seat] = 0
        unled = PLAIN_ACES[trump] if rules.ace_discard_ban else 0
        points = [0, 0]
        history = obs.history
        for start in range(0, len(history), 4):
            trick = history[start:start + 4]
            idx = trump * 4 + LEAD_KEY[trump][trick[0][1]]
            if idx & 3 != trump:
                unled &= ~PLAIN_SUIT_MASK[idx & 3]
            follow = FOLLOW[idx]
            for s, card in trick[1:]:
                if not follow >> card & 1:
                    allowed[s] &= ~follow  # void in what was led
                    if unled >> card & 1:
                        allowed[s] &= unled  # only banned aces were left
            if len(trick) == 4:
                cards = tuple(c for _, c in trick)
                win = trick_winner(trump, trick[0][0], cards, next_seat)
                points[win & 1] += sum(VALUE[c] for c in cards)
        forced = [0, 0, 0, 0]
        jh = obs.jack_holder
        if unknown & _JC_BIT and jh is not None and jh != seat:
            forced[jh] = _JC_BIT
            for s in range(4):
                allowed[s] &= ~_JC_BIT
        sizes = obs.hand_sizes
        return cls(seat, hand, unknown, (allowed[0], allowed[1], allowed[2], allowed[3]),
                   (forced[0], forced[1], forced[2], forced[3]),
                   (sizes[0], sizes[1], sizes[2], sizes[3]), unled, (points[0], points[1]), next_seat)

    def sampler(self) -> Sampler:
        return Sampler(self)

    def sample(self, rng: random.Random) -> tuple[int, int, int, int]:
        """One deal (N E S W hand masks) drawn uniformly among those consistent with the knowledge."""
        return self.sampler().draw(rng)


class Sampler:
    """Exact uniform draws of the hidden hands; build once per decision, draw many times."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.others = [s for s in range(4) if s != k.seat]
        caps = []
        for s in self.others:
            cap = k.sizes[s] - k.forced[s].bit_count()
            if cap < 0:
                raise Inconsistent("a seat holds fewer cards than it must")
            caps.append(cap)
        free = k.unknown & ~(k.forced[0] | k.forced[1] | k.forced[2] | k.forced[3])
        if sum(caps) != free.bit_count():
            raise Inconsistent("the hidden cards do not fill the hands")
        groups: dict[int, list[int]] = {}
        for card in mask_cards(free):
            key = sum(1 << i for i, s in enumerate(self.others) if k.allowed[s] >> card & 1)
            if not key:
                raise Inconsistent("a hidden card no seat may hold")
            groups.setdefault(key, []).append(card)
        self.groups = sorted(groups.items())
        self.caps = (caps[0], caps[1], caps[2])
        self._count = lru_cache(maxsize=None)(self._count_raw)
        if not self._count(0, caps[0], caps[1], caps[2]):
            raise Inconsistent("no deal meets every constraint")

    def _splits(self, i: int, c0: int, c1: int, c2: int) -> list[tuple[int, int, int, int]]:
        """(ways, a0, a1, a2): each way to give group i's cards to the three seats within their room,
        with the number of whole deals it leads to."""
        key, cards = self.groups[i]
        n = len(cards)
        out = []
        for a0 in range(min(n, c0) + 1 if key & 1 else 1):
            for a1 in range(min(n - a0, c1) + 1 if key & 2 else 1):
                a2 = n - a0 - a1
                if a2 > c2 or (a2 and not key & 4):
                    continue
                rest = self._count(i + 1, c0 - a0, c1 - a1, c2 - a2)
                if rest:
                    out.append((comb(n, a0) * comb(n - a0, a1) * rest, a0, a1, a2))
        return out

    def _count_raw(self, i: int, c0: int, c1: int, c2: int) -> int:
        if i == len(self.groups):
            return 1 if c0 == c1 == c2 == 0 else 0
        return sum(w for w, _, _, _ in self._splits(i, c0, c1, c2))

    def draw(self, rng: random.Random) -> tuple[int, int, int, int]:
        k = self.k
        hands = list(k.forced)
        hands[k.seat] = k.hand
        c = list(self.caps)
        for i, (_, cards) in enumerate(self.groups):
            splits = self._splits(i, c[0], c[1], c[2])
            total = sum(w for w, _, _, _ in splits)
            r = rng.randrange(total)
            pick = splits[-1]
            for split in splits:
                if r < split[0]:
                    pick = split
                    break
                r -= split[0]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for j, a in enumerate(pick[1:]):
                for card in shuffled[at:at + a]:
                    hands[self.others[j]] |= 1 << card
                at += a
                c[j] -= a
        return (hands[0], hands[1], hands[2], hands[3])
