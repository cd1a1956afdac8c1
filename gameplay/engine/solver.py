"""The double-dummy solver: with every hand known, the card points each pair ends the deal with
when both play best (N/S maximise theirs, E/W minimise them), and the same for each legal card.

Legality and trick winners come from the same ladders as `state.py` (`ladder.py`): a card
follows a lead by the `FOLLOW` mask, the ace ban is the mask of plain aces whose suit has not
been led, and a trick's best card is the highest `STRENGTH4` value plus its seat. The search is
a null-window alpha-beta (fail-soft) driven MTD(f)-style to the exact value, over a
transposition table keyed by the four hands, the leader and the aces still banned, which holds
bounds on the points still to come (the points already taken are never in the key). Cards
that are equivalent (a run of jacks, or of 6-9 of one suit, with no other live card between
them, in one hand) are tried once. The solver keeps its table across calls, so a second
question about the same deal reuses the first one's work.

The same search is written in C (`_dds.c`, built beside this file by `build-native`): a
`Solver` uses it whenever it is built and not older than its source, and this Python search
otherwise (no C compiler, a failed build) or when asked (`native=False`); the tests hold the two
to the same answers. `BUILD` says which one runs.
Over 400 lines because the search is one class whose hot methods read the move-grouping and
ordering tables beside it directly (the mypyc build compiles them together); `deal_position.py`
holds the position it searches from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.engine.cards import CHUNK_POINTS, JACKS, PLAIN_SUIT_MASK, VALUE
from gameplay.engine.deal_position import Position
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, STRENGTH4
from gameplay.engine.native import load_c

_P0, _P1, _P2 = CHUNK_POINTS
#: The cards worth no points (6 7 8 9 of each suit), the only runs beside the jacks' whose
#: cards are interchangeable: every other rank of a suit has its own value.
_ZERO = sum(0xF << (9 * s) for s in range(4))
_JACK_BITS = (5, 32, 23, 14)  # JC JS JH JD, strongest first
_PLAIN_HIGH_FIRST = (8, 4, 7, 6, 3, 2, 1, 0)  # ranks A 10 K Q 9 8 7 6
#: Cards by their value, highest first: aces, tens, kings, queens, jacks, the rest.
_BY_VALUE = tuple(sum(1 << (9 * s + r) for s in range(4)) for r in (8, 4, 7, 6, 5)) + (_ZERO,)


def _points(mask: int) -> int:
    return _P0[mask & 0xFFF] + _P1[mask >> 12 & 0xFFF] + _P2[mask >> 24]


def _run_redundant(order: tuple[int, ...], alive: int, hand: int) -> int:
    """The cards of `hand` among `order` (strongest first) whose nearest stronger live card
    of the run is in the same hand: playing either is the same move."""
    redundant = 0
    above = -1
    for bit in order:
        if alive >> bit & 1:
            if hand >> bit & 1 and above >= 0 and hand >> above & 1:
                redundant |= 1 << bit
            above = bit
    return redundant


#: _ZERO_RED[alive << 4 | hand] for the four zero cards of a suit (bits 0..3 = 6 7 8 9).
_ZERO_RED = tuple(_run_redundant((3, 2, 1, 0), i >> 4 | (i & 15), i & 15) for i in range(256))


def _jack_pattern(mask: int) -> int:
    return (mask >> 5 & 1) | (mask >> 31 & 2) | (mask >> 21 & 4) | (mask >> 11 & 8)


def _jack_mask(pattern: int) -> int:
    return sum(1 << _JACK_BITS[i] for i in range(4) if pattern >> i & 1)


_JACK_RED = tuple(
    _run_redundant(_JACK_BITS, _jack_mask(i >> 4 | (i & 15)), _jack_mask(i & 15)) for i in range(256)
)


def _to_top(order: tuple[int, ...], alive: int, hand: int) -> int:
    """`hand`'s cards of a run (bits in `order`, strongest first) moved to the run's top slots,
    keeping the live cards' order: the k-th live card takes the k-th slot."""
    out = 0
    k = 0
    for bit in order:
        if alive >> bit & 1:
            if hand >> bit & 1:
                out |= 1 << order[k]
            k += 1
    return out


def _loose(order: tuple[int, ...], alive: int) -> bool:
    """Are the live cards of a run not already its top slots?"""
    return _to_top(order, alive, alive) != alive


