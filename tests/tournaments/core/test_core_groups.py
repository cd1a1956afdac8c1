"""Groups then playoff: snake groups, group round robins and tables, the cross-over playoff seeding."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest

from tournaments.core.groups import (
    Qualifier,
    group_schedules,
    group_standings,
    meeting_round,
    playoff_bracket,
    playoff_seeding,
    snake_groups,
)
from tournaments.core.knockout import bracket_size, seed_positions
from tournaments.core.standings import MatchResult


def test_snake_deals_seeds_back_and_forth() -> None:
    assert snake_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_groups(list(range(1, 11)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
    with pytest.raises(ValueError, match="at least two"):
        snake_groups([1, 2, 3, 4, 5], 3)


def test_each_group_plays_a_round_robin_and_gets_its_own_table() -> None:
    groups = snake_groups(list(range(1, 12)), 3)
    schedules = group_schedules(groups)
    for group, rounds in zip(groups, schedules, strict=True):
        met = [frozenset(g) for r in rounds for g in r.games]
        assert sorted(met, key=sorted) == sorted((frozenset(p) for p in combinations(group, 2)), key=sorted)
    # the lower seed wins every match: each table is in seeding order
    results = [
        MatchResult(home=a, away=b, home_eyes=12, away_eyes=4, winner=min(a, b))
        if a < b
        else MatchResult(home=a, away=b, home_eyes=4, away_eyes=12, winner=b)
        for rounds in schedules
        for r in rounds
        for a, b in r.games
    ]
    tables = group_standings(groups, results)
    assert [[row.entry for row in table] for table in tables] == groups
    with pytest.raises(ValueError, match="same group"):
        group_standings(groups, [MatchResult(home=1, away=2, home_eyes=12, winner=1)])


def _same_group_first_matches(seeds: list[Qualifier]) -> int:
    """First-round matches (both entries real, no bye) between two entries of one group."""
    size = bracket_size(len(seeds))
    order = seed_positions(size)
    pairs = [(order[2 * i], order[2 * i + 1]) for i in range(size // 2)]
    return sum(
        seeds[a - 1].group == seeds[b - 1].group for a, b in pairs if a <= len(seeds) and b <= len(seeds)
    )


def _orders(groups: int, sizes: list[int]) -> list[list[int]]:
    return [[100 * g + place for place in range(1, sizes[g] + 1)] for g in range(groups)]


FIELDS = [
    (g, k, n)
    for g in range(2, 9)
    for k in range(1, 5)
    for n in (2 * g, 3 * g + 1, 4 * g - 1, 4 * g, 5 * g + 2)
]


@pytest.mark.parametrize(("groups", "qualifiers", "entries"), FIELDS)
def test_playoff_seeding_for_2_to_8_groups(groups: int, qualifiers: int, entries: int) -> None:
    sizes = [len(g) for g in snake_groups(list(range(entries)), groups)]
    orders = _orders(groups, sizes)
    seeds = playoff_seeding(orders, qualifiers)
    expected = sum(min(qualifiers, s) for s in sizes)
    assert len(seeds) == expected
    assert [q.place for q in seeds] == sorted(q.place for q in seeds)  # by group place first
    assert {q.entry for q in seeds[:groups]} == {o[0] for o in orders}  # the winners come first
    assert all(orders[q.group][q.place - 1] == q.entry for q in seeds)
    # group winners meet as late as the bracket allows: in separate sections of ~groups sections
    size = bracket_size(len(seeds))
    position = {s: i for i, s in enumerate(seed_positions(size))}
    rounds = size.bit_length() - 1
    sections = (groups - 1).bit_length()
    for a, b in combinations(range(1, groups + 1), 2):
        assert meeting_round(position[a], position[b]) >= rounds - sections + 1
    # no two entries of one group in the same first match: always avoidable with two or more groups
    assert _same_group_first_matches(seeds) == 0


def test_two_groups_cross_over() -> None:
    seeds = playoff_seeding([[11, 12], [21, 22]], 2)
    assert [q.entry for q in seeds] == [11, 21, 12, 22]
    bracket = playoff_bracket([[11, 12], [21, 22]], 2)
    assert [{m.top, m.bottom} for m in bracket.rounds[0]] == [{11, 22}, {21, 12}]  # A1 v B2, B1 v A2


@pytest.mark.parametrize(("groups", "qualifiers"), [(2, 3), (3, 2), (2, 4), (4, 2)])
def test_cross_over_is_as_good_as_any_order_of_the_lower_places(groups: int, qualifiers: int) -> None:
    orders = _orders(groups, [qualifiers] * groups)
    ours = playoff_seeding(orders, qualifiers)

    def cost(seeds: list[Qualifier]) -> list[int]:
        size = bracket_size(len(seeds))
        position = {s: i for i, s in enumerate(seed_positions(size))}
        by_round = [0] * size.bit_length()
        for i, j in combinations(range(len(seeds)), 2):
            if seeds[i].group == seeds[j].group:
                by_round[meeting_round(position[i + 1], position[j + 1])] += 1
        return by_round  # same-group pairs by the round they could first meet, earliest first

    tiers = [[q for q in ours if q.place == p] for p in range(1, qualifiers + 1)]
    best = None
    for lower in _products([list(permutations(t)) for t in tiers[1:]]):
        candidate = tiers[0] + [q for tier in lower for q in tier]
        c = cost(candidate)
        best = c if best is None or c < best else best
    assert cost(ours) == best


def _products(choices: list[list[tuple[Qualifier, ...]]]) -> list[list[tuple[Qualifier, ...]]]:
    out: list[list[tuple[Qualifier, ...]]] = [[]]
    for options in choices:
        out = [done + [o] for done in out for o in options]
    return out


def test_favourites_win_the_playoff_a_group_winner_first() -> None:
    orders = _orders(4, [4, 4, 4, 3])
    winners: dict[tuple[int, int], int] = {}
    ranks = {q.entry: i for i, q in enumerate(playoff_seeding(orders, 3))}
    while pending := playoff_bracket(orders, 3, winners).pending():
        for m in pending:
            assert m.top is not None and m.bottom is not None
            winners[(m.round, m.slot)] = min((m.top, m.bottom), key=ranks.__getitem__)
    champion = playoff_bracket(orders, 3, winners).champion
    assert champion == playoff_seeding(orders, 3)[0].entry and champion in (1, 101, 201, 301)
