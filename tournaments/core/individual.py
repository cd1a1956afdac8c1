"""Individual events: players seated alone at tables of four, new partners every round, and their standings.

Issue 6: players register alone; each round they sit at tables of four, two partnerships (seats
N/S against E/W). Over the rounds nobody partners the same person twice while that can be
avoided, and opponents repeat as little as possible. Two formats:

- **A full movement** (``movement``), the bridge-individual idea: a round robin of
  partnerships. For n ≡ 0 or 1 (mod 4) players we build it exactly (``exact_movement``): the
  partnerships of each round are one round of the Berger table over the players (FIDE C.05
  Annex 1; for odd n the player meeting the dummy sits out), so over the full cycle (n-1
  rounds for even n, n for odd) every two players partner exactly once and, for n ≡ 1,
  everyone sits out exactly once. The partnerships of a round are then paired into tables by
  a deterministic local search (with seeded restarts) that spreads opponents as evenly as it
  can: sum of squared opponent counts, the whist-tournament ideal being "every two players
  oppose exactly twice". That ideal itself, a whist tournament, we build for n = 4, 5, 8, 12,
  13, 16, 17, 20, 21, 24 (``whist_movement``); for 9 and from 25 on the Berger-based movement
  has partners exactly once but some two players oppose 3 or 4 times. For other n (2 or 3 players left over each round) nobody can partner everyone,
  so the movement falls back to the round-by-round seater below with equal scores, and for
  tiny fields to a depth-first search when the seater walks into a repeated partner (seven
  players over seven rounds). Full cycles from 4 to 32 players have no repeated partner
  except 30 (one).
- **Swiss-style rounds** (``seat_swiss_round``): the same seater, given the players' scores.

The seater, in priority order: (1) byes go to the players with the fewest byes so far, lowest
placed first (FIDE C.04.1 c adapted: nobody sits out twice before everyone has sat out once);
(2) no repeated partnership; (3) fewest repeated opponents; (4) players of equal score together
(C.04.1 d: score groups). Up to twelve seated players it tries every seating; above that it
starts from the placement order in fours and improves by moving players between two tables
until no move helps (plus a few seeded restarts for fields up to 64). Everything is
deterministic: the same input gives the same round.

Scoring (issue 6): each player scores what his pair scored; Buchholz counts both opponents; a
no-show's partner is scored a win and the absentee a forfeit (see ``individual_standings``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Literal

from tournaments.core.ids import EntryId
from tournaments.core.roundrobin import round_robin
from tournaments.core.standings import MatchPoints

PlayerId = EntryId
"""In an individual event each entry is one player."""

Pair = Literal["NS", "EW"]

EXACT_SEATING_LIMIT = 12
"""Up to this many seated players the seater tries every seating (5,775 splits into fours for twelve,
each four split the best of three ways); above it, local search."""

_PARTNER_WEIGHT = 10**8
_OPPONENT_WEIGHT = 10**4


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


def _check_players(ids: Sequence[PlayerId]) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(ids) < 4:
        raise ValueError("an individual round needs at least four players")


def _table_cost(quad: Sequence[PlayerId], h: History, score: Mapping[PlayerId, int]) -> tuple[int, Table]:
    """The best of the three ways to split four players into two partnerships, and its cost."""
    a, b, c, d = quad
    spread = sum((score[x] - score[y]) ** 2 for x, y in combinations(quad, 2))

    def cost(table: Table) -> int:
        (n, s), (e, w) = table.partnerships
        return (
            _PARTNER_WEIGHT * (h.partners[frozenset((n, s))] + h.partners[frozenset((e, w))])
            + _OPPONENT_WEIGHT * sum(h.opponents[frozenset(p)] for p in table.opponent_pairs())
            + spread
        )

    splits = (Table(a, b, c, d), Table(a, c, b, d), Table(a, d, b, c))
    return min(((cost(t), t) for t in splits), key=lambda option: option[0])


def _partitions(players: list[PlayerId]) -> Iterator[list[tuple[PlayerId, ...]]]:
    """Every partition of the players (a multiple of four) into groups of four, first player first."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, 3):
        remaining = [p for p in rest if p not in others]
        for tail in _partitions(remaining):
            yield [(first, *others), *tail]


