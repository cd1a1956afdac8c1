"""Individual events: movements and Swiss rounds with new partners, fair byes, individual standings."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from tournaments.core import seating
from tournaments.core.movement import movement, whist_movement
from tournaments.core.seating import (
    IndividualPlayer,
    IndividualRound,
    Table,
    exact_movement,
    full_cycle,
    history_of,
    repeat_counts,
    seat_swiss_round,
)
from tournaments.core.standings import MatchPoints, TableResult, individual_standings

# --- brute force ---------------------------------------------------------------------------------


def _partitions(ps: list[int]) -> list[list[tuple[int, ...]]]:
    if not ps:
        return [[]]
    first, rest = ps[0], ps[1:]
    out = []
    for others in combinations(rest, 3):
        remaining = [p for p in rest if p not in others]
        out += [[(first, *others), *tail] for tail in _partitions(remaining)]
    return out


Seating = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def _seatings(ps: list[int]) -> list[Seating]:
    """Every seating of the players (a multiple of four): its partnerships and its opponent pairs."""
    out: list[Seating] = []
    for part in _partitions(ps):
        splits: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]] = [([], [])]
        for a, b, c, d in part:
            splits = [
                (
                    partners + [tuple(sorted(x)) for x in (ns, ew)],  # type: ignore[misc]
                    opps + [tuple(sorted((x, y))) for x in ns for y in ew],  # type: ignore[misc]
                )
                for partners, opps in splits
                for ns, ew in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
            ]
        out += [(tuple(p), tuple(o)) for p, o in splits]
    return out


def brute_force(n: int, rounds: int) -> tuple[int, int]:
    """The least (most times two players partner, opponent repeats) over all fair schedules.

    Enumerates every seating of every round (byes only to players with the fewest byes so far),
    with branch and bound on the lexicographic cost. Round 1 is fixed: all players are alike at
    the start, so any first round is as good as any other up to renaming.
    """
    players = list(range(n))
    leftover = n % 4
    cache: dict[tuple[int, ...], list[Seating]] = {}
    best: list[tuple[int, int]] = [(n * rounds, n * n * rounds)]

    def options(byes: tuple[int, ...]) -> list[Seating]:
        if byes not in cache:
            cache[byes] = _seatings([p for p in players if p not in byes])
        return cache[byes]

    def search(
        r: int,
        pc: Counter[tuple[int, int]],
        oc: Counter[tuple[int, int]],
        bc: Counter[int],
        cost: tuple[int, int],
    ) -> None:
        if cost >= best[0]:
            return
        if r == rounds:
            best[0] = cost
            return
        low = min(bc[p] for p in players)
        pool = [p for p in players if bc[p] == low]
        if len(pool) >= leftover:
            bye_sets = list(combinations(pool, leftover))
        else:
            nxt = [p for p in players if bc[p] == low + 1]
            bye_sets = [tuple(pool) + c for c in combinations(nxt, leftover - len(pool))]
        children = []
        for byes in bye_sets[:1] if r == 0 else bye_sets:
            for partners, opps in options(byes)[:1] if r == 0 else options(byes):
                most = max([cost[0], *(pc[x] + 1 for x in partners)])
                repeats = cost[1] + sum(1 for x in opps if oc[x] >= 1)
                children.append(((most, repeats), byes, partners, opps))
        children.sort(key=lambda c: c[0])
        for child_cost, byes, partners, opps in children:
            if child_cost >= best[0]:
                break
            pc.update(partners)
            oc.update(opps)
            bc.update(byes)
            search(r + 1, pc, oc, bc, child_cost)
            pc.subtract(partners)
            oc.subtract(opps)
            bc.subtract(byes)

    search(0, Counter(), Counter(), Counter(), (0, 0))
    return best[0]


CASES = [(n, r) for n in range(4, 12) for r in range(2, 5) if n < 9 or r < 4]  # 9 x 4 alone takes 30 s


@pytest.mark.parametrize(("n", "rounds"), CASES)
def test_movement_repeats_match_brute_force_on_small_fields(n: int, rounds: int) -> None:
    least_partner, least_opponent = brute_force(n, rounds)
    counts = repeat_counts(movement(list(range(1, n + 1)), rounds))
    assert counts.max_partner <= least_partner  # in particular no repeat when brute force has none
    assert counts.opponent_repeats <= least_opponent


def test_brute_force_sees_a_forced_partner_repeat() -> None:
    # four players have only three partnerships to share out: the fourth round repeats one
    assert brute_force(4, 4) == (2, 10)
    assert repeat_counts(movement([1, 2, 3, 4], 4)).max_partner == 2


# --- movements -----------------------------------------------------------------------------------


def _check_round(played: IndividualRound, players: list[int]) -> None:
    seated = [p for t in played.tables for p in t.players]
    assert sorted(seated + list(played.byes)) == sorted(players)  # everyone exactly once
    assert len(played.byes) == len(players) % 4


def _check_fair_byes(rounds: list[IndividualRound], players: list[int]) -> None:
    byes: Counter[int] = Counter()
    for played in rounds:
        byes.update(played.byes)
        counts = [byes[p] for p in players]
        assert max(counts) - min(counts) <= 1  # nobody sits out twice before all have once


@pytest.mark.parametrize("n", [4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 28, 29])
def test_exact_movement_everyone_partners_everyone_exactly_once(n: int) -> None:
    players = [100 + i for i in range(n)]
    rounds = movement(players)
    assert exact_movement(n)
    assert len(rounds) == full_cycle(n)
    partners = history_of(rounds).partners
    assert all(partners[frozenset(pair)] == 1 for pair in combinations(players, 2))
    for played in rounds:
        _check_round(played, players)
    if n % 2:
        assert sorted(p for r in rounds for p in r.byes) == sorted(players)  # one bye each


@pytest.mark.parametrize("n", [4, 5, 8, 12, 13, 16, 17, 20, 21, 24])
def test_whist_movements_partner_everyone_once_and_oppose_everyone_twice(n: int) -> None:
    players = [7 * i + 3 for i in range(n)]
    for rounds in (whist_movement(players), movement(players)):
        assert rounds is not None
        h = history_of(rounds)
        assert all(h.partners[frozenset(pair)] == 1 for pair in combinations(players, 2))
        assert all(h.opponents[frozenset(pair)] == 2 for pair in combinations(players, 2))
        for played in rounds:
            _check_round(played, players)


def test_no_cyclic_whist_for_nine_so_the_berger_movement_is_used() -> None:
    assert whist_movement(list(range(9))) is None
    assert repeat_counts(movement(list(range(9)))).max_partner == 1


@pytest.mark.parametrize("n", range(4, 31))
def test_every_movement_seats_everyone_once_and_spreads_byes(n: int) -> None:
    players = list(range(1, n + 1))
    rounds = movement(players, min(full_cycle(n), 8))
    for played in rounds:
        _check_round(played, players)
    _check_fair_byes(rounds, players)
    assert repeat_counts(rounds).max_partner == 1  # eight rounds leave room for new partners
    assert rounds == movement(players, min(full_cycle(n), 8))  # deterministic


def test_movement_beyond_the_full_cycle_repeats_partners_only_then() -> None:
    rounds = movement(list(range(8)), 9)
    assert repeat_counts(rounds[:7]).max_partner == 1
    assert len(rounds) == 9


# --- Swiss rounds --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [6, 9, 12, 14, 17, 23, 32])
def test_swiss_rounds_keep_partners_new_and_byes_fair(n: int) -> None:
    rng = random.Random(n)
    players = list(range(1, n + 1))
    score = dict.fromkeys(players, 0)
    rounds: list[IndividualRound] = []
    for _ in range(5):
        field = [IndividualPlayer(id=p, score=score[p], seed=p) for p in players]
        played = seat_swiss_round(field, rounds)
        _check_round(played, players)
        rounds.append(played)
        for table in played.tables:
            for p in table.partnerships[rng.randrange(2)]:
                score[p] += 1
        for p in played.byes:
            score[p] += 1
    _check_fair_byes(rounds, players)
    assert repeat_counts(rounds).max_partner == 1


def test_swiss_seats_the_leaders_together_when_partners_allow() -> None:
    field = [IndividualPlayer(id=p, score=2 if p <= 4 else 0, seed=p) for p in range(1, 9)]
    played = seat_swiss_round(field, [])
    assert any(set(t.players) == {1, 2, 3, 4} for t in played.tables)


def test_swiss_avoids_a_repeated_partner_even_across_score_groups() -> None:
    before = IndividualRound(1, (Table(1, 2, 5, 6), Table(3, 4, 7, 8)), ())
    field = [IndividualPlayer(id=p, score=1 if p in (1, 2, 3, 4) else 0, seed=p) for p in range(1, 9)]
    played = seat_swiss_round(field, [before])
    assert repeat_counts([before, played]).max_partner == 1


def test_swiss_bye_goes_to_the_lowest_placed_without_a_bye() -> None:
    field = [IndividualPlayer(id=p, score=10 - p, seed=p) for p in range(1, 10)]
    first = seat_swiss_round(field, [])
    assert first.byes == (9,)
    second = seat_swiss_round(field, [first])
    assert second.byes != (9,)


# --- standings -----------------------------------------------------------------------------------


def test_each_player_scores_his_pairs_result_and_buchholz_counts_both_opponents() -> None:
    # round 1: 1+2 beat 3+4 12:7; 5 sits out. round 2: 1+3 beat 5+4 12:10; 2 sits out
    results = [
        TableResult(Table(1, 2, 3, 4), ns_eyes=12, ew_eyes=7, winner="NS", round=1),
        TableResult(Table(1, 3, 5, 4), ns_eyes=12, ew_eyes=10, winner="NS", round=2),
    ]
    byes = [(5, 1), (2, 2)]
    rows = {r.player: r for r in individual_standings([1, 2, 3, 4, 5], results, byes=byes)}
    assert (rows[1].match_points, rows[1].eyes_for, rows[1].eyes_against) == (2, 24, 17)
    assert (rows[2].match_points, rows[2].byes, rows[2].eye_difference) == (2, 1, 5)
    assert (rows[4].match_points, rows[4].eyes_for, rows[4].eyes_against) == (0, 17, 24)
    # 1 met 3 and 4, then 5 and 4: 1 + 0 + 0.5 + 0 (5's point is his bye, counted as a draw)
    assert rows[1].buchholz == 1.5
    # 2 met 3 and 4 (1 + 0); his bye in the last round is two virtual opponents with the point he
    # had before it, who lost to him: 1 each
    assert rows[2].buchholz == 1 + 2 * 1
    order = [r.player for r in individual_standings([1, 2, 3, 4, 5], results, byes=byes)]
    assert order[:2] == [1, 2]  # equal points, 1 has the better eye difference (7 v 5)


def test_no_show_partner_and_opponents_win_the_absentee_forfeits() -> None:
    results = [TableResult(Table(1, 2, 3, 4), absent=frozenset({2}))]
    rows = {r.player: r for r in individual_standings([1, 2, 3, 4], results)}
    assert rows[1].match_points == rows[3].match_points == rows[4].match_points == 1
    assert (rows[2].match_points, rows[2].forfeits, rows[2].eyes_against) == (0, 1, 12)
    assert rows[1].eyes_for == 12
    quiet = individual_standings([1, 2, 3, 4], results, points=MatchPoints(forfeit_eyes_count=False))
    assert all(r.eyes_for == r.eyes_against == 0 for r in quiet)
    assert quiet[-1].player == 2


def test_equal_players_share_a_place() -> None:
    results = [TableResult(Table(1, 2, 3, 4), ns_eyes=12, ew_eyes=3, winner="NS")]
    rows = individual_standings([1, 2, 3, 4], results)
    assert [(r.place, r.shared) for r in rows] == [(1, True), (1, True), (3, True), (3, True)]


def test_table_results_are_checked() -> None:
    with pytest.raises(ValueError, match="winner"):
        TableResult(Table(1, 2, 3, 4), ns_eyes=5, ew_eyes=12, winner="NS")
    with pytest.raises(ValueError, match="absentee"):
        TableResult(Table(1, 2, 3, 4), absent=frozenset({9}))
    with pytest.raises(ValueError, match="not in this event"):
        individual_standings([1, 2, 3], [TableResult(Table(1, 2, 3, 4), ns_eyes=12, ew_eyes=0, winner="NS")])


def _best_single_round(players: list[int], before: list[IndividualRound]) -> tuple[int, int]:
    """Exhaustively, the least (partner repeats, opponent repeats) one more round can add.

    Tables are independent once the players are split into fours, so each four's best split
    is found on its own: 5,775 splits of twelve players into fours, three ways each.
    """
    h = history_of(before)
    best: tuple[int, int] | None = None
    for partition in _partitions(players):
        total = (0, 0)
        for a, b, c, d in partition:
            costs = []
            for (n, s), (e, w) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                partner = h.partners[frozenset((n, s))] + h.partners[frozenset((e, w))]
                opponent = sum(h.opponents[frozenset((x, y))] for x in (n, s) for y in (e, w))
                costs.append((partner, opponent))
            low = min(costs)
            total = (total[0] + low[0], total[1] + low[1])
        best = total if best is None or total < best else best
    assert best is not None
    return best


@pytest.mark.parametrize("exact_up_to", [12, 8])
@pytest.mark.parametrize("seed", range(6))
def test_seater_seats_twelve_as_well_as_trying_every_seating(
    seed: int, exact_up_to: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked against all 155,925 seatings of twelve players after three random rounds, both
    by the seater's own enumeration and by its local search (forced by lowering the limit)."""
    monkeypatch.setattr(seating, "EXACT_SEATING_LIMIT", exact_up_to)
    rng = random.Random(seed)
    players = list(range(1, 13))
    before: list[IndividualRound] = []
    for number in range(1, 4):
        shuffled = rng.sample(players, 12)
        tables = tuple(Table(*shuffled[i : i + 4]) for i in range(0, 12, 4))
        before.append(IndividualRound(number, tables, ()))
    field = [IndividualPlayer(id=p, seed=p) for p in players]
    ours = seat_swiss_round(field, before)
    h = history_of(before)
    partner = sum(h.partners[frozenset(pair)] for t in ours.tables for pair in t.partnerships)
    opponent = sum(h.opponents[frozenset(pair)] for t in ours.tables for pair in t.opponent_pairs())
    assert (partner, opponent) == _best_single_round(players, before)
