"""Double elimination: two losses eliminate, drops cross over, the grand final and its reset."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.core.double_elim import DoubleElimBracket, DoubleElimKey, double_elim_bracket


def play_out(
    n: int, rng: random.Random, *, reset: bool
) -> tuple[DoubleElimBracket, dict[DoubleElimKey, int]]:
    """Random winners, one pending match at a time in random order, as results would come in."""
    seeded = list(range(1, n + 1))
    winners: dict[DoubleElimKey, int] = {}
    while True:
        bracket = double_elim_bracket(seeded, winners, grand_final_reset=reset)
        pending = bracket.pending()
        entries = [e for m in pending for e in (m.top, m.bottom)]
        assert len(entries) == len(set(entries))  # nobody is due in two matches at once
        if not pending:
            return bracket, winners
        match = rng.choice(pending)
        assert match.top is not None and match.bottom is not None
        winners[match.key] = rng.choice([match.top, match.bottom])


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("n", range(2, 18))
def test_random_events_end_with_a_champion_after_2n_minus_2_or_1_matches(n: int, reset: bool) -> None:
    for seed in range(30):
        bracket, winners = play_out(n, random.Random(seed * 100 + n), reset=reset)
        champion = bracket.champion
        assert champion is not None
        played = [m for m in bracket.matches() if not m.bye]
        assert len(played) == len(winners)
        losses = Counter(m.loser for m in played)
        assert all(count <= 2 for count in losses.values())
        # everyone but the champion is out: two losses, or one for a winners' champion beaten in
        # a final without reset
        out = {e for e, count in losses.items() if count == 2}
        if not reset and bracket.grand_final.winner != bracket.grand_final.top:
            out.add(bracket.grand_final.top)  # type: ignore[arg-type]
        assert out == set(range(1, n + 1)) - {champion}
        assert losses[champion] <= 1  # even after a reset: the winner of the second final lost once
        if bracket.reset is not None:
            assert len(played) == 2 * n - 1
        else:
            assert len(played) == 2 * n - 2


def test_reset_is_played_only_when_the_losers_champion_wins_the_first_final() -> None:
    seeded = [1, 2, 3, 4]
    w: dict[DoubleElimKey, int] = {("winners", 1, 0): 1, ("winners", 1, 1): 2, ("winners", 2, 0): 1}
    w |= {("losers", 1, 0): 3, ("losers", 2, 0): 2}
    bracket = double_elim_bracket(seeded, w, grand_final_reset=True)
    final = bracket.grand_final
    assert (final.top, final.bottom) == (1, 2)
    assert bracket.pending() == [final]
    after = double_elim_bracket(seeded, w | {("final", 1, 0): 2}, grand_final_reset=True)
    assert after.reset is not None and after.champion is None
    assert (after.reset.top, after.reset.bottom) == (1, 2)
    done = double_elim_bracket(seeded, w | {("final", 1, 0): 2, ("final", 2, 0): 2}, grand_final_reset=True)
    assert done.champion == 2
    no_reset = double_elim_bracket(seeded, w | {("final", 1, 0): 2}, grand_final_reset=False)
    assert no_reset.reset is None and no_reset.champion == 2
    kept = double_elim_bracket(seeded, w | {("final", 1, 0): 1}, grand_final_reset=True)
    assert kept.reset is None and kept.champion == 1


def test_favourites_win_means_seed_one_champion_and_seed_two_losers_champion() -> None:
    for n in range(2, 20):
        seeded = list(range(1, n + 1))
        w: dict[DoubleElimKey, int] = {}
        while (pending := double_elim_bracket(seeded, w).pending()) != []:
            for m in pending:
                w[m.key] = min(m.top or 0, m.bottom or 0)
        bracket = double_elim_bracket(seeded, w)
        assert bracket.champion == 1
        assert bracket.grand_final.bottom == 2


def test_second_round_losers_drop_crosswise_to_avoid_an_immediate_rematch() -> None:
    seeded = list(range(1, 9))
    # winners' round 1 by seed; then in round 2 the lower seed wins both top matches
    w: dict[DoubleElimKey, int] = {("winners", 1, i): s for i, s in enumerate([1, 4, 2, 3])}
    w |= {("winners", 2, 0): 4, ("winners", 2, 1): 3}
    w |= {("losers", 1, 0): 8, ("losers", 1, 1): 7}
    bracket = double_elim_bracket(seeded, w)
    major = bracket.losers_rounds[1]
    # 1 lost to 4 in winners' round 2; 8 lost to 1 in round 1: they must not meet at once
    pairs = [{m.top, m.bottom} for m in major]
    assert {1, 8} not in pairs and {2, 7} not in pairs
    assert pairs == [{8, 2}, {7, 1}]


def test_byes_pass_through_the_losers_bracket() -> None:
    bracket = double_elim_bracket([1, 2, 3], {("winners", 1, 1): 2})
    first = bracket.losers_rounds[0][0]
    assert first.bye and first.winner == 3
    assert [m.key for m in bracket.pending()] == [("winners", 2, 0)]


def test_results_are_checked() -> None:
    with pytest.raises(ValueError, match="bye"):
        double_elim_bracket([1, 2, 3], {("winners", 1, 0): 1})
    with pytest.raises(ValueError, match="not playing"):
        double_elim_bracket([1, 2, 3, 4], {("winners", 1, 0): 2})
    with pytest.raises(ValueError, match="not both known"):
        double_elim_bracket([1, 2, 3, 4], {("losers", 1, 0): 4})
    with pytest.raises(ValueError, match="do not exist"):
        double_elim_bracket([1, 2], {("losers", 1, 0): 2, ("winners", 1, 0): 1})
    with pytest.raises(ValueError, match="twice"):
        double_elim_bracket([1, 1])