def _seat(order: list[PlayerId], h: History, score: Mapping[PlayerId, int]) -> list[Table]:
    """Seat players (in placement order, a multiple of four) at tables at least cost (see module doc)."""
    table = _memo_table_cost(h, score)
    if len(order) <= EXACT_SEATING_LIMIT:
        seatings = ([table(q) for q in partition] for partition in _partitions(order))
        cheapest = min(seatings, key=lambda costed: sum(c for c, _ in costed))
        return [t for _, t in cheapest]
    best = _local_search(order, table)
    if best[0] >= _OPPONENT_WEIGHT and len(order) // 4 <= RESTART_TABLES:  # a repeat left: look further
        rng = random.Random(len(order))  # noqa: S311 — seeded: the same round always seats the same way
        for _ in range(RESTARTS):
            best = min(best, _local_search(rng.sample(order, len(order)), table), key=lambda r: r[0])
    return best[1]


RESTARTS = 3
"""Extra starts (seeded shuffles) for the local search, for fields of up to ``RESTART_TABLES`` tables:
swaps between two tables cannot always reach the best seating (it may need three tables at once)."""

RESTART_TABLES = 16


def _memo_table_cost(
    h: History, score: Mapping[PlayerId, int]
) -> Callable[[Sequence[PlayerId]], tuple[int, Table]]:
    """``_table_cost`` remembered per set of four: a search meets the same four again and again."""
    memo: dict[tuple[PlayerId, ...], tuple[int, Table]] = {}

    def table(quad: Sequence[PlayerId]) -> tuple[int, Table]:
        key = tuple(sorted(quad))
        if key not in memo:
            memo[key] = _table_cost(key, h, score)
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
        if max(costs) < _OPPONENT_WEIGHT:  # no repeat left: regrouping could only tidy score groups
            break
        if not any([improve(i, j, regroupings(i, j)) for i, j in combinations(range(len(quads)), 2)]):
            break
    return sum(costs), [table(q)[1] for q in quads]


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
    _check_players([p.id for p in players])
    placed = sorted(players, key=lambda p: (-p.score, p.seed, p.id))
    order = [p.id for p in placed]
    score = {p.id: p.score for p in players}
    h = history_of(previous)

    def option(byes: list[PlayerId]) -> tuple[int, tuple[int, ...], list[PlayerId], list[Table]]:
        tables = _seat([p for p in order if p not in byes], h, score)
        cost = sum(_table_cost(t.players, h, score)[0] for t in tables)
        lowest_placed_first = tuple(sorted(-order.index(b) for b in byes))
        return (cost, lowest_placed_first, byes, tables)

    options = _bye_options(order, h)
    best = option(options[0])
    if best[0] >= _OPPONENT_WEIGHT and len(order) - len(options[0]) <= SEARCH_SEATED:
        # the default byes leave a repeat in a small field: another fair choice may not
        best = min([best, *(option(b) for b in options[1:])], key=lambda o: o[:2])
    _, _, byes, tables = best
    return IndividualRound(
        number=number if number is not None else len(previous) + 1,
        tables=tuple(tables),
        byes=tuple(byes),
    )


# --- whist movements ----------------------------------------------------------------------------

WHIST_BASES: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    21: ((1, 2, 3, 6), (4, 13, 12, 19), (5, 9, 14, 16), (7, 20, 11, 17), (8, 18, 10, 15)),
    24: ((23, 0, 1, 2), (3, 5, 7, 17), (4, 12, 18, 22), (6, 20, 10, 13), (8, 19, 11, 16), (9, 15, 14, 21)),
}
"""Base rounds that ``_cyclic_whist_base`` needs more than its budget to find (3 s and 10 s): found
once by that search and checked by the tests like the others."""

WHIST_SEARCH_UP_TO = 20
"""Above this many players we do not search (it would fail within the budget and cost a second)."""

WHIST_SEARCH_BUDGET = 100_000
"""Steps for the base-round search; enough for 4, 5, 8, 12, 13, 16, 17 and 20 players (at most 55,000)."""


