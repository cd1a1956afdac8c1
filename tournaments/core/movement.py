"""Individual events: the full movement, where every two players partner once over the cycle.

A full movement is the bridge-individual idea: a round robin of partnerships. For n ≡ 0 or 1
(mod 4) players we build it exactly (``exact_movement``): the partnerships of each round are one
round of the Berger table over the players (FIDE C.05 Annex 1; for odd n the player meeting the
dummy sits out), so over the full cycle (n-1 rounds for even n, n for odd) every two players
partner exactly once and, for n ≡ 1, everyone sits out exactly once. The partnerships of a round
are then paired into tables by a deterministic local search (with seeded restarts) that spreads
opponents as evenly as it can: sum of squared opponent counts, the whist-tournament ideal being
"every two players oppose exactly twice". That ideal itself, a whist tournament, we build for
n = 4, 5, 8, 12, 13, 16, 17, 20, 21, 24 (``whist_movement``); for 9 and from 25 on the
Berger-based movement has partners exactly once but some two players oppose 3 or 4 times. For
other n (2 or 3 players left over each round) nobody can partner everyone, so the movement falls
back to the round-by-round seater (``core.seating``) with equal scores, and for tiny fields to a
depth-first search when the seater walks into a repeated partner (seven players over seven
rounds). Full cycles from 4 to 32 players have no repeated partner except 30 (one).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from tournaments.core.roundrobin import round_robin
from tournaments.core.seating import (
    SEARCH_SEATED,
    History,
    IndividualPlayer,
    IndividualRound,
    PlayerId,
    Table,
    check_players,
    exact_movement,
    full_cycle,
    history_of,
    partitions,
    repeat_counts,
    seat_swiss_round,
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
    (``whist_movement``) it is the movement: partners exactly once, opponents exactly twice. Otherwise,
    for n ≡ 0 or 1 (mod 4) the partnerships come from the Berger table (see module doc): no partner
    repeats within the full cycle; rounds beyond it are seated by the Swiss seater with equal scores. For
    other n, every round comes from that seater: it still avoids a repeated partner whenever it finds a
    way, and gives the byes in turn. For a movement shorter than the full cycle both are built and the
    better kept (fewer repeated partners, then opponents): the first rounds of the Berger table repeat
    opponents more than the seater does when only a few rounds are played.

    Measured against brute force (tests/tournaments/core/test_core_individual.py): for 4-11
    players over 2-3 rounds and 4-8 players over 4 rounds (9 over 4 checked once, 85 s), both
    the most times two players partner and the number of repeated opponents are the least
    possible.
    """
    ids = list(players)
    check_players(ids)
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
            for partition in partitions(seated):
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
