"""Bilka for two with every card known, the stock's order too: the points North ends the deal with
when both play best from here, and the same for each legal card (docs/other-games.md, "The bots and
the analysis").

In a replay the stock's order is in the record, so this is the deal's analysis; the strong bot
(`variant_strong_bot.py`) guesses the opponent's hand and the stock's order and asks this of each
guess. The play rules are Bilka's (`ladder.py`): the search follows `bilka2.py` card for card,
drawing from the stock after each trick (`stock=after_trick`, the winner first) or dealing it out
when both hands are empty (`stock=halves`, the non-dealer's quarter first).

The search is Bilka's solver's in shape (`solver.py`): a null-window alpha-beta (fail-soft) driven
MTD(f)-style to the exact value over a transposition table of bounds keyed by the two hands, the
leader, how much of the stock is drawn and the aces still banned; cards of one hand equivalent to
a stronger one (`solver.representatives`, with the stock's cards counted as live) are tried once.
Objective: card points (North's; South's are the rest of 120), as Bilka's strong bot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gameplay.engine.cards import CHUNK_POINTS, PLAIN_SUIT_MASK, VALUE
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES, STRENGTH4
from gameplay.engine.solver import representatives

TOTAL = 120
_P0, _P1, _P2 = CHUNK_POINTS
_BY_VALUE = tuple(sum(1 << c for c in range(36) if VALUE[c] == v) for v in (11, 10, 4, 3, 2, 0))
_LOW_FIRST = _BY_VALUE[::-1]


def _points(mask: int) -> int:
    return _P0[mask & 0xFFF] + _P1[mask >> 12 & 0xFFF] + _P2[mask >> 24]


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Bilka2Position:
    """A deal of Bilka for two at some card: the hands (N, S), the stock still to come in the order
    it reaches the hands, the trick on the table (0 or 1 card) from `leader`, the plain aces still
    banned, the points taken (N, S); `after_trick` (the stock rule), `dealer` and `quarter` (a
    hand's size) say how the stock is drawn."""

    hands: tuple[int, int]
    stock: tuple[int, ...]
    trump: int
    leader: int
    trick: tuple[int, ...]
    unled_aces: int
    points: tuple[int, int]
    after_trick: bool
    dealer: int
    quarter: int

    @classmethod
    def start(cls, hands: tuple[int, int], stock: tuple[int, ...], trump: int, leader: int, *,
              after_trick: bool, dealer: int, ace_discard_ban: bool = False) -> Bilka2Position:
        unled = PLAIN_ACES[trump] if ace_discard_ban else 0
        return cls(hands, stock, trump, leader, (), unled, (0, 0), after_trick, dealer, hands[0].bit_count())

    @property
    def to_move(self) -> int:
        return self.leader ^ len(self.trick)

    @property
    def over(self) -> bool:
        return not (self.hands[0] | self.hands[1]) and not self.stock

    def legal_mask(self) -> int:
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand
        follow = FOLLOW[self.trump * 4 + LEAD_KEY[self.trump][self.trick[0]]]
        return hand & follow or hand & ~self.unled_aces or hand

    def play(self, card: int) -> Bilka2Position:
        """The position after the player to move plays `card` (ValueError if he may not)."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"card {card} is not legal here")
        mover = self.to_move
        hands = [self.hands[0], self.hands[1]]
        hands[mover] ^= 1 << card
        idx = self.trump * 4 + LEAD_KEY[self.trump][(*self.trick, card)[0]]
        if not self.trick:
            unled = self.unled_aces
            if unled and idx & 3 != self.trump:
                unled &= ~PLAIN_SUIT_MASK[idx & 3]
            return Bilka2Position((hands[0], hands[1]), self.stock, self.trump, self.leader, (card,), unled,
                                  self.points, self.after_trick, self.dealer, self.quarter)
        row = STRENGTH4[idx]
        lead = self.trick[0]
        a, b = row[lead] + self.leader, row[card] + mover
        win = (a if a > b else b) & 3
        points = [self.points[0], self.points[1]]
        points[win] += VALUE[lead] + VALUE[card]
        stock = self.stock
        if stock:
            if self.after_trick:
                hands[win] |= 1 << stock[0]
                hands[1 - win] |= 1 << stock[1]
                stock = stock[2:]
            elif not hands[win]:
                q = self.quarter
                hands[1 - self.dealer] |= sum(1 << c for c in stock[:q])
                hands[self.dealer] |= sum(1 << c for c in stock[q:2 * q])
                stock = stock[2 * q:]
        return Bilka2Position((hands[0], hands[1]), stock, self.trump, win, (), self.unled_aces,
                              (points[0], points[1]), self.after_trick, self.dealer, self.quarter)


class Bilka2Solver:
    """A perfect-information solver for one deal (one stock); its table lives as long as it does.
    `stop`, if given, is asked every 1024 positions; a search it stops raises `TimeoutError`."""

    def __init__(self, pos: Bilka2Position, *, stop: Callable[[], bool] | None = None) -> None:
        self.trump = pos.trump
        self._lead_keys = LEAD_KEY[pos.trump]
        self._stop = stop
        self._hands = [0, 0]
        self._stock: tuple[int, ...] = ()
        #: _rest[i]: the stock's cards from its i-th on, as a mask.
        self._rest: list[int] = [0]
        self._after_trick = pos.after_trick
        self._dealer = pos.dealer
        self._quarter = pos.quarter
        self._table: dict[tuple[int, int, int, int, int], list[int]] = {}
        self._stock_key: tuple[int, ...] | None = None
        self.nodes = 0

    def value(self, pos: Bilka2Position) -> int:
        """The points North ends the deal with, both playing best from `pos`."""
        if pos.over:
            return pos.points[0]
        return pos.points[0] + self._exact(pos)

    def card_values(self, pos: Bilka2Position) -> dict[int, int]:
        """For each legal card of the player to move, the points North ends the deal with after it."""
        return {card: self.value(pos.play(card)) for card in _cards(pos.legal_mask())}

    def _exact(self, pos: Bilka2Position) -> int:
        if pos.stock != self._stock_key:  # the table's keys count the stock from its end
            self._stock_key = pos.stock
            self._stock = pos.stock
            rest = [0] * (len(pos.stock) + 1)
            for i in range(len(pos.stock) - 1, -1, -1):
                rest[i] = rest[i + 1] | 1 << pos.stock[i]
            self._rest = rest
            self._table = {}
        self._hands = [pos.hands[0], pos.hands[1]]
        alive = pos.hands[0] | pos.hands[1] | self._rest[0]
        for c in pos.trick:
            alive |= 1 << c
        lo, hi = 0, _points(alive)
        while lo < hi:
            g = (lo + hi + 1) // 2
            if pos.trick:
                c = pos.trick[0]
                idx = self.trump * 4 + self._lead_keys[c]
                v = self._follow(1 - pos.leader, idx, STRENGTH4[idx][c] + pos.leader, VALUE[c], 0,
                                 pos.unled_aces, g)
            else:
                v = self._lead(pos.leader, 0, pos.unled_aces, g)
            if v >= g:
                lo = v
            else:
                hi = v
        return lo

    def _lead(self, leader: int, si: int, unled: int, beta: int) -> int:
        h = self._hands
        alive = h[0] | h[1] | self._rest[si]
        total = _points(alive)
        if beta > total:
            return total
        if beta <= 0:
            return 0
        key = (h[0], h[1], leader, len(self._stock) - si, unled)
        entry = self._table.get(key)
        if entry is not None:
            if entry[0] >= beta:
                return entry[0]
            if entry[1] < beta:
                return entry[1]
            first = entry[2]
        else:
            entry = [0, total, -1]
            self._table[key] = entry
            first = -1
        self.nodes += 1
        if self._stop is not None and not self.nodes & 1023 and self._stop():
            raise TimeoutError("the search was stopped")
        hand = h[leader]
        reps = representatives(hand, alive)
        moves: list[int] = []
        for m in _BY_VALUE:
            if reps & m:
                moves += _cards(reps & m)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximise = leader == 0
        best_v = -1 if maximise else 999
        best_card = -1
        for c in moves:
            h[leader] = hand ^ (1 << c)
            idx = self.trump * 4 + self._lead_keys[c]
            u = unled & ~PLAIN_SUIT_MASK[idx & 3] if unled and idx & 3 != self.trump else unled
            v = self._follow(1 - leader, idx, STRENGTH4[idx][c] + leader, VALUE[c], si, u, beta)
            if maximise:
                if v > best_v:
                    best_v, best_card = v, c
                    if v >= beta:
                        break
            elif v < best_v:
                best_v, best_card = v, c
                if v < beta:
                    break
        h[leader] = hand
        if best_v >= beta:
            entry[0] = max(entry[0], best_v)
        else:
            entry[1] = min(entry[1], best_v)
        entry[2] = best_card
        return best_v

    def _follow(self, seat: int, idx: int, best: int, pts: int, si: int, unled: int, beta: int) -> int:
        """The second card of a trick led to the ladder `idx`; the draws after it; the rest."""
        h = self._hands
        hand = h[seat]
        legal = hand & FOLLOW[idx] or hand & ~unled or hand
        alive = h[0] | h[1] | self._rest[si]
        reps = representatives(legal, alive)
        row = STRENGTH4[idx]
        win_mask = 0
        for c in _cards(reps):
            if row[c] + seat > best:
                win_mask |= 1 << c
        moves: list[int] = []
        for m in _BY_VALUE:
            if win_mask & m:
                moves += _cards(win_mask & m)
        lose = reps & ~win_mask
        for m in _LOW_FIRST:
            if lose & m:
                moves += _cards(lose & m)
        maximise = seat == 0
        best_v = -1 if maximise else 999
        stock = self._stock
        for c in moves:
            v = row[c] + seat
            win = (v if v > best else best) & 3
            tp = pts + VALUE[c]
            h[seat] = hand ^ (1 << c)
            saved = (h[0], h[1])
            nsi = si
            if si < len(stock):
                if self._after_trick:
                    h[win] |= 1 << stock[si]
                    h[1 - win] |= 1 << stock[si + 1]
                    nsi = si + 2
                elif not h[win]:
                    q = self._quarter
                    h[1 - self._dealer] |= self._rest[si] & ~self._rest[si + q]
                    h[self._dealer] |= self._rest[si + q] & ~self._rest[si + 2 * q]
                    nsi = si + 2 * q
            if not (h[0] | h[1]):
                v = tp if win == 0 else 0
            elif win == 0:
                v = tp + self._lead(0, nsi, unled, beta - tp)
            else:
                v = self._lead(1, nsi, unled, beta)
            h[0], h[1] = saved
            if maximise:
                if v > best_v:
                    best_v = v
                    if v >= beta:
                        break
            elif v < best_v:
                best_v = v
                if v < beta:
                    break
        h[seat] = hand
        return best_v


__all__ = ["TOTAL", "Bilka2Position", "Bilka2Solver"]
