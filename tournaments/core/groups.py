"""Groups then playoff: snake seeding into groups, a round robin in each, the top K of each into a knockout.

The field is dealt into groups by snake seeding; each group plays a round robin; the top K of
each group go into a single-elimination bracket, seeded so that group winners meet late. The
pieces reuse the pairs
core: ``roundrobin.round_robin`` for each group's schedule, ``standings.compute_standings`` for
each group's table, ``knockout.seed_positions`` and ``knockout_bracket`` for the playoff.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.core.ids import EntryId
from tournaments.core.knockout import Bracket, MatchKey, bracket_size, knockout_bracket, seed_positions
from tournaments.core.roundrobin import RoundRobinRound, round_robin
from tournaments.core.standings import (
    ROUND_ROBIN_TIEBREAKS,
    MatchPoints,
    MatchResult,
    StandingRow,
    Tiebreak,
    compute_standings,
)


def snake_groups(seeded: Sequence[EntryId], groups: int) -> list[list[EntryId]]:
    """Deal entries (in seeding order) into ``groups`` groups by the snake: 1..G, then G..1, and so on.

    Rule: the serpentine ("snake") system used for group draws (e.g. FIDE team events, the
    Olympiad's preliminary groups): seeds 1..G head groups A..G, seeds G+1..2G go G..1, so the
    sums of seeds even out. With a number of entries that is not a multiple of G, the last
    groups of the last pass are one short. Every group needs at least two entries.
    """
    ids = list(seeded)
    if len(set(ids)) != len(ids):
        raise ValueError("an entry is seeded twice")
    if groups < 1:
        raise ValueError("there is at least one group")
    if len(ids) < 2 * groups:
        raise ValueError(f"{len(ids)} entries cannot fill {groups} groups of at least two")
    out: list[list[EntryId]] = [[] for _ in range(groups)]
    for index, entry in enumerate(ids):
        lap, position = divmod(index, groups)
        out[position if lap % 2 == 0 else groups - 1 - position].append(entry)
    return out


def group_schedules(
    groups: Sequence[Sequence[EntryId]], *, double: bool = False
) -> list[list[RoundRobinRound]]:
    """Each group's round robin (Berger tables, FIDE C.05 Annex 1), in the group's seeding order."""
    return [round_robin(group, double=double) for group in groups]


def group_standings(
    groups: Sequence[Sequence[EntryId]],
    results: Sequence[MatchResult],
    *,
    points: MatchPoints | None = None,
    tiebreaks: Sequence[Tiebreak] = ROUND_ROBIN_TIEBREAKS,
    withdrawn: Collection[EntryId] = (),
) -> list[list[StandingRow]]:
    """Each group's table from the results among its own entries (``standings.compute_standings``).

    Default tiebreaks are the round-robin ones (head-to-head first): in a group everyone meets
    everyone. A result between entries of different groups is refused.
    """
    where = {e: g for g, group in enumerate(groups) for e in group}
    per_group: list[list[MatchResult]] = [[] for _ in groups]
    for r in results:
        if r.home not in where:
            raise ValueError(f"a result names entry {r.home}, which is in no group")
        g = where[r.home]
        if r.away is not None and where.get(r.away) != g:
            raise ValueError(f"entries {r.home} and {r.away} are not in the same group")
        per_group[g].append(r)
    return [
        compute_standings(group, per_group[g], points=points, tiebreaks=tiebreaks, withdrawn=withdrawn)
        for g, group in enumerate(groups)
    ]


@dataclass(frozen=True)
class Qualifier:
    """An entry going through to the playoff: its group (0 = A) and its place there (1 = winner)."""

    entry: EntryId
    group: int
    place: int


def meeting_round(a: int, b: int) -> int:
    """The earliest round in which bracket positions a and b (0-based, top to bottom) can meet."""
    return (a ^ b).bit_length()


def playoff_seeding(finishing_orders: Sequence[Sequence[EntryId]], qualifiers: int) -> list[Qualifier]:
    """The playoff seeding order for the top ``qualifiers`` of each group (groups in order A, B, ...).

    Rules and decisions:

    - **By group place first**: all group winners are seeded above all runners-up, and so on
      (the usual rule in group-then-knockout events: UEFA, FIFA, FIDE team events). Group
      winners are seeded in group order (A, the group of seed 1, first) unless the cross-over
      below needs otherwise; with
      ``seed_positions`` they are spread as far apart as possible, so two winners meet at the
      earliest when the bracket has no more sections than there are winners (e.g. two winners
      only in the final, four only in the semifinals). Byes fall to the top seeds.
    - **Cross-over**: within each lower place, the order of the groups is chosen so that
      entries of the same group meet as late as possible, above all not in the first playoff
      round (A1 v B2 and B1 v A2 with two groups). We start from group order and swap entries
      of the same place (winners too: with groups of 3 and 4 going through whole, the bye must
      go to the winner of the bigger group, or B1 meets B4) while that moves same-group meetings
      later (cost: B^(rounds - round)
      per same-group pair with B above the number of pairs, so one earlier meeting outweighs
      any number of later ones).
      Deterministic: the first improving swap in a fixed order is taken, until none improves.
    - A group with fewer entries than ``qualifiers`` sends all it has.
    """
    if qualifiers < 1:
        raise ValueError("at least one entry per group goes through")
    tiers: list[list[Qualifier]] = []
    for place in range(1, qualifiers + 1):
        tier = [
            Qualifier(entry=order[place - 1], group=g, place=place)
            for g, order in enumerate(finishing_orders)
            if len(order) >= place
        ]
        if tier:
            tiers.append(tier)
    seeds = [q for tier in tiers for q in tier]
    if len({q.entry for q in seeds}) != len(seeds):
        raise ValueError("an entry is placed in two groups")
    if len(seeds) < 2:
        raise ValueError("a playoff needs at least two entries")
    size = bracket_size(len(seeds))
    rounds = size.bit_length() - 1
    position = {seed: index for index, seed in enumerate(seed_positions(size))}
    base = len(seeds) ** 2  # more than the number of pairs: one earlier meeting outweighs all later ones

    def cost(order: list[Qualifier]) -> int:
        total = 0
        for i, j in combinations(range(len(order)), 2):
            if order[i].group == order[j].group:
                total += base ** (rounds - meeting_round(position[i + 1], position[j + 1]))
        return total

    best = cost(seeds)
    improved = True
    while improved:
        improved = False
        start = 0
        for tier in tiers:
            for i, j in combinations(range(start, start + len(tier)), 2):
                seeds[i], seeds[j] = seeds[j], seeds[i]
                candidate = cost(seeds)
                if candidate < best:
                    best = candidate
                    improved = True
                else:
                    seeds[i], seeds[j] = seeds[j], seeds[i]
            start += len(tier)
    return seeds


def playoff_bracket(
    finishing_orders: Sequence[Sequence[EntryId]],
    qualifiers: int,
    winners: Mapping[MatchKey, EntryId] | None = None,
    *,
    third_place: bool = False,
) -> Bracket:
    """The playoff bracket (``knockout.knockout_bracket``) seeded by ``playoff_seeding``."""
    seeded = [q.entry for q in playoff_seeding(finishing_orders, qualifiers)]
    return knockout_bracket(seeded, winners, third_place=third_place)
