"""The hidden cards of Kozyol and of Bilka for two, drawn at random among those consistent with
what one seat has seen (its `View`): the strong bot's guesses (`variant_strong_bot.py`).

**Kozyol** (`kozyol_layouts`): what a seat knows is Bilka's kind of knowledge (`sampler.py`), so
Bilka's exact uniform sampler draws the three hidden hands: the cards played and by whom, the hand
sizes, the voids shown by not following (a trump lead is followed by every permanent trump and
diamond, a plain lead by that suit's plain cards), a banned ace discarded (only banned aces were
left), and with `first_lead=ace_of_diamonds` the first leader's ace of diamonds, in his hand until
played.

**Bilka for two** (`Bilka2Layouts`): the opponent's hand and the stock's order. A void shown at a
trick holds only for the cards the opponent held then: a card of that suit he holds now (or played
later) must have reached him from the stock after that trick. So each card the opponent has ever
held is matched to a time it could have reached him (the first hand, or a draw after a trick), and
a guess at his hand is kept only if such a matching exists (earliest deadline first). The guess is
built card by card in a random order, each kept if the matching still exists; the stock's order is
a random order of the rest. The draw is consistent but not exactly uniform among consistent layouts
(the cards tried first are a little likelier); with no void shown it is uniform.
"""

from __future__ import annotations

import heapq
import random

from gameplay.engine.bilka2_rules import Bilka2Rules
from gameplay.engine.cards import DIAMONDS, PLAIN_SUIT_MASK, VALUE, deck_mask, mask_cards
from gameplay.engine.kozyol_rules import AD, KozyolRules, ladder_of
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES, STRENGTH4
from gameplay.engine.sampler import Inconsistent, Knowledge, Sampler
from gameplay.engine.variant_view import View

_NEVER = 1 << 30


def kozyol_knowledge(view: View) -> Knowledge:
    """What the seat of a Kozyol `view` knows of the other three hands, as `sampler.Knowledge`."""
    rules = view.rules
    if not isinstance(rules, KozyolRules):
        raise ValueError("not a Kozyol view")
    seat = view.seat
    lad = ladder_of(rules)
    nxt = (1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2)
    hand = sum(1 << c for c in view.hand)
    played = sum(1 << c for _, c in view.history)
    unknown = deck_mask(rules.deck) & ~hand & ~played
    allowed = [unknown, unknown, unknown, unknown]
    allowed[seat] = 0
    unled = lad.plain_aces if rules.ace_discard_ban else 0
    points = [0, 0]
    history = view.history
    counts = [0, 0, 0, 0]
    for start in range(0, len(history), 4):
        trick = history[start:start + 4]
        lead = lad.lead_key[trick[0][1]]
        if lead != DIAMONDS:
            unled &= ~lad.plain[lead]
        follow = lad.follow[lead]
        for s, card in trick[1:]:
            if not follow >> card & 1:
                allowed[s] &= ~follow
                if unled >> card & 1:
                    allowed[s] &= unled
        if len(trick) == 4:
            row = lad.strength4[lead]
            win = max(row[c] + s for s, c in trick) & 3
            points[win & 1] += sum(VALUE[c] for _, c in trick)
        for s, _ in trick:
            counts[s] += 1
    forced = [0, 0, 0, 0]
    if rules.first_lead == "ace_of_diamonds" and unknown >> AD & 1 and history:
        first = history[0][0]
        forced[first] = 1 << AD
        for s in range(4):
            allowed[s] &= ~(1 << AD)
    size = len(deck_mask_cards(rules.deck)) // 4
    sizes = tuple(size - counts[s] for s in range(4))
    return Knowledge(seat, hand, unknown, (allowed[0], allowed[1], allowed[2], allowed[3]),
                     (forced[0], forced[1], forced[2], forced[3]), (sizes[0], sizes[1], sizes[2], sizes[3]),
                     unled, (points[0], points[1]), nxt)


def deck_mask_cards(deck: str) -> list[int]:
    return mask_cards(deck_mask(deck))


def kozyol_sampler(view: View) -> Sampler:
    """Exact uniform draws of the three hidden hands of a Kozyol view (N E S W masks, its own included)."""
    return Sampler(kozyol_knowledge(view))