def whist_movement(players: Sequence[PlayerId]) -> list[IndividualRound] | None:
    """A whist tournament for the players where we have one: every two partner once and oppose twice.

    Rule: the whist tournament Wh(n) (Moore 1896; Anderson, "Combinatorial Designs and
    Tournaments", ch. 9): n ≡ 0 or 1 (mod 4), n-1 or n rounds, every two players partner
    exactly once and are opponents exactly twice, so the movement is as fair as one can be.
    We build the cyclic kind. For n ≡ 1: players are Z_n; a base round seats 1..n-1 with 0
    sitting out, round i adds i to every number (so player i sits out in round i). For n ≡ 0:
    players are Z_(n-1) and one fixed player (number n-1) who keeps his seat. The base round is
    found by a depth-first search on differences (each non-zero difference once between
    partners, twice between opponents), or taken from ``WHIST_BASES``. We have one for n = 4,
    5, 8, 12, 13, 16, 17, 20, 21, 24; for 9 no cyclic one exists over Z_9 (the search proves it)
    and above 24 the search needs too long, so ``movement`` uses the Berger-based movement there.
    Player k of ``players`` gets number k-1 (seeding order).
    """
    ids = list(players)
    n = len(ids)
    base = WHIST_BASES.get(n) or (
        _cyclic_whist_base(n, WHIST_SEARCH_BUDGET) if n <= WHIST_SEARCH_UP_TO else None
    )
    if base is None:
        return None
    m = n if n % 2 else n - 1

    def shift(x: int, i: int) -> PlayerId:
        return ids[x] if x == m else ids[(x + i) % m]

    return [
        IndividualRound(
            number=i + 1,
            tables=tuple(Table(*(shift(x, i) for x in table)) for table in base),
            byes=(ids[i % m],) if n % 2 else (),
        )
        for i in range(m)
    ]


def _cyclic_whist_base(n: int, budget: int) -> tuple[tuple[int, int, int, int], ...] | None:
    """The base round of a cyclic Wh(n) (see ``whist_movement``), by depth-first search, or None.

    Symmetry is broken without losing solutions: each table's North is the smallest number not
    yet seated (any table can be turned so), and West is above East.
    """
    if n < 4 or n % 4 not in (0, 1):
        return None
    m = n if n % 2 else n - 1
    fixed = None if n % 2 else m
    points = list(range(1, n)) if n % 2 else list(range(n))
    seat: list[int] = []
    used: set[int] = set()
    partner = [0] * m
    opposed = [0] * m
    steps = [0]

    def differences(a: int, b: int) -> list[int]:
        return [] if fixed in (a, b) else [(a - b) % m, (b - a) % m]

    def search(position: int) -> bool:
        steps[0] += 1
        if steps[0] > budget:
            return False
        if position == len(points):
            return True
        t, k = divmod(position, 4)
        if k == 0:
            first = fixed if t == 0 and fixed is not None else min(p for p in points if p not in used)
            candidates = [first]
        else:
            candidates = [p for p in points if p not in used]
        for v in candidates:
            partner_of = seat[4 * t] if k == 1 else seat[4 * t + 2] if k == 3 else None
            new_partner = differences(partner_of, v) if partner_of is not None else []
            if any(partner[x] for x in new_partner) or (k == 3 and v < seat[4 * t + 2]):
                continue
            new_opposed = [x for o in (seat[4 * t : 4 * t + 2] if k >= 2 else []) for x in differences(o, v)]
            if any(opposed[x] + new_opposed.count(x) > 2 for x in new_opposed):
                continue
            seat.append(v)
            used.add(v)
            for x in new_partner:
                partner[x] += 1
            for x in new_opposed:
                opposed[x] += 1
            if search(position + 1):
                return True
            for x in new_partner:
                partner[x] -= 1
            for x in new_opposed:
                opposed[x] -= 1
            used.discard(v)
            seat.pop()
        return False

    if not search(0):
        return None
    return tuple((seat[i], seat[i + 1], seat[i + 2], seat[i + 3]) for i in range(0, len(seat), 4))


# --- the full movement ---------------------------------------------------------------------------


