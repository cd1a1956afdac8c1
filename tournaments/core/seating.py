"""Individual events, one round at a time: tables of four with new partners, and the round-by-round seater.

Players register alone; each round they sit at tables of four, two partnerships (seats N/S
against E/W). The seater, in priority order: (1) byes go to the players with the fewest byes so
far, lowest placed first (FIDE C.04.1 c adapted: nobody sits out twice before everyone has sat
out once); (2) no repeated partnership; (3) fewest repeated opponents; (4) players of equal score
together (C.04.1 d: score groups). Up to twelve seated players it tries every seating; above that
it starts from the placement order in fours and improves by moving players between two tables
until no move helps (plus a few seeded restarts for fields up to 64). Everything is
deterministic: the same input gives the same round. Swiss-style rounds (``seat_swiss_round``)
are this seater given the players' scores; the full movement is in ``core.movement``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Literal

from tournaments.core.ids import EntryId

PlayerId = EntryId
"""In an individual event each entry is one player."""

Pair = Literal["NS", "EW"]

EXACT_SEATING_LIMIT = 12
"""Up to this many seated players the seater tries every seating (5,775 splits into fours for twelve,
each four split the best of three ways); above it, local search."""

PARTNER_WEIGHT = 10**8
OPPONENT_WEIGHT = 10**4


@dataclass(frozen=True)
class Table:
    """One table: North and South partner each other against East and West."""

    north: PlayerId
    south: PlayerId
    east: PlayerId
    west: PlayerId

    @property
    def players(self) -> tuple[PlayerId, PlayerId, PlayerId, PlayerId]:
        return (self.north, self.south, self.east, self.west)

    @property
    def partnerships(self) -> tuple[tuple[PlayerId, PlayerId], tuple[PlayerId, PlayerId]]:
        return ((self.north, self.south), (self.east, self.west))

    def opponent_pairs(self) -> list[tuple[PlayerId, PlayerId]]:
        return [(a, b) for a in (self.north, self.south) for b in (self.east, self.west)]


@dataclass(frozen=True)
class IndividualRound:
    """A round: its tables in table order and the players sitting out (byes)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...]

    def players(self) -> list[PlayerId]:
        return [p for t in self.tables for p in t.players] + list(self.byes)


@dataclass(frozen=True)
class IndividualPlayer:
    """A player as the Swiss seater sees him: his score so far and his seed (1 = strongest)."""

    id: PlayerId
    score: int = 0
    seed: int = 0


@dataclass
class History:
    """Who partnered and opposed whom, and who sat out how often, over the rounds so far."""

    partners: Counter[frozenset[PlayerId]] = field(default_factory=Counter)
    opponents: Counter[frozenset[PlayerId]] = field(default_factory=Counter)
    byes: Counter[PlayerId] = field(default_factory=Counter)

    def add(self, played: IndividualRound) -> None:
        for table in played.tables:
            for a, b in table.partnerships:
                self.partners[frozenset((a, b))] += 1
            for a, b in table.opponent_pairs():
                self.opponents[frozenset((a, b))] += 1
        for p in played.byes:
            self.byes[p] += 1


def history_of(rounds: Sequence[IndividualRound]) -> History:
    history = History()
    for played in rounds:
        history.add(played)
    return history


@dataclass(frozen=True)
class RepeatCounts:
    """How far a schedule is from the ideal: repeats are meetings beyond the first, summed over pairs."""

    max_partner: int
    partner_repeats: int
    max_opponent: int
    opponent_repeats: int


def repeat_counts(rounds: Sequence[IndividualRound]) -> RepeatCounts:
    h = history_of(rounds)
    return RepeatCounts(
        max_partner=max(h.partners.values(), default=0),
        partner_repeats=sum(c - 1 for c in h.partners.values() if c > 1),
        max_opponent=max(h.opponents.values(), default=0),
        opponent_repeats=sum(c - 1 for c in h.opponents.values() if c > 1),
    )


def exact_movement(n: int) -> bool:
    """True when ``movement`` guarantees that every two of n players partner exactly once (full cycle)."""
    return n >= 4 and n % 4 in (0, 1)


def full_cycle(n: int) -> int:
    """Rounds in the full movement for n players: n-1 for even n, n for odd n (one bye each)."""
    return n - 1 if n % 2 == 0 else n