#: _ZERO_TOP[alive << 4 | hand] for a suit's 6-9 (bits 0..3), as 4 bits; _JACK_TOP as a card mask.
_ZERO_TOP = tuple(_to_top((3, 2, 1, 0), i >> 4, i & 15) for i in range(256))
_LOOSE = tuple(_loose((3, 2, 1, 0), a) for a in range(16))
_JACK_TOP = tuple(_to_top(_JACK_BITS, _jack_mask(i >> 4), _jack_mask(i & 15)) for i in range(256))
_LOOSE_JACKS = tuple(_loose(_JACK_BITS, _jack_mask(a)) for a in range(16))


def representatives(legal: int, alive: int) -> int:
    """`legal` less the cards equivalent to a stronger legal card (same hand, same value, no live
    card between them in the order that decides tricks). `alive` is every card not in a
    completed trick: the hands and the cards on the table."""
    z = legal & _ZERO
    if z & (z - 1):
        for shift in (0, 9, 18, 27):
            zs = z >> shift & 15
            if zs & (zs - 1):
                legal &= ~(_ZERO_RED[(alive >> shift & 15) << 4 | zs] << shift)
    j = legal & JACKS
    if j & (j - 1):
        legal &= ~_JACK_RED[_jack_pattern(alive) << 4 | _jack_pattern(j)]
    return legal


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _beats(row: tuple[int, ...]) -> tuple[int, ...]:
    """For each strength s (a STRENGTH4 value >> 2), the cards that are stronger."""
    return tuple(sum(1 << c for c in range(len(row)) if row[c] >> 2 > s) for s in range(48))


#: BEATS[idx][s]: the cards that beat the best card so far, of strength s, in a trick led to ladder idx.
BEATS = tuple(_beats(row) for row in STRENGTH4)
_LOW_FIRST = _BY_VALUE[::-1]


def _ordered(moves: int, beats: int, partner_wins: bool, last: bool) -> list[int]:
    """Follower's cards in the order most likely to be best: points on a trick the partner holds,
    else the cards that take it (the dearest first when nobody comes after), then the cheapest."""
    out: list[int] = []
    if partner_wins:
        for m in _BY_VALUE:
            if moves & m:
                out += _cards(moves & m)
        return out
    win = moves & beats
    if win:
        order = _BY_VALUE if last else _LOW_FIRST
        for m in order:
            if win & m:
                out += _cards(win & m)
    lose = moves & ~beats
    for m in _LOW_FIRST:
        if lose & m:
            out += _cards(lose & m)
    return out


def _lead_order(moves: int, tops: int) -> list[int]:
    """Leads in the order most likely to be best: the top cards of their class, dearest first,
    then the rest from the cheapest."""
    out: list[int] = []
    top = moves & tops
    for m in _BY_VALUE:
        if top & m:
            out += _cards(top & m)
    rest = moves & ~tops
    for m in _BY_VALUE:
        if rest & m:
            out += _cards(rest & m)
    return out


_C = load_c()
#: Which search a `Solver` runs by default: "C", "mypyc" (this module compiled) or "pure Python".
BUILD = "C" if _C is not None else "pure Python" if (__file__ or "").endswith(".py") else "mypyc"