def movement(players: Sequence[PlayerId], rounds: int | None = None) -> list[IndividualRound]:
    """The rounds of an individual movement for ``players`` (in seeding order).

    ``rounds`` defaults to the full cycle (``full_cycle``). Where we have a whist tournament
    (``whist_movement``) it is the movement: partners exactly once, opponents exactly twice.
    Otherwise, for n ≡ 0 or 1 (mod 4) the partnerships come from the Berger table (see module doc): no partner repeats within the
    full cycle; rounds beyond it are seated by the Swiss seater with equal scores. For other n,
    every round comes from that seater: it still avoids a repeated partner whenever it finds a
    way, and gives the byes in turn. For a movement shorter than the full cycle both are built
    and the better kept (fewer repeated partners, then opponents): the first rounds of the
    Berger table repeat opponents more than the seater does when only a few rounds are played.

    Measured against brute force (tests/tournaments/core/test_core_individual.py): for 4-11
    players over 2-3 rounds and 4-8 players over 4 rounds (9 over 4 checked once, 85 s), both
    the most times two players partner and the number of repeated opponents are the least
    possible.
    """
    ids = list(players)
    _check_players(ids)
    total = full_cycle(len(ids)) if rounds is None else rounds
    if total < 1:
        raise ValueError("a movement has at least one round")
    rng = random.Random(len(ids) * 1000 + total)  # noqa: S311 — seeded: the same field always gets the same movement
    equal = [IndividualPlayer(id=p, score=0, seed=i) for i, p in enumerate(ids, start=1)]
    candidates: list[list[IndividualRound]] = []
    whist = whist_movement(ids)
    if whist is not None:
        candidates.append(whist[:total] + _continue(whist[:total], equal, total))
    elif exact_movement(len(ids)):
        for attempt in range(_attempts(len(ids), total)):
            candidates.append(_movement_for(ids, total, rng if attempt else None))
    if not exact_movement(len(ids)) or total < full_cycle(len(ids)):
        order = list(equal)
        for attempt in range(_attempts(len(ids), total, SEATER_WORK)):
            if attempt:  # the seater breaks ties by seed: another seed order may avoid a dead end
                rng.shuffle(order)
                order = [IndividualPlayer(id=p.id, score=0, seed=i) for i, p in enumerate(order, start=1)]
            schedule: list[IndividualRound] = []
            while len(schedule) < total:
                schedule.append(seat_swiss_round(order, schedule))
            candidates.append(schedule)
            if _quality(schedule)[0] == 0 and not exact_movement(len(ids)):
                break
        if min(_quality(c)[0] for c in candidates) and len(ids) - len(ids) % 4 <= SEARCH_SEATED:
            found = _search_movement(ids, total)
            if found is not None:
                candidates.append(found)
    return min(candidates, key=_quality)


SEARCH_SEATED = 8
"""The depth-first movement search is for fields with at most this many seated per round."""

SEARCH_BUDGET = 20_000
"""Seatings the depth-first search for a tiny field's movement may try before giving up."""


def _search_movement(ids: list[PlayerId], total: int) -> list[IndividualRound] | None:
    """A movement without repeated partners for a tiny field (at most eight seated), by depth-first search.

    The round-by-round seater can walk into a dead end (seven players over seven rounds: the
    last round has no new partnership left among the four who must play). This search backs
    out of dead ends; it tries fair bye choices and, per round, seatings with the fewest
    repeated opponents first, and stops after ``SEARCH_BUDGET`` seatings (then: None).
    """
    budget = [SEARCH_BUDGET]
    schedule: list[IndividualRound] = []
    h = History()
    leftover = len(ids) % 4

    def options() -> list[tuple[int, IndividualRound]]:
        low = min(h.byes[p] for p in ids)
        pool = [p for p in ids if h.byes[p] == low]
        if len(pool) >= leftover:
            bye_sets = [list(c) for c in combinations(pool, leftover)]
        else:
            nxt = [p for p in ids if h.byes[p] == low + 1]
            bye_sets = [pool + list(c) for c in combinations(nxt, leftover - len(pool))]
        out: list[tuple[int, IndividualRound]] = []
        for byes in bye_sets:
            seated = [p for p in ids if p not in byes]
            for partition in _partitions(seated):
                layouts: list[tuple[int, list[Table]]] = [(0, [])]
                for a, b, c, d in partition:
                    layouts = [
                        (cost + sum(h.opponents[frozenset(x)] for x in t.opponent_pairs()), [*tables, t])
                        for cost, tables in layouts
                        for t in (Table(a, b, c, d), Table(a, c, b, d), Table(a, d, b, c))
                        if not any(h.partners[frozenset(x)] for x in t.partnerships)
                    ]
                out += [
                    (cost, IndividualRound(len(schedule) + 1, tuple(tables), tuple(byes)))
                    for cost, tables in layouts
                ]
        out.sort(key=lambda o: o[0])
        return out

    def search() -> bool:
        if len(schedule) == total:
            return True
        for _, candidate in options():
            budget[0] -= 1
            if budget[0] < 0:
                return False
            schedule.append(candidate)
            h.add(candidate)
            if search():
                return True
            schedule.pop()
            _remove(h, candidate)
        return False

    return list(schedule) if search() else None


