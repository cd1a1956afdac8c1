"""Kozyol's double-dummy solver: with all four hands known, what N/S end the deal with when both
pairs play best from here, and the same for each legal card (docs/other-games.md, "The bots and the
analysis").

**The objective.** Card points, as Bilka's solver (`solver.py`), with the catch folded in: a deal
the шамок stops counts as if the catching pair had taken every card still out (the catch trick's
and all those never played), so N/S's value is `120 - E/W's points` after a catch by N/S and N/S's
points after one by E/W. Why: a catch opens 4 eyes, a rout's worth, and taking every remaining
trick is the best the catchers could have done by playing on, so a sure catch is never worth less
to them than any way of playing on, and avoiding one is worth as much to the other pair as taking
tricks; and the value stays additive over the cards still out, so the search keeps its table keyed
on the remaining cards alone (the points taken are never in the key). It understates a catch late
in a deal where the catchers have few points (a catch is 4 eyes whatever the points); a search on
eyes is not built. The values of a pair sum to 120, so a replay shows them as points.

The search is Bilka's: a null-window alpha-beta (fail-soft) driven MTD(f)-style to the exact value,
with a transposition table of bounds keyed by the four hands, the leader and the aces still banned
at each trick's start; the cards of one hand next to each other in their class's order (no live
card between them) and of equal points are tried once (never the шамок or the queen of clubs, whose
catch sets them apart); points still sure to the pair holding the top live trumps bound the value.
Pure Python: no C version (`_dds.c` is Bilka's alone).
Over 400 lines because the position and the search share the ladder's tables and one rule of the
catch: kept together, a change to either is seen beside the other (the tests step both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gameplay.engine.cards import CHUNK_POINTS, DIAMONDS, VALUE, deck_mask
from gameplay.engine.kozyol_rules import QC, KozyolRules, Ladder, ladder_of

TOTAL = 120
_QC_BIT = 1 << QC


_P0, _P1, _P2 = CHUNK_POINTS


def _points(mask: int) -> int:
    return _P0[mask & 0xFFF] + _P1[mask >> 12 & 0xFFF] + _P2[mask >> 24]


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def next_seats(rules: KozyolRules) -> tuple[int, int, int, int]:
    return (1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2)


@dataclass(frozen=True, slots=True)
class KozyolPosition:
    """A Kozyol deal at some card: the hands left (N E S W), the trick on the table from `leader`,
    the plain aces still banned, the points taken (NS, EW), the pairs whose leader must lead a plain
    card while he has one (`restricted`, bit p; `dealer_leads_plain`), and `caught`, the seat whose
    шамок stopped the deal (then the position is over)."""

    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    unled_aces: int
    points: tuple[int, int]
    ladder: Ladder
    next_seat: tuple[int, int, int, int] = (1, 2, 3, 0)
    restricted: int = 0
    caught: int | None = None

    @classmethod
    def start(cls, rules: KozyolRules, hands: tuple[int, int, int, int], leader: int, *,
              dealer: int = 0, first_played: bool = False) -> KozyolPosition:
        """The deal before its first card (`dealer` and `first_played` matter only with
        `dealer_leads_plain`)."""
        ladder = ladder_of(rules)
        restricted = 0
        if rules.dealer_leads_plain:
            restricted = 3 if first_played else 1 << (dealer & 1)
        unled = ladder.plain_aces if rules.ace_discard_ban else 0
        return cls(hands, leader, (), unled, (0, 0), ladder, next_seats(rules), restricted)

    @property
    def to_move(self) -> int:
        seat = self.leader
        for _ in self.trick:
            seat = self.next_seat[seat]
        return seat

    @property
    def over(self) -> bool:
        return self.caught is not None or not any(self.hands)

    @property
    def objective(self) -> int:
        """N/S's value of a finished position: its points, or after a catch by N/S their points and
        every point still in the hands (in a whole deal, 120 less E/W's points)."""
        if self.caught is None or self.caught & 1:
            return self.points[0]
        return self.points[0] + _points(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])

    def legal_mask(self) -> int:
        """The cards the seat to move may play: the engine's rule (`kozyol.py`)."""
        if self.caught is not None:
            return 0
        seat = self.to_move
        hand = self.hands[seat]
        lad = self.ladder
        if not self.trick:
            if self.restricted >> (seat & 1) & 1:
                return hand & (lad.plain[0] | lad.plain[2] | lad.plain[3]) or hand
            return hand
        follow = lad.follow[lad.lead_key[self.trick[0]]]
        return hand & follow or hand & ~self.unled_aces or hand

    def play(self, card: int) -> KozyolPosition:
        """The position after the seat to move plays `card` (ValueError if it may not)."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"card {card} is not legal here")
        lad = self.ladder
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] ^= 1 << card
        hs = (hands[0], hands[1], hands[2], hands[3])
        trick = (*self.trick, card)
        unled = self.unled_aces
        lead = lad.lead_key[trick[0]]
        if len(trick) == 1 and lead != DIAMONDS:
            unled &= ~lad.plain[lead]
        if len(trick) < 4:
            return KozyolPosition(hs, self.leader, trick, unled, self.points, lad, self.next_seat,
                                  self.restricted)
        row = lad.strength4[lead]
        s, best = self.leader, -1
        seat_of = {}
        for c in trick:
            v = row[c] + s
            best = max(best, v)
            seat_of[c] = s
            s = self.next_seat[s]
        win = best & 3
        points = [self.points[0], self.points[1]]
        points[win & 1] += sum(VALUE[c] for c in trick)
        caught = None
        if lad.shamok is not None and lad.shamok in seat_of and QC in seat_of \
                and (seat_of[lad.shamok] ^ seat_of[QC]) & 1:
            caught = seat_of[lad.shamok]
        return KozyolPosition(hs, win, (), unled, (points[0], points[1]), lad, self.next_seat,
                              self.restricted, caught)


def _class_orders(ladder: Ladder) -> list[list[int]]:
    """Each class's cards strongest first: the trumps, then each plain suit (all 36 ids)."""
    every = deck_mask("36")
    row = ladder.strength[DIAMONDS]
    trumps = sorted((c for c in range(36) if ladder.trumps >> c & 1), key=lambda c: -row[c])
    out = [trumps]
    for suit in (0, 2, 3):
        cards = [c for c in range(36) if ladder.plain[suit] >> c & 1 and every >> c & 1]
        out.append(sorted(cards, key=lambda c: -ladder.strength[suit][c]))
    return out


