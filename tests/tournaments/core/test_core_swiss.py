"""Swiss pairing: no avoidable rematch (checked against brute force), byes, score groups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.core.swiss import SwissEntry, SwissPairing, pair_swiss_round, placement_order


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def rematches_in(pairs: list[tuple[int, int]], met: dict[int, frozenset[int]]) -> int:
    return sum(1 for a, b in pairs if b in met[a])


def fewest_rematches(ids: list[int], met: dict[int, frozenset[int]]) -> int:
    return min(rematches_in(m, met) for m in perfect_matchings(ids))


def assert_everyone_once(entries: list[SwissEntry], pairing: SwissPairing) -> None:
    seen = [e for pair in pairing.pairs for e in pair] + ([pairing.bye] if pairing.bye is not None else [])
    assert sorted(seen) == sorted(e.id for e in entries)
    assert (pairing.bye is not None) == (len(entries) % 2 == 1)


@st.composite
def histories(draw: st.DrawFn) -> list[SwissEntry]:
    n = draw(st.integers(min_value=4, max_value=10))
    ids = list(range(1, n + 1))
    possible = [(a, b) for a in ids for b in ids if a < b]
    density = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.85]))
    met_pairs = [p for p in possible if draw(st.floats(0, 1)) < density]
    met: dict[int, set[int]] = {i: set() for i in ids}
    for a, b in met_pairs:  # sometimes only one side's history knows of the match
        if draw(st.booleans()):
            met[a].add(b)
        else:
            met[b].add(a)
        if draw(st.booleans()):
            met[a].add(b)
            met[b].add(a)
    scores = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    byes = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    seeds = draw(st.permutations(ids))
    return [
        SwissEntry(id=i, score=scores[k], seed=seeds[k], opponents=frozenset(met[i]), had_bye=byes[k])
        for k, i in enumerate(ids)
    ]


def opponents_of(entries: list[SwissEntry]) -> dict[int, frozenset[int]]:
    met = {e.id: set(e.opponents) for e in entries}
    for e in entries:
        for o in e.opponents:
            met[o].add(e.id)
    return {i: frozenset(m) for i, m in met.items()}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_no_rematch_when_brute_force_finds_a_rematch_free_round(entries: list[SwissEntry]) -> None:
    pairing = pair_swiss_round(entries)
    assert_everyone_once(entries, pairing)
    met = opponents_of(entries)
    ids = [e.id for e in entries]
    assert pairing.rematches == rematches_in(list(pairing.pairs), met)
    if len(ids) % 2 == 0:
        best = fewest_rematches(ids, met)
    else:
        best = min(fewest_rematches([i for i in ids if i != bye], met) for bye in ids)
    # Zero whenever a rematch-free round exists; otherwise as few as the bye we chose allows.
    if best == 0:
        assert pairing.rematches == 0
    else:
        rest = [i for i in ids if i != pairing.bye]
        assert pairing.rematches == fewest_rematches(rest, met)


@settings(max_examples=300, deadline=None)
@given(histories().filter(lambda es: len(es) % 2 == 1))
def test_bye_goes_to_the_lowest_placed_entry_without_one_that_keeps_the_round_rematch_free(
    entries: list[SwissEntry],
) -> None:
    pairing = pair_swiss_round(entries)
    met = opponents_of(entries)
    ids = [e.id for e in entries]
    bottom_up = [e for e in reversed(placement_order(entries))]
    priority = [e for e in bottom_up if not e.had_bye] + [e for e in bottom_up if e.had_bye]
    clean = [e.id for e in priority if fewest_rematches([i for i in ids if i != e.id], met) == 0]
    if clean:
        assert pairing.bye == clean[0]
    else:
        assert pairing.bye is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=2, max_size=40))
def test_without_history_only_odd_groups_send_a_floater_down(scores: list[int]) -> None:
    entries = field(scores)
    pairing = pair_swiss_round(entries)
    assert_everyone_once(entries, pairing)
    score = {e.id: e.score for e in entries}
    cross = sum(1 for a, b in pairing.pairs if score[a] != score[b])
    brackets, carried = 0, 0
    for s in sorted(set(scores), reverse=True):  # each odd bracket (with its floater) sends one on
        carried = (carried + scores.count(s)) % 2
        brackets += carried
    assert cross <= brackets


def field(scores: list[int], byes: set[int] | None = None) -> list[SwissEntry]:
    return [
        SwissEntry(id=i + 1, score=s, seed=i + 1, had_bye=(i + 1) in (byes or set()))
        for i, s in enumerate(scores)
    ]


def test_first_round_pairs_top_half_against_bottom_half() -> None:
    pairing = pair_swiss_round(field([0] * 8))
    assert pairing.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert pairing.bye is None and pairing.rematches == 0


def test_equal_scores_meet_within_their_group() -> None:
    pairing = pair_swiss_round(field([2, 2, 1, 1, 1, 1, 0, 0]))
    assert pairing.pairs == ((1, 2), (3, 5), (4, 6), (7, 8))


def test_odd_group_floats_its_lowest_entry_down_to_the_top_of_the_next_group() -> None:
    pairing = pair_swiss_round(field([2, 2, 2, 1, 1, 1]))
    assert pairing.pairs == ((1, 2), (3, 4), (5, 6))


def test_leaders_who_met_float_so_that_nobody_replays() -> None:
    entries = field([2, 2, 1, 1])
    entries[0] = SwissEntry(id=1, score=2, seed=1, opponents=frozenset({2}))
    entries[1] = SwissEntry(id=2, score=2, seed=2, opponents=frozenset({1}))
    pairing = pair_swiss_round(entries)
    assert pairing.rematches == 0
    assert pairing.pairs == ((1, 3), (2, 4))


def test_group_avoids_a_rematch_by_shifting_the_partner_in_the_bottom_half() -> None:
    entries = field([1, 1, 1, 1])
    entries[0] = SwissEntry(id=1, score=1, seed=1, opponents=frozenset({3}))
    entries[2] = SwissEntry(id=3, score=1, seed=3, opponents=frozenset({1}))
    assert pair_swiss_round(entries).pairs == ((1, 4), (2, 3))


def test_a_rematch_free_round_is_found_even_when_the_groups_alone_would_block_it() -> None:
    # The bottom three all met each other: the greedy group-by-group pairing would leave two of
    # them together; the global check pulls one up to meet a leader instead.
    met = {1: {2}, 2: {1}, 3: set(), 4: {5, 6}, 5: {4, 6}, 6: {4, 5}}
    scores = {1: 2, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}
    entries = [SwissEntry(id=i, score=scores[i], seed=i, opponents=frozenset(met[i])) for i in range(1, 7)]
    pairing = pair_swiss_round(entries)
    assert pairing.rematches == 0
    assert all(3 in pair or {pair[0], pair[1]} & {1, 2} for pair in pairing.pairs)


def test_bye_to_lowest_placed_entry_without_a_bye() -> None:
    assert pair_swiss_round(field([3, 2, 1, 1, 0])).bye == 5
    assert pair_swiss_round(field([3, 2, 1, 1, 0], byes={5})).bye == 4
    assert pair_swiss_round(field([3, 2, 1, 1, 0], byes={4, 5})).bye == 3


def test_when_everyone_had_a_bye_the_lowest_placed_gets_it_again() -> None:
    assert pair_swiss_round(field([3, 2, 1], byes={1, 2, 3})).bye == 3


def test_unavoidable_rematches_are_counted_and_kept_to_a_minimum() -> None:
    everyone = frozenset({1, 2, 3, 4})
    entries = [SwissEntry(id=i, score=0, seed=i, opponents=everyone - {i}) for i in range(1, 5)]
    pairing = pair_swiss_round(entries)
    assert pairing.rematches == 2
    assert_everyone_once(entries, pairing)


def test_withdrawn_opponents_in_the_history_are_ignored() -> None:
    entries = [
        SwissEntry(id=1, score=1, seed=1, opponents=frozenset({99})),
        SwissEntry(id=2, score=0, seed=2),
    ]
    assert pair_swiss_round(entries).pairs == ((1, 2),)


def test_a_history_recorded_on_one_side_only_still_prevents_the_rematch() -> None:
    entries = field([0, 0, 0, 0])
    entries[0] = SwissEntry(id=1, score=0, seed=1, opponents=frozenset({3}))
    assert pair_swiss_round(entries).rematches == 0
    assert (1, 3) not in pair_swiss_round(entries).pairs


def test_empty_and_single_entry_fields() -> None:
    assert pair_swiss_round([]) == SwissPairing(pairs=(), bye=None, rematches=0)
    assert pair_swiss_round(field([0])) == SwissPairing(pairs=(), bye=1, rematches=0)


def test_refuses_duplicate_entries_and_self_opponents() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_swiss_round(field([0, 0]) + field([0]))
    with pytest.raises(ValueError, match="own opponent"):
        pair_swiss_round([SwissEntry(id=1, score=0, seed=1, opponents=frozenset({1}))])


@pytest.mark.parametrize("n", [6, 7, 10, 11])
def test_a_whole_event_runs_without_rematches_until_none_is_possible(n: int) -> None:
    # Everyone wins by seed: the same group structure a real event produces, round after round.
    scores = dict.fromkeys(range(1, n + 1), 0)
    met: dict[int, set[int]] = {i: set() for i in scores}
    byes: set[int] = set()
    for _ in range(n - 1 if n % 2 == 0 else n):
        entries = [
            SwissEntry(id=i, score=scores[i], seed=i, opponents=frozenset(met[i]), had_bye=i in byes)
            for i in scores
        ]
        pairing = pair_swiss_round(entries)
        assert_everyone_once(entries, pairing)
        ids = list(scores)
        if pairing.rematches:
            rest = [i for i in ids if i != pairing.bye] if n % 2 else ids
            assert fewest_rematches(rest, {i: frozenset(met[i]) for i in ids}) > 0
        for a, b in pairing.pairs:
            met[a].add(b)
            met[b].add(a)
            scores[min(a, b)] += 1
        if pairing.bye is not None:
            assert pairing.bye not in byes or len(byes) == n
            byes.add(pairing.bye)
            scores[pairing.bye] += 1