def _remove(h: History, played: IndividualRound) -> None:
    for table in played.tables:
        for a, b in table.partnerships:
            h.partners[frozenset((a, b))] -= 1
        for a, b in table.opponent_pairs():
            h.opponents[frozenset((a, b))] -= 1
    for p in played.byes:
        h.byes[p] -= 1


def _continue(
    schedule: list[IndividualRound], equal: list[IndividualPlayer], total: int
) -> list[IndividualRound]:
    """Rounds beyond a finished cycle, from the seater with equal scores."""
    more = list(schedule)
    while len(more) < total:
        more.append(seat_swiss_round(equal, more))
    return more[len(schedule) :]


def _quality(schedule: list[IndividualRound]) -> tuple[int, int, int]:
    """Which of two movements is better: fewer repeated partners, then opponents, then an even spread."""
    counts = repeat_counts(schedule)
    spread = sum(c * c for c in history_of(schedule).opponents.values())
    return (counts.partner_repeats, counts.opponent_repeats, spread)


MOVEMENT_WORK = 40_000
"""Budget of (players² × rounds) spent on retrying the grouping of partnerships into tables, each
retry starting its greedy pass from a shuffled order (seeded, so still deterministic)."""


SEATER_WORK = 2_000
"""The same for retrying the round-by-round seater with the seeds shuffled (it is slower)."""