_BY_VALUE = (11, 10, 4, 3, 2, 0)
_VALUE_MASKS = {v: sum(1 << c for c in range(36) if VALUE[c] == v) for v in _BY_VALUE}
_HIGH_FIRST = tuple(_VALUE_MASKS[v] for v in _BY_VALUE)
_LOW_FIRST = _HIGH_FIRST[::-1]


class KozyolSolver:
    """A double-dummy solver for the deals of one Kozyol ladder, play order and lead restriction;
    its table lives as long as it does (a fresh one per deal keeps memory bounded). `stop`, if
    given, is asked every 1024 positions; a search it stops raises `TimeoutError`."""

    def __init__(self, ladder: Ladder, next_seat: tuple[int, int, int, int] = (1, 2, 3, 0),
                 restricted: int = 0, *, stop: Callable[[], bool] | None = None) -> None:
        self.ladder = ladder
        self.next_seat = next_seat
        self.restricted = restricted
        self._plain_all = ladder.plain[0] | ladder.plain[2] | ladder.plain[3]
        self._classes = _class_orders(ladder)
        self._trump_order = self._classes[0]
        self._class_masks = [sum(1 << c for c in order) for order in self._classes]
        self._special = _QC_BIT | (1 << ladder.shamok if ladder.shamok is not None else 0)
        self._shamok = 1 << ladder.shamok if ladder.shamok is not None else 0
        self._hands = [0, 0, 0, 0]
        self._table: dict[tuple[int, int, int, int, int, int], list[int]] = {}
        self.nodes = 0
        self._stop = stop

    @classmethod
    def for_position(cls, pos: KozyolPosition, *, stop: Callable[[], bool] | None = None) -> KozyolSolver:
        return cls(pos.ladder, pos.next_seat, pos.restricted, stop=stop)

    # ------------------------------------------------------------------ public
    def value(self, pos: KozyolPosition) -> int:
        """N/S's value of the deal (the objective above), both pairs playing best from `pos`."""
        if pos.over:
            return pos.objective
        return pos.points[0] + self._exact(pos, -1)

    def card_values(self, pos: KozyolPosition) -> dict[int, int]:
        """For each legal card of the seat to move, N/S's value of the deal after it."""
        out: dict[int, int] = {}
        guess = -1
        for card in _cards(pos.legal_mask()):
            child = pos.play(card)
            out[card] = self.value(child)
            guess = out[card]
        del guess
        return out

    # ------------------------------------------------------------------ driver
    def _exact(self, pos: KozyolPosition, guess: int) -> int:
        """N/S's value from `pos` on, excluding the points already taken (exact), by MTD(f)."""
        self._hands = list(pos.hands)
        alive = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        for c in pos.trick:
            alive |= 1 << c
        lo, hi = 0, _points(alive)
        near = lo < guess <= hi
        g = guess if near else (lo + hi + 1) // 2
        while lo < hi:
            v = self._probe(pos, alive, g)
            if v >= g:
                lo = v
            else:
                hi = v
            if near:
                g = lo + 1 if v >= g else hi
                near = False
            else:
                g = (lo + hi + 1) // 2
        return lo

    def _probe(self, pos: KozyolPosition, alive: int, beta: int) -> int:
        if not pos.trick:
            return self._lead(pos.leader, pos.unled_aces, beta)
        lad = self.ladder
        lead = lad.lead_key[pos.trick[0]]
        row = lad.strength4[lead]
        seat, best, cs = pos.leader, -1, 0
        for card in pos.trick:
            v = row[card] + seat
            if v > best:
                best = v
            cs = self._mark(cs, card, seat)
            seat = self.next_seat[seat]
        pts = sum(VALUE[c] for c in pos.trick)
        return self._follow(seat, len(pos.trick), lead, best, pts, pos.unled_aces, alive, cs, beta)

    def _mark(self, cs: int, card: int, seat: int) -> int:
        """The catch's state of a trick: bit 0 the шамок is in it (bit 1 its pair), bit 2 the queen
        of clubs (bit 3 its pair)."""
        bit = 1 << card
        if bit & self._shamok:
            return cs | 1 | (seat & 1) << 1
        if bit & _QC_BIT:
            return cs | 4 | (seat & 1) << 3
        return cs

    # ------------------------------------------------------------------ search
    def _representatives(self, legal: int, alive: int) -> int:
        """`legal` less the cards equivalent to a stronger legal card of the same class: next to it
        among the live cards and of the same points (never the шамок or the queen of clubs)."""
        if not legal & (legal - 1):
            return legal
        special = self._special
        for order, mask in zip(self._classes, self._class_masks, strict=True):
            part = legal & mask
            if not part & (part - 1):
                continue
            above = -1
            for c in order:
                if alive >> c & 1:
                    if legal >> c & 1 and above >= 0 and legal >> above & 1 and VALUE[c] == VALUE[above] \
                            and not (special >> c & 1 or special >> above & 1):
                        legal &= ~(1 << c)
                        # `above` stays the stronger card of the run: c is now the same move as it
                        continue
                    above = c
        return legal

    def _lead(self, leader: int, unled: int, beta: int) -> int:
        h = self._hands
        alive = h[0] | h[1] | h[2] | h[3]
        total = _points(alive)
        if beta > total:
            return total
        if beta <= 0:
            return 0
        sure = 0
        run = -1
        ns = h[0] | h[2]
        for c in self._trump_order:
            if alive >> c & 1:
                pair = 0 if ns >> c & 1 else 1
                if run != pair:
                    if run >= 0:
                        break
                    run = pair
                sure += VALUE[c]
        if run == 0:
            if beta <= sure:
                return sure
        elif run == 1 and beta > total - sure:
            return total - sure
        key = (h[0], h[1], h[2], h[3], leader, unled)
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
        legal = hand
        if self.restricted >> (leader & 1) & 1:
            legal = hand & self._plain_all or hand
        moves = self._lead_order(self._representatives(legal, alive), alive)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        lad = self.ladder
        maximise = not leader & 1
        best_v = -1 if maximise else 999
        best_card = -1
        s1 = self.next_seat[leader]
        for c in moves:
            h[leader] = hand ^ (1 << c)
            lead = lad.lead_key[c]
            u = unled & ~lad.plain[lead] if unled and lead != DIAMONDS else unled
            v = self._follow(s1, 1, lead, lad.strength4[lead][c] + leader, VALUE[c], u, alive,
                             self._mark(0, c, leader), beta)
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

    def _lead_order(self, moves: int, alive: int) -> list[int]:
        """The top live card of each class first (dearest first), then the rest from the dearest;
        the queen of clubs last (the шамок may be waiting for it)."""
        tops = 0
        for order in self._classes:
            for c in order:
                if alive >> c & 1:
                    tops |= 1 << c
                    break
        out: list[int] = []
        qc = moves & _QC_BIT
        moves &= ~_QC_BIT
        for part in (moves & tops, moves & ~tops):
            for m in _HIGH_FIRST:
                if part & m:
                    out += _cards(part & m)
        if qc:
            out.append(QC)
        return out

    def _follow(self, seat: int, n: int, lead: int, best: int, pts: int, unled: int, alive: int, cs: int,
                beta: int) -> int:
        """Null-window search for the `n`-th card (from 0) of a trick led to `lead` (DIAMONDS for
        trumps), `cs` the catch's state (`_mark`)."""
        h = self._hands
        lad = self.ladder
        hand = h[seat]
        follow = lad.follow[lead]
        legal = hand & follow or hand & ~unled or hand
        reps = self._representatives(legal, alive)
        row = lad.strength4[lead]
        if reps & (reps - 1):
            moves = self._follow_order(reps, row, best, seat, n, cs)
        else:
            moves = [reps.bit_length() - 1]
        maximise = not seat & 1
        best_v = -1 if maximise else 999
        nxt = self.next_seat[seat]
        for c in moves:
            v = row[c] + seat
            nb = v if v > best else best
            tp = pts + VALUE[c]
            ncs = self._mark(cs, c, seat)
            h[seat] = hand ^ (1 << c)
            if n == 3:
                if ncs & 5 == 5 and (ncs >> 1 ^ ncs >> 3) & 1:
                    v = _points(alive) if not ncs & 2 else 0  # the catch: every card to the catchers
                else:
                    win = nb & 3
                    if win & 1:
                        v = self._lead(win, unled, beta)
                    else:
                        v = tp + self._lead(win, unled, beta - tp)
            else:
                v = self._follow(nxt, n + 1, lead, nb, tp, unled, alive, ncs, beta)
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

    def _follow_order(self, moves: int, row: tuple[int, ...], best: int, seat: int, n: int,
                      cs: int) -> list[int]:
        """A catch first; points on a trick the partner holds; else the cards that take it (the
        cheapest first, the dearest when last), then the cheapest losers; the queen of clubs last."""
        out: list[int] = []
        if self._shamok and moves & self._shamok and cs & 4 and (cs >> 3 ^ seat) & 1:
            out.append(self._shamok.bit_length() - 1)
            moves &= ~self._shamok
        qc = moves & _QC_BIT
        moves &= ~_QC_BIT
        if best & 1 == seat & 1:
            for m in _HIGH_FIRST:
                if moves & m:
                    out += _cards(moves & m)
        else:
            win = 0
            for c in _cards(moves):
                if row[c] + seat > best:
                    win |= 1 << c
            for m in (_HIGH_FIRST if n == 3 else _LOW_FIRST):
                if win & m:
                    out += _cards(win & m)
            lose = moves & ~win
            for m in _LOW_FIRST:
                if lose & m:
                    out += _cards(lose & m)
        if qc:
            out.append(QC)
        return out


__all__ = ["TOTAL", "KozyolPosition", "KozyolSolver", "next_seats"]
