"""Berger round robins: everyone meets everyone, once per cycle, one game per round."""

from collections import Counter

import pytest

from tournaments.core.roundrobin import berger_table, round_robin


def test_berger_table_for_six_matches_the_fide_handbook() -> None:
    # FIDE Handbook C.05 Annex 1, table for 5 or 6 players.
    assert berger_table(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_berger_table_for_eight_matches_the_fide_handbook_in_round_two_and_seven() -> None:
    table = berger_table(8)
    assert table[1] == [(8, 5), (6, 4), (7, 3), (1, 2)]
    assert table[6] == [(4, 8), (5, 3), (6, 2), (7, 1)]


@pytest.mark.parametrize("n", range(2, 21))
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_once_per_cycle_and_everyone_plays_once_a_round(n: int, double: bool) -> None:
    entries = [100 + i for i in range(n)]
    rounds = round_robin(entries, double=double)
    cycles = 2 if double else 1
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * cycles
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))

    meetings = Counter(frozenset(game) for r in rounds for game in r.games)
    assert set(meetings) == {frozenset((a, b)) for a in entries for b in entries if a < b}
    assert set(meetings.values()) == {cycles}

    for r in rounds:
        seen = [e for game in r.games for e in game] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == entries
        assert (r.bye is None) == (n % 2 == 0)

    if n % 2:
        byes = Counter(r.bye for r in rounds)
        assert set(byes) == set(entries)
        assert set(byes.values()) == {cycles}


@pytest.mark.parametrize("n", range(2, 21))
def test_double_round_robin_swaps_home_and_away_in_the_second_cycle(n: int) -> None:
    rounds = round_robin(list(range(n)), double=True)
    half = len(rounds) // 2
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert second.games == tuple((away, home) for home, away in first.games)
        assert second.bye == first.bye
    homes = Counter(game for r in rounds for game in r.games)
    assert all(count == 1 for count in homes.values())


@pytest.mark.parametrize("n", range(2, 21, 2))
def test_home_games_are_balanced_within_one(n: int) -> None:
    homes = Counter(home for r in round_robin(list(range(n))) for home, _ in r.games)
    counts = [homes.get(e, 0) for e in range(n)]
    assert max(counts) - min(counts) <= 1


def test_refuses_duplicates_and_too_few_entries() -> None:
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 2, 2])
    with pytest.raises(ValueError, match="two entries"):
        round_robin([1])