def _attempts(n: int, rounds: int, work: int = MOVEMENT_WORK) -> int:
    return max(1, min(60, work // (n * n * rounds)))


def _movement_for(ids: list[PlayerId], total: int, rng: random.Random | None) -> list[IndividualRound]:
    """One movement attempt (see ``movement``); ``rng`` shuffles the grouping's starting order."""
    schedule: list[IndividualRound] = []
    if exact_movement(len(ids)):
        berger = round_robin(ids)[: min(total, full_cycle(len(ids)))]
        partnerships = [list(r.games) for r in berger]
        byes = [(r.bye,) if r.bye is not None else () for r in berger]
        for number, tables in enumerate(_group_partnerships(partnerships, rng), start=1):
            schedule.append(IndividualRound(number=number, tables=tuple(tables), byes=byes[number - 1]))
    equal = [IndividualPlayer(id=p, score=0, seed=i) for i, p in enumerate(ids, start=1)]
    while len(schedule) < total:
        schedule.append(seat_swiss_round(equal, schedule))
    return schedule


def _group_partnerships(
    rounds: list[list[tuple[PlayerId, PlayerId]]], rng: random.Random | None
) -> list[list[Table]]:
    """Pair each round's partnerships into tables, spreading opponents as evenly as we can.

    Minimises the sum over player pairs of (times opposed)²: with the number of meetings fixed,
    that is least when the meetings are spread evenly (the whist ideal: everyone twice). A greedy
    first pass, round by round, then passes that re-pair two tables of a round ((A,B),(C,D) into
    (A,C),(B,D) or (A,D),(B,C)) while that lowers the sum. Deterministic, no randomness.
    """
    met: Counter[frozenset[PlayerId]] = Counter()

    def meetings(p: tuple[PlayerId, PlayerId], q: tuple[PlayerId, PlayerId]) -> list[frozenset[PlayerId]]:
        return [frozenset((a, b)) for a in p for b in q]

    def add(p: tuple[PlayerId, PlayerId], q: tuple[PlayerId, PlayerId], sign: int) -> None:
        for m in meetings(p, q):
            met[m] += sign

    def delta(p: tuple[PlayerId, PlayerId], q: tuple[PlayerId, PlayerId]) -> int:
        """Increase of the squared sum when p and q are seated together (each meeting once)."""
        return sum(2 * met[m] + 1 for m in meetings(p, q))

    grouped: list[list[tuple[tuple[PlayerId, PlayerId], tuple[PlayerId, PlayerId]]]] = []
    for partnerships in rounds:
        left = list(partnerships)
        if rng is not None:
            rng.shuffle(left)
        tables: list[tuple[tuple[PlayerId, PlayerId], tuple[PlayerId, PlayerId]]] = []
        while left:
            p = left.pop(0)
            q = min(left, key=lambda other: delta(p, other))
            left.remove(q)
            add(p, q, 1)
            tables.append((p, q))
        grouped.append(tables)

    improved = True
    while improved:
        improved = False
        for tables in grouped:
            for i, j in combinations(range(len(tables)), 2):
                (a, b), (c, d) = tables[i], tables[j]
                add(a, b, -1)
                add(c, d, -1)
                base = delta(a, b) + delta(c, d)  # the two tables' meetings are disjoint
                options = [((a, c), (b, d)), ((a, d), (b, c))]
                best = base
                choice = ((a, b), (c, d))
                for (p, q), (r, s) in options:
                    cost = delta(p, q) + delta(r, s)
                    if cost < best:
                        best, choice = cost, ((p, q), (r, s))
                (p, q), (r, s) = choice
                add(p, q, 1)
                add(r, s, 1)
                if choice != ((a, b), (c, d)):
                    tables[i], tables[j] = (p, q), (r, s)
                    improved = True
    return [[Table(p[0], p[1], q[0], q[1]) for p, q in tables] for tables in grouped]


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """One table's result: the pairs' final eyes and the winning pair, or a forfeit.

    ``absent`` names players who did not show: then the table is not played, every present
    player at it is scored a win and each absentee a forfeit loss (issue 6: "a no-show's partner
    is scored a win and the absentee a forfeit"; our decision: the opponents of an absentee win
    too, as in any forfeit). Eyes and winner are ignored for such a table.
    """

    table: Table
    ns_eyes: int = 0
    ew_eyes: int = 0
    winner: Pair | None = None
    absent: frozenset[PlayerId] = frozenset()

    def __post_init__(self) -> None:
        if not self.absent <= set(self.table.players):
            raise ValueError("an absentee must be seated at the table")
        if self.absent:
            return
        if self.winner is None:
            raise ValueError("a played table needs a winning pair")
        if not (0 <= self.ns_eyes <= 12 and 0 <= self.ew_eyes <= 12):
            raise ValueError(f"eyes run from 0 to 12, not {self.ns_eyes}:{self.ew_eyes}")
        if (self.ns_eyes > self.ew_eyes) != (self.winner == "NS") or self.ns_eyes == self.ew_eyes:
            raise ValueError(
                f"the winner {self.winner} does not have more eyes ({self.ns_eyes}:{self.ew_eyes})"
            )


@dataclass(frozen=True)
class IndividualStandingRow:
    """One player's line. ``place`` is shared (``shared=True``) when everything ties."""

    place: int
    shared: bool
    player: PlayerId
    match_points: int
    played: int
    wins: int
    losses: int
    byes: int
    forfeits: int
    eyes_for: int
    eyes_against: int
    buchholz: int
    withdrawn: bool

    @property
    def eye_difference(self) -> int:
        return self.eyes_for - self.eyes_against


@dataclass
class _Tally:
    match_points: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0
    eyes_for: int = 0
    eyes_against: int = 0
    opponents: list[PlayerId] = field(default_factory=list)


def individual_standings(
    players: Sequence[PlayerId],
    results: Sequence[TableResult],
    byes: Sequence[PlayerId] = (),
    *,
    points: MatchPoints | None = None,
    withdrawn: Collection[PlayerId] = (),
) -> list[IndividualStandingRow]:
    """Rank players (given in seeding order) by match points, eye difference, eyes, then Buchholz.

    Rules and decisions (issue 6; the pairs rules of ``standings.compute_standings`` where they
    carry over):

    - **Each player scores what his pair scored**: the pair's win or loss (``MatchPoints``) and
      its eyes for and against.
    - **No-shows**: present players at the table win, each absentee takes ``forfeit_loss``.
      With ``MatchPoints.forfeit_eyes_count`` the forfeit counts 12:0 for winners and 0:12 for
      the absentee, as for pairs; otherwise it counts for match points only.
    - **Byes** (one entry of ``byes`` per bye sat out) score ``MatchPoints.bye`` and no eyes.
    - **Buchholz counts both opponents** (issue 6; FIDE C.07 §8.1 per opponent): the sum of the
      match points of every opponent met, so each table adds two. A bye counts as two dummy
      opponents with the player's own points (FIDE C.07 §16, as for pairs), so it neither helps
      nor hurts. A forfeit counts as met against the real opponents.
    - Order: match points, eye difference, eyes scored, Buchholz (the individual standings of
      issue 6; in an individual event partners differ, so head-to-head has no meaning).
      Players equal on all share a place, in seeding order. Withdrawn players keep their line.
    """
    config = points or MatchPoints()
    known = list(players)
    if len(set(known)) != len(known):
        raise ValueError("a player is listed twice")
    tally = {p: _Tally() for p in known}

    def get(p: PlayerId) -> _Tally:
        if p not in tally:
            raise ValueError(f"a result names player {p}, who is not in this event")
        return tally[p]

    for p in byes:
        t = get(p)
        t.byes += 1
        t.match_points += config.bye
    for r in results:
        (n, s), (e, w) = r.table.partnerships
        for side, others in (((n, s), (e, w)), ((e, w), (n, s))):
            for me in side:
                t = get(me)
                t.played += 1
                t.opponents.extend(others)
                mine, theirs = (r.ns_eyes, r.ew_eyes) if side == (n, s) else (r.ew_eyes, r.ns_eyes)
                if r.absent:
                    forfeited = me in r.absent
                    if config.forfeit_eyes_count:
                        t.eyes_for += 0 if forfeited else 12
                        t.eyes_against += 12 if forfeited else 0
                    if forfeited:
                        t.losses += 1
                        t.forfeits += 1
                        t.match_points += config.forfeit_loss
                    else:
                        t.wins += 1
                        t.match_points += config.win
                    continue
                won = (r.winner == "NS") == (side == (n, s))
                t.eyes_for += mine
                t.eyes_against += theirs
                t.wins += won
                t.losses += not won
                t.match_points += config.win if won else config.loss

    mp = {p: t.match_points for p, t in tally.items()}
    buchholz = {p: sum(mp[o] for o in t.opponents) + 2 * t.byes * mp[p] for p, t in tally.items()}
    key = {p: (mp[p], t.eyes_for - t.eyes_against, t.eyes_for, buchholz[p]) for p, t in tally.items()}
    rank = sorted(range(len(known)), key=lambda i: (tuple(-v for v in key[known[i]]), i))
    rows: list[IndividualStandingRow] = []
    place = 0
    for position, i in enumerate(rank):
        p = known[i]
        if position == 0 or key[p] != key[known[rank[position - 1]]]:
            place = position + 1
        t = tally[p]
        shared = sum(1 for q in known if key[q] == key[p]) > 1
        rows.append(
            IndividualStandingRow(
                place=place,
                shared=shared,
                player=p,
                match_points=t.match_points,
                played=t.played,
                wins=t.wins,
                losses=t.losses,
                byes=t.byes,
                forfeits=t.forfeits,
                eyes_for=t.eyes_for,
                eyes_against=t.eyes_against,
                buchholz=buchholz[p],
                withdrawn=p in withdrawn,
            )
        )
    return rows