class Bilka2Layouts:
    """Draws of the opponent's hand and the stock's order consistent with a Bilka-for-two view."""

    def __init__(self, view: View) -> None:
        rules = view.rules
        if not isinstance(rules, Bilka2Rules):
            raise ValueError("not a view of Bilka for two")
        self.view = view
        me = self.me = view.seat
        opp = 1 - me
        trump = view.trump
        deck = deck_mask(rules.deck)
        q = self.quarter = deck.bit_count() // 4
        self.after_trick = rules.stock == "after_trick"
        history = view.history
        self.leader0 = history[0][0] if history else me
        self.dealer = 1 - self.leader0
        tricks_done = len(history) // 2
        # When each of the opponent's cards could have reached him: -1 the first hand, t after trick t.
        slots = [-1] * q
        if self.after_trick:
            slots += list(range(min(tricks_done, q)))
        elif tricks_done >= q:
            slots += [q - 1] * q
        self.slots = sorted(slots)
        unled = PLAIN_ACES[trump] if rules.ace_discard_ban else 0
        voids: list[tuple[int, int]] = []  # (trick, cards the opponent did not hold at it)
        opp_played: list[tuple[int, int]] = []  # (card, trick)
        points = [0, 0]
        for t in range(0, len(history), 2):
            trick = history[t:t + 2]
            idx = trump * 4 + LEAD_KEY[trump][trick[0][1]]
            follow = FOLLOW[idx]
            if idx & 3 != trump:
                unled &= ~PLAIN_SUIT_MASK[idx & 3]
            for i, (s, card) in enumerate(trick):
                if s == opp:
                    opp_played.append((card, t // 2))
                if i == 1 and s == opp and not follow >> card & 1:
                    voids.append((t // 2, follow))
                    if unled >> card & 1:
                        voids.append((t // 2, deck & ~unled))
            if len(trick) == 2:
                row = STRENGTH4[idx]
                win = max(row[c] + s for s, c in trick) & 3
                points[win] += VALUE[trick[0][1]] + VALUE[trick[1][1]]
        self.points = (points[0], points[1])
        self.unled_aces = unled
        self.voids = voids
        mine = sum(1 << c for c in view.hand) | sum(1 << c for s, c in history if s == me)
        opp_mask = sum(1 << c for c, _ in opp_played)
        self.unknown = mask_cards(deck & ~mine & ~opp_mask)
        self.opp_size = len(self.slots) - len(opp_played)
        if self.opp_size < 0 or self.opp_size + view.stock_left != len(self.unknown):
            raise Inconsistent("the hidden cards do not fill the opponent's hand and the stock")
        self.played = [(self._lo(card, t), t - 1) for card, t in opp_played]
        self._lo_of = {card: self._lo(card, _NEVER) for card in self.unknown}
        if not self._fits([]):
            raise Inconsistent("the opponent's played cards cannot have reached him")

    def _lo(self, card: int, before: int) -> int:
        """The earliest time `card` can have reached the opponent if he held it until `before`."""
        lo = -1
        for t, mask in self.voids:
            if t < before and mask >> card & 1 and t > lo:
                lo = t
        return lo

    def _fits(self, hand: list[int]) -> bool:
        """Can the played cards and `hand` each be given a time it reached the opponent?"""
        windows = sorted(self.played + [(self._lo_of[c], _NEVER) for c in hand])
        heap: list[int] = []
        i = 0
        for slot in self.slots:
            while i < len(windows) and windows[i][0] <= slot:
                heapq.heappush(heap, windows[i][1])
                i += 1
            if heap:
                if heapq.heappop(heap) < slot:
                    return False
        return not heap and i == len(windows)

    def draw(self, rng: random.Random, tries: int = 50) -> tuple[int, tuple[int, ...]]:
        """(the opponent's hand as a mask, the stock still to come in the order it is drawn)."""
        for _ in range(tries):
            order = self.unknown[:]
            rng.shuffle(order)
            hand: list[int] = []
            rest: list[int] = []
            for card in order:
                if len(hand) < self.opp_size and self._fits([*hand, card]):
                    hand.append(card)
                else:
                    rest.append(card)
            if len(hand) == self.opp_size:
                rng.shuffle(rest)
                return sum(1 << c for c in hand), tuple(rest)
        raise Inconsistent("no layout found that meets every void shown")


__all__ = ["Bilka2Layouts", "Inconsistent", "kozyol_knowledge", "kozyol_sampler"]