# --- seating one round ---------------------------------------------------------------------------


def check_players(ids: Sequence[PlayerId]) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(ids) < 4:
        raise ValueError("an individual round needs at least four players")


def table_cost(quad: Sequence[PlayerId], h: History, score: Mapping[PlayerId, int]) -> tuple[int, Table]:
    """The best of the three ways to split four players into two partnerships, and its cost."""
    a, b, c, d = quad
    spread = sum((score[x] - score[y]) ** 2 for x, y in combinations(quad, 2))

    def cost(table: Table) -> int:
        (n, s), (e, w) = table.partnerships
        return (
            PARTNER_WEIGHT * (h.partners[frozenset((n, s))] + h.partners[frozenset((e, w))])
            + OPPONENT_WEIGHT * sum(h.opponents[frozenset(p)] for p in table.opponent_pairs())
            + spread
        )

    splits = (Table(a, b, c, d), Table(a, c, b, d), Table(a, d, b, c))
    return min(((cost(t), t) for t in splits), key=lambda option: option[0])


def partitions(players: list[PlayerId]) -> Iterator[list[tuple[PlayerId, ...]]]:
    """Every partition of the players (a multiple of four) into groups of four, first player first."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, 3):
        remaining = [p for p in rest if p not in others]
        for tail in partitions(remaining):
            yield [(first, *others), *tail]


def _seat(order: list[PlayerId], h: History, score: Mapping[PlayerId, int]) -> list[Table]:
    """Seat players (in placement order, a multiple of four) at tables at least cost (see module doc)."""
    table = _memotable_cost(h, score)
    if len(order) <= EXACT_SEATING_LIMIT:
        seatings = ([table(q) for q in partition] for partition in partitions(order))
        cheapest = min(seatings, key=lambda costed: sum(c for c, _ in costed))
        return [t for _, t in cheapest]
    best = _local_search(order, table)
    if best[0] >= OPPONENT_WEIGHT and len(order) // 4 <= RESTART_TABLES:  # a repeat left: look further
        rng = random.Random(len(order))  # noqa: S311 — seeded: the same round always seats the same way
        for _ in range(RESTARTS):
            best = min(best, _local_search(rng.sample(order, len(order)), table), key=lambda r: r[0])
    return best[1]


RESTARTS = 3
"""Extra starts (seeded shuffles) for the local search, for fields of up to ``RESTART_TABLES`` tables:
swaps between two tables cannot always reach the best seating (it may need three tables at once)."""

RESTART_TABLES = 16


def _memotable_cost(
    h: History, score: Mapping[PlayerId, int]
) -> Callable[[Sequence[PlayerId]], tuple[int, Table]]:
    """``table_cost`` remembered per set of four: a search meets the same four again and again."""
    memo: dict[tuple[PlayerId, ...], tuple[int, Table]] = {}

    def table(quad: Sequence[PlayerId]) -> tuple[int, Table]:
        key = tuple(sorted(quad))
        if key not in memo:
            memo[key] = table_cost(key, h, score)
        return memo[key]

    return table


def _local_search(
    order: list[PlayerId], table: Callable[[Sequence[PlayerId]], tuple[int, Table]]
) -> tuple[int, list[Table]]:
    """From the players in fours in this order, improve by moves between two tables until none helps."""
    quads = [list(order[i : i + 4]) for i in range(0, len(order), 4)]
    costs = [table(q)[0] for q in quads]

    def improve(i: int, j: int, candidates: Iterator[tuple[list[PlayerId], list[PlayerId]]]) -> bool:
        for qi, qj in candidates:
            ci, cj = table(qi)[0], table(qj)[0]
            if ci + cj < costs[i] + costs[j]:
                quads[i], quads[j], costs[i], costs[j] = qi, qj, ci, cj
                return True
        return False

    def swaps(i: int, j: int) -> Iterator[tuple[list[PlayerId], list[PlayerId]]]:
        """Exchange one player of table i with one of table j."""
        for x in range(4):
            for y in range(4):
                qi, qj = list(quads[i]), list(quads[j])
                qi[x], qj[y] = qj[y], qi[x]
                yield qi, qj

    def regroupings(i: int, j: int) -> Iterator[tuple[list[PlayerId], list[PlayerId]]]:
        """Every other way to split the eight players of tables i and j into two fours."""
        eight = quads[i] + quads[j]
        for rest in combinations(eight[1:], 3):
            qi = [eight[0], *rest]
            yield qi, [p for p in eight if p not in qi]

    # Swaps of one player until none helps, then, while a repeat is left, one pass regrouping
    # pairs of tables (which also exchanges two players for two); repeat while it finds something.
    while True:
        improved = True
        while improved:
            improved = False
            for i, j in combinations(range(len(quads)), 2):
                while improve(i, j, swaps(i, j)):
                    improved = True
        if max(costs) < OPPONENT_WEIGHT:  # no repeat left: regrouping could only tidy score groups
            break
        if not any([improve(i, j, regroupings(i, j)) for i, j in combinations(range(len(quads)), 2)]):
            break
    return sum(costs), [table(q)[1] for q in quads]


SEARCH_SEATED = 8
"""The depth-first movement search, and the seater's trying of every fair bye choice, are for fields
with at most this many seated per round."""

BYE_OPTIONS = 20
"""How many fair choices of the players sitting out the seater compares, when there are that few."""


def _bye_options(order: list[PlayerId], h: History) -> list[list[PlayerId]]:
    """Fair choices of the n mod 4 players who sit out, the default (lowest placed) first.

    Fair: only players with the fewest byes so far sit out, then those with one more, and so on
    (nobody sits out twice before everyone has sat out once). Among the fair choices the default
    is the lowest placed (FIDE C.04.1 c's spirit). When the default leaves a repeated partner or
    opponent, at most eight play (``SEARCH_SEATED``: where one bye decides most) and there are
    at most ``BYE_OPTIONS`` fair choices, the seater tries them all and
    keeps the one that seats best (fewest repeated partners, then opponents), the lowest placed
    on a tie.
    """
    count = len(order) % 4
    if not count:
        return [[]]
    ranked = sorted(range(len(order)), key=lambda i: (h.byes[order[i]], -i))
    chosen = [order[i] for i in ranked[:count]]
    boundary = h.byes[chosen[-1]]
    sure = [p for p in chosen if h.byes[p] < boundary]
    pool = [order[i] for i in ranked if h.byes[order[i]] == boundary]
    options = [chosen]
    need = count - len(sure)
    if comb(len(pool), need) <= BYE_OPTIONS:
        options += [sure + list(c) for c in combinations(pool, need) if sure + list(c) != chosen]
    return options


def seat_swiss_round(
    players: Sequence[IndividualPlayer], previous: Sequence[IndividualRound], *, number: int | None = None
) -> IndividualRound:
    """Seat one Swiss-style round of an individual event.

    Players are placed by score (descending), then seed (FIDE C.04.1 and C.04.3 A.2, as in
    ``swiss.placement_order``). Byes, then tables, follow the seater's priorities in the module
    docstring: fair byes, no repeated partner, fewest repeated opponents, equal scores together.
    Withdrawn players are left out by the caller; ``previous`` may name them.
    """
    check_players([p.id for p in players])
    placed = sorted(players, key=lambda p: (-p.score, p.seed, p.id))
    order = [p.id for p in placed]
    score = {p.id: p.score for p in players}
    h = history_of(previous)

    def option(byes: list[PlayerId]) -> tuple[int, tuple[int, ...], list[PlayerId], list[Table]]:
        tables = _seat([p for p in order if p not in byes], h, score)
        cost = sum(table_cost(t.players, h, score)[0] for t in tables)
        lowest_placed_first = tuple(sorted(-order.index(b) for b in byes))
        return (cost, lowest_placed_first, byes, tables)

    options = _bye_options(order, h)
    best = option(options[0])
    if best[0] >= OPPONENT_WEIGHT and len(order) - len(options[0]) <= SEARCH_SEATED:
        # the default byes leave a repeat in a small field: another fair choice may not
        best = min([best, *(option(b) for b in options[1:])], key=lambda o: o[:2])
    _, _, byes, tables = best
    return IndividualRound(
        number=number if number is not None else len(previous) + 1,
        tables=tuple(tables),
        byes=tuple(byes),
    )