class Solver:
    """A double-dummy solver for the deals of one trump and play order; its transposition table
    lives as long as it does (a fresh one per deal keeps memory bounded).

    Any position of a deal may be asked about, mid-trick and with points taken (`Position.play`
    from the start, or a position built for a sampled deal): `card_values` then costs one
    search per legal card, each reusing the table the earlier ones filled. `native=False` runs
    the Python search even where the C one is built."""

    def __init__(self, trump: int, next_seat: tuple[int, int, int, int] = (1, 2, 3, 0), *,
                 native: bool = True, stop: Callable[[], bool] | None = None) -> None:
        self.trump = trump
        self.next_seat = next_seat
        self._trump4 = trump * 4
        self._lead_keys = LEAD_KEY[trump]
        self._hands = [0, 0, 0, 0]
        #: The trumps strongest first: the jacks, then A 10 K Q 9 8 7 6 of the trump suit.
        self._trump_order = [9 * s + 5 for s in (0, 3, 2, 1)] + [9 * trump + r for r in _PLAIN_HIGH_FIRST]
        #: Each class's cards strongest first (the trumps, then the plain suits), for `_tops`.
        self._classes = [self._trump_order] + [
            [9 * s + r for r in _PLAIN_HIGH_FIRST] for s in range(4) if s != trump]
        #: key -> [lower bound, upper bound, best lead] of the points N/S take from here on.
        self._table: dict[tuple[int, int, int, int, int, int], list[int]] = {}
        self.nodes = 0
        self._c: Any = _C.Search(trump, next_seat) if native and _C is not None else None
        #: None, or asked every 1024 positions whether to give up: a search it stops raises
        #: `TimeoutError` (a caller with a deadline, such as the strong bot, drops that solve).
        self._stop = stop
        if self._c is not None:
            self._c.stop = stop

    # ------------------------------------------------------------------ public
    def value(self, pos: Position) -> int:
        """The points N/S end the deal with, both sides playing best from `pos`."""
        return pos.points[0] + self._exact(pos, -1)

    def card_values(self, pos: Position) -> dict[int, int]:
        """For each legal card of the seat to move, the points N/S end the deal with after it."""
        out: dict[int, int] = {}
        guess = -1
        for card in _cards(pos.legal_mask()):
            child = pos.play(card)
            rest = self._exact(child, guess)
            guess = rest + child.points[0] - pos.points[0]
            out[card] = child.points[0] + rest
        return out

    # ------------------------------------------------------------------ driver
    def _exact(self, pos: Position, guess: int) -> int:
        """The points N/S take from `pos` on (exact), by null-window probes (MTD(f))."""
        if self._c is not None:
            rest: int = self._c.exact(pos.hands, pos.leader, pos.trick, pos.unled_aces, guess)
            self.nodes = self._c.nodes
            return rest
        if pos.over:
            return 0
        self._hands = list(pos.hands)
        trick_points = sum(VALUE[c] for c in pos.trick)
        lo, hi = 0, _points(pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]) + trick_points
        near = lo < guess <= hi
        g = guess if near else (lo + hi + 1) // 2
        while lo < hi:
            v = self._probe(pos, g)
            if v >= g:
                lo = v
            else:
                hi = v
            if near:
                # A guess is usually right or close: test the value just beside it first.
                g = lo + 1 if v >= g else hi
                near = False
            else:
                g = (lo + hi + 1) // 2
        return lo

    def _probe(self, pos: Position, beta: int) -> int:
        if not pos.trick:
            return self._lead(pos.leader, pos.unled_aces, beta)
        trick = pos.trick
        trump4 = self._trump4
        idx = trump4 + self._lead_keys[trick[0]]
        row = STRENGTH4[idx]
        seat, best = pos.leader, -1
        for card in trick:
            v = row[card] + seat
            if v > best:
                best = v
            seat = self.next_seat[seat]
        alive = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        for card in trick:
            alive |= 1 << card
        return self._follow(seat, len(trick), idx, best, sum(VALUE[c] for c in trick), pos.unled_aces,
                            alive, beta)

    # ------------------------------------------------------------------ search
    def _lead(self, leader: int, unled: int, beta: int) -> int:
        """Null-window search at a trick's start: a bound on the points N/S take from here on,
        `>= beta` if they can take `beta`, else `< beta` (fail-soft)."""
        h = self._hands
        h0, h1, h2, h3 = h
        alive = h0 | h1 | h2 | h3
        total = _P0[alive & 0xFFF] + _P1[alive >> 12 & 0xFFF] + _P2[alive >> 24]
        if beta > total:
            return total
        if beta <= 0:
            return 0
        # The highest live trumps, down to the first of the other pair's, fall to their pair
        # whatever happens: their points bound the value from one side.
        sure = 0
        run = -1
        ns = h0 | h2
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
        elif beta > total - sure:
            return total - sure
        nxt = self.next_seat
        hand = h[leader]
        if not hand & (hand - 1):
            # The last trick: every card is forced.
            s1 = nxt[leader]
            s2 = nxt[s1]
            s3 = nxt[s2]
            c0 = hand.bit_length() - 1
            row = STRENGTH4[self._trump4 + self._lead_keys[c0]]
            best = row[c0] + leader
            v = row[h[s1].bit_length() - 1] + s1
            if v > best:
                best = v
            v = row[h[s2].bit_length() - 1] + s2
            if v > best:
                best = v
            v = row[h[s3].bit_length() - 1] + s3
            if v > best:
                best = v
            return 0 if best & 1 else total
        # Runs of equal cards (6-9 of a suit, the jacks) with some played are moved up to the top
        # of their run: the same position as far as tricks and points go, one entry in the table.
        for shift in (0, 9, 18, 27):
            a = alive >> shift & 15
            if _LOOSE[a]:
                m = ~(15 << shift)
                a <<= 4
                h0 = h0 & m | _ZERO_TOP[a | h0 >> shift & 15] << shift
                h1 = h1 & m | _ZERO_TOP[a | h1 >> shift & 15] << shift
                h2 = h2 & m | _ZERO_TOP[a | h2 >> shift & 15] << shift
                h3 = h3 & m | _ZERO_TOP[a | h3 >> shift & 15] << shift
        a = _jack_pattern(alive)
        if _LOOSE_JACKS[a]:
            a <<= 4
            h0 = h0 & ~JACKS | _JACK_TOP[a | _jack_pattern(h0)]
            h1 = h1 & ~JACKS | _JACK_TOP[a | _jack_pattern(h1)]
            h2 = h2 & ~JACKS | _JACK_TOP[a | _jack_pattern(h2)]
            h3 = h3 & ~JACKS | _JACK_TOP[a | _jack_pattern(h3)]
        key = (h0, h1, h2, h3, leader, unled)
        table = self._table
        entry = table.get(key)
        if entry is not None:
            if entry[0] >= beta:
                return entry[0]
            if entry[1] < beta:
                return entry[1]
            first = entry[2]
        else:
            entry = [0, total, -1]
            table[key] = entry
            first = -1
        self.nodes += 1
        if self._stop is not None and not self.nodes & 1023 and self._stop():
            raise TimeoutError("the search was stopped")
        moves = _lead_order(representatives(hand, alive), self._tops(alive))
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maximise = not leader & 1
        best_v = -1 if maximise else 999
        best_card = -1
        trump4 = self._trump4
        lead_keys = self._lead_keys
        s1 = nxt[leader]
        for c in moves:
            h[leader] = hand ^ (1 << c)
            idx = trump4 + lead_keys[c]
            u = unled & ~PLAIN_SUIT_MASK[idx & 3] if unled and idx & 3 != trump4 >> 2 else unled
            v = self._follow(s1, 1, idx, STRENGTH4[idx][c] + leader, VALUE[c], u, alive, beta)
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
            if best_v > entry[0]:
                entry[0] = best_v
        elif best_v < entry[1]:
            entry[1] = best_v
        entry[2] = best_card
        return best_v

    def _tops(self, alive: int) -> int:
        """The strongest live card of each class (trumps, each plain suit)."""
        tops = 0
        for order in self._classes:
            for c in order:
                if alive >> c & 1:
                    tops |= 1 << c
                    break
        return tops

    def _follow(self, seat: int, n: int, idx: int, best: int, pts: int, unled: int, alive: int,
                beta: int) -> int:
        """Null-window search for the `n`-th card (from 0) of a trick led to the ladder `idx`."""
        h = self._hands
        hand = h[seat]
        legal = hand & FOLLOW[idx] or hand & ~unled or hand
        reps = representatives(legal, alive)
        row = STRENGTH4[idx]
        if reps & (reps - 1):
            beats = BEATS[idx][best >> 2]
            partner = best & 1 == seat & 1
            if partner and n == 2:
                # The partner holds the trick: points on it if the last hand cannot take it.
                last = h[self.next_seat[seat]]
                last = last & FOLLOW[idx] or last & ~unled or last
                partner = not last & beats
            moves = _ordered(reps, beats, partner, n == 3)
        else:
            moves = [reps.bit_length() - 1]
        maximise = not seat & 1
        best_v = -1 if maximise else 999
        if n == 3:
            for c in moves:
                v = row[c] + seat
                win = (v if v > best else best) & 3
                tp = pts + VALUE[c]
                h[seat] = hand ^ (1 << c)
                if win & 1:
                    v = self._lead(win, unled, beta)
                else:
                    v = tp + self._lead(win, unled, beta - tp)
                if maximise:
                    if v > best_v:
                        best_v = v
                        if v >= beta:
                            break
                elif v < best_v:
                    best_v = v
                    if v < beta:
                        break
        else:
            nxt = self.next_seat[seat]
            for c in moves:
                v = row[c] + seat
                h[seat] = hand ^ (1 << c)
                v = self._follow(nxt, n + 1, idx, v if v > best else best, pts + VALUE[c], unled, alive,
                                 beta)
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
