"""Single elimination: seeding, byes to the top seeds, advancing, third place, best-of-N."""

from __future__ import annotations

import random

import pytest

from tournaments.core.knockout import (
    Bracket,
    KnockoutMatch,
    bracket_size,
    knockout_bracket,
    seed_by_rating,
    seed_positions,
    series_outcome,
)


def test_standard_seed_placement_for_sixteen() -> None:
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def play_out_by_seed(seeded: list[int], *, third_place: bool) -> Bracket:
    """Let the better seed (lower id here) win every match, round by round, as a caller would."""
    winners: dict[tuple[int, int], int] = {}
    while True:
        bracket = knockout_bracket(seeded, winners, third_place=third_place)
        pending = bracket.pending()
        if not pending:
            return bracket
        for match in pending:
            assert match.top is not None and match.bottom is not None
            winners[(match.round, match.slot)] = min(match.top, match.bottom)


@pytest.mark.parametrize("n", range(2, 34))
def test_bracket_for_every_field_size_from_2_to_33(n: int) -> None:
    seeded = list(range(1, n + 1))  # entry id = seed
    size = bracket_size(n)
    assert size >= n > size // 2
    bracket = knockout_bracket(seeded, third_place=n >= 4)
    first = bracket.rounds[0]
    assert len(first) == size // 2
    assert len(bracket.rounds) == size.bit_length() - 1
    assert sorted(e for m in first for e in (m.top, m.bottom) if e is not None) == seeded
    byes = sorted(m.winner for m in first if m.bye if m.winner is not None)
    assert byes == list(range(1, size - n + 1))  # the byes go to the top seeds
    for m in first:
        if not m.bye:
            assert m.top is not None and m.bottom is not None
            assert m.top + m.bottom == size + 1  # 1 v 16, 8 v 9, ...

    final = play_out_by_seed(seeded, third_place=n >= 4)
    assert final.champion == 1
    assert final.final.loser == 2  # 1 and 2 meet only in the final
    assert all(m.winner is not None for r in final.rounds for m in r)
    if n >= 4:
        semis = final.rounds[-2]
        assert {semis[0].top, semis[0].bottom} == {1, 4}
        assert {semis[1].top, semis[1].bottom} == {2, 3}
        assert final.third_place is not None
        assert {final.third_place.top, final.third_place.bottom} == {3, 4}
        assert final.third_place.winner == 3
    else:
        assert final.third_place is None
    # every entry loses exactly once, except the champion
    losers = [m.loser for r in final.rounds for m in r if m.loser is not None]
    assert sorted(losers) == seeded[1:]


def test_winners_advance_round_by_round_and_the_next_match_waits_for_both() -> None:
    bracket = knockout_bracket([10, 20, 30, 40], {(1, 0): 40})
    assert bracket.rounds[1][0] == KnockoutMatch(round=2, slot=0, top=40, bottom=None, winner=None)
    assert [(m.round, m.slot) for m in bracket.pending()] == [(1, 1)]
    bracket = knockout_bracket([10, 20, 30, 40], {(1, 0): 40, (1, 1): 20, (2, 0): 20})
    assert bracket.champion == 20 and bracket.final.loser == 40


def test_a_bye_advances_at_once_and_takes_no_result() -> None:
    bracket = knockout_bracket([1, 2, 3])
    assert bracket.rounds[0][0].bye and bracket.rounds[0][0].winner == 1
    assert bracket.rounds[1][0].top == 1
    with pytest.raises(ValueError, match="bye"):
        knockout_bracket([1, 2, 3], {(1, 0): 1})


def test_refuses_impossible_results() -> None:
    with pytest.raises(ValueError, match="not playing"):
        knockout_bracket([1, 2, 3, 4], {(1, 0): 2})
    with pytest.raises(ValueError, match="not both known"):
        knockout_bracket([1, 2, 3, 4], {(2, 0): 1})
    with pytest.raises(ValueError, match="do not exist"):
        knockout_bracket([1, 2, 3, 4], {(5, 0): 1})
    with pytest.raises(ValueError, match="twice"):
        knockout_bracket([1, 1, 3])
    with pytest.raises(ValueError, match="four entries"):
        knockout_bracket([1, 2, 3], third_place=True)
    with pytest.raises(ValueError, match="two entries"):
        knockout_bracket([1])


def test_seeding_by_rating_puts_unrated_entries_last_in_random_order() -> None:
    order = seed_by_rating({1: 1400, 2: None, 3: 1700, 4: None, 5: 1500}, random.Random(3))
    assert order[:3] == [3, 5, 1]
    assert set(order[3:]) == {2, 4}
    orders = {tuple(seed_by_rating({1: None, 2: None, 3: None}, random.Random(s))) for s in range(30)}
    assert len(orders) > 1


def test_best_of_three_ends_at_two_wins() -> None:
    assert series_outcome([(12, 5)], 3).winner is None
    done = series_outcome([(12, 5), (3, 12), (7, 12)], 3)
    assert (done.top_wins, done.bottom_wins, done.winner) == (1, 2, "bottom")
    assert series_outcome([(12, 5), (12, 11)], 3).winner == "top"
    with pytest.raises(ValueError, match="after the series was decided"):
        series_outcome([(12, 5), (12, 11), (0, 12)], 3)


def test_a_level_even_series_goes_to_eye_difference_then_a_decider() -> None:
    assert series_outcome([(12, 5), (10, 12)], 2).winner == "top"
    level = series_outcome([(12, 10), (10, 12)], 2)
    assert level.winner is None and level.needs_decider
    assert series_outcome([(12, 10), (10, 12), (3, 12)], 2).winner == "bottom"
    with pytest.raises(ValueError, match="after the series was decided"):
        series_outcome([(12, 10), (10, 12), (3, 12), (12, 0)], 2)


def test_series_refuses_a_match_without_winner() -> None:
    with pytest.raises(ValueError, match="no winner"):
        series_outcome([(12, 12)], 1)


def test_a_forfeit_loses_its_match_not_the_series() -> None:
    """A 12:0 forfeit of match 2 of a best of 3 at 1:0 levels the tie; match 3 decides it."""
    level = series_outcome([(12, 5), (0, 12)], 3)
    assert (level.top_wins, level.bottom_wins, level.winner, level.needs_decider) == (1, 1, None, False)
    assert series_outcome([(12, 5), (0, 12), (12, 9)], 3).winner == "top"
    assert series_outcome([(12, 0)], 5).winner is None  # one forfeit of five: 1:0, not the tie
    assert series_outcome([(12, 0), (12, 0)], 3).winner == "top"  # forfeits of two matches: 2:0
