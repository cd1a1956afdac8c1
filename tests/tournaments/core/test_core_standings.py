"""Standings on small hand-computed tables: ties, head-to-head, Buchholz, byes, withdrawals."""

from __future__ import annotations

import pytest

from tournaments.core.standings import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    MatchPoints,
    MatchResult,
    StandingRow,
    Tiebreak,
    compute_standings,
)


def won(winner: int, loser: int, eyes: int = 0, **extra: int | bool | None) -> MatchResult:
    """A result where ``winner`` (home) took 12 eyes to ``eyes``."""
    return MatchResult(home=winner, away=loser, home_eyes=12, away_eyes=eyes, winner=winner, **extra)  # type: ignore[arg-type]


def order(rows: list[StandingRow]) -> list[tuple[int, int]]:
    return [(row.place, row.entry) for row in rows]


def test_three_way_tie_with_a_level_mini_table_goes_to_eye_difference() -> None:
    # A=1 beats B 12:5, B beats C 12:8, C beats A 12:10; all beat D.
    results = [won(1, 2, 5), won(2, 3, 8), won(3, 1, 10), won(1, 4, 0), won(2, 4, 3), won(3, 4, 11)]
    rows = compute_standings([1, 2, 3, 4], results, tiebreaks=ROUND_ROBIN_TIEBREAKS)
    assert order(rows) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert [r.eye_difference for r in rows] == [17, 6, -1, -22]
    assert [r.match_points for r in rows] == [2, 2, 2, 0]
    assert not any(r.shared for r in rows)


def test_head_to_head_is_applied_again_to_the_entries_it_left_tied() -> None:
    # A..D = 1..4 tie on 2 points; their mini-table is A 2, B 2, C 1, D 1. Re-applied, A beat B
    # and C beat D — although B and D have the better eye differences.
    results = [
        won(1, 2, 11),
        won(1, 3, 11),
        won(2, 3, 0),
        won(2, 4, 0),
        won(3, 4, 11),
        won(4, 1, 0),
        won(3, 6, 11),
        won(4, 6, 0),
    ]
    rows = compute_standings([1, 2, 3, 4, 5, 6], results, tiebreaks=ROUND_ROBIN_TIEBREAKS)
    assert order(rows) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
    assert [r.eye_difference for r in rows[:4]] == [-10, 23, -11, 11]
    by_eyes = compute_standings([1, 2, 3, 4, 5, 6], results, tiebreaks=[Tiebreak.EYE_DIFFERENCE])
    assert [r.entry for r in by_eyes[:4]] == [2, 4, 1, 3]


def test_head_to_head_separates_nobody_until_all_tied_entries_have_met() -> None:
    # 1 and 2 are level; they never met, so eye difference decides, not head-to-head.
    results = [won(1, 3, 10), won(2, 4, 2)]
    rows = compute_standings([1, 2, 3, 4], results, tiebreaks=ROUND_ROBIN_TIEBREAKS)
    assert [r.entry for r in rows] == [2, 1, 3, 4]


def test_entries_level_on_everything_share_the_place() -> None:
    rows = compute_standings([1, 2, 3, 4], [won(1, 3, 6), won(2, 4, 6)], tiebreaks=SWISS_TIEBREAKS)
    assert order(rows) == [(1, 1), (1, 2), (3, 3), (3, 4)]
    assert all(r.shared for r in rows)


def test_swiss_with_a_bye_and_a_withdrawal() -> None:
    # Round 1: 1 beats 4 12:7, 2 beats 5 12:9, 3 has the bye. Entry 5 then withdraws.
    # Round 2: 1 beats 2 12:10, 3 beats 4 12:3.
    results = [
        won(1, 4, 7, round=1),
        won(2, 5, 9, round=1),
        MatchResult(home=3, away=None, bye=True, round=1),
        won(1, 2, 10, round=2),
        won(3, 4, 3, round=2),
    ]
    rows = compute_standings([1, 2, 3, 4, 5], results, tiebreaks=SWISS_TIEBREAKS, withdrawn={5})
    by_entry = {r.entry: r for r in rows}
    assert [r.entry for r in rows] == [1, 3, 2, 4, 5]
    # Buchholz: opponents' points, an opponent's bye counted as a draw (3 counts 1.5 for 4); 3's
    # bye is a virtual opponent with 0 points before round 1 who lost it and drew round 2: 0.5.
    assert {e: r.buchholz for e, r in by_entry.items()} == {1: 1, 2: 2, 3: 0.5, 4: 3.5, 5: 1}
    assert {e: r.sonneborn_berger for e, r in by_entry.items()} == {1: 1, 2: 0, 3: 0.5, 4: 0, 5: 0}
    # The bye's eyes do not count; it is not a played match.
    three = by_entry[3]
    assert (three.eyes_for, three.eyes_against, three.played, three.byes, three.match_points) == (
        12,
        3,
        1,
        1,
        2,
    )
    assert by_entry[5].withdrawn and not by_entry[1].withdrawn
    assert (by_entry[5].match_points, by_entry[5].played) == (0, 1)


def test_a_late_bye_counts_less_in_the_tiebreaks_than_a_real_win() -> None:
    # Round 1: 1 beats 2, 3 beats 4. Pair 5 enters late and has the bye in round 2, where 2 beats 3
    # and 1 beats 4. 2 and 5 have one point each: 2 from a real win over a pair with a point, 5
    # from the bye alone, whose virtual opponent had 5's 0 points before it and lost it.
    results = [
        won(1, 2, 5, round=1),
        won(3, 4, 5, round=1),
        won(2, 3, 5, round=2),
        won(1, 4, 5, round=2),
        MatchResult(home=5, away=None, bye=True, round=2),
    ]
    rows = {r.entry: r for r in compute_standings([1, 2, 3, 4, 5], results, tiebreaks=SWISS_TIEBREAKS)}
    assert (rows[5].match_points, rows[5].buchholz, rows[5].sonneborn_berger) == (1, 0, 0)
    assert (rows[2].match_points, rows[2].buchholz, rows[2].sonneborn_berger) == (1, 3, 1)
    assert rows[2].place < rows[5].place


def test_an_early_bye_counts_as_a_virtual_opponent_who_draws_the_later_rounds() -> None:
    # FIDE's formula: S_von = S_before + (1 - bye) + 0.5 * (n - R). A bye in round 1 of 3: 0 + 0 + 1.
    results = [
        MatchResult(home=1, away=None, bye=True, round=1),
        won(2, 3, 0, round=1),
        won(1, 2, 0, round=2),
        won(3, 1, 0, round=3),
    ]
    rows = {r.entry: r for r in compute_standings([1, 2, 3], results, tiebreaks=SWISS_TIEBREAKS)}
    # 1 met 2 (1 point) and 3 (1 point), and the virtual opponent (1): 3; beat 2 and the virtual one: 2
    assert (rows[1].buchholz, rows[1].sonneborn_berger) == (3, 2)
    # 2 and 3 met 1, whose bye counts as a draw: 2 - 0.5 = 1.5
    assert rows[2].buchholz == 1.5 + 1 and rows[3].buchholz == 1 + 1.5


def test_lucy_deals_break_a_tie_where_everything_else_is_level() -> None:
    results = [won(1, 3, 6, home_lucy=0), won(2, 4, 6, home_lucy=2, away_lucy=None)]
    rows = compute_standings([1, 2, 3, 4], results)
    assert order(rows)[:2] == [(1, 2), (2, 1)]
    assert rows[0].lucy == 2


def test_match_points_are_configurable_and_forfeits_can_be_left_out_of_the_eyes() -> None:
    results = [won(1, 2, 0, forfeit=True), won(3, 4, 11)]
    table = MatchPoints(win=3, loss=1, bye=3, forfeit_loss=0, forfeit_eyes_count=False)
    rows = {r.entry: r for r in compute_standings([1, 2, 3, 4], results, points=table)}
    assert (rows[1].match_points, rows[2].match_points, rows[4].match_points) == (3, 0, 1)
    assert (rows[1].eyes_for, rows[2].eyes_against) == (0, 0)
    default = {r.entry: r for r in compute_standings([1, 2, 3, 4], results)}
    assert default[1].eye_difference == 12
    # 3 beat 4 12:11, 1 won a forfeit 12:0: with forfeit eyes counted, 1 ranks first.
    assert compute_standings([1, 2, 3, 4], results, tiebreaks=[Tiebreak.EYE_DIFFERENCE])[0].entry == 1


def test_the_tiebreak_order_is_followed() -> None:
    # On 1 point: entry 1 (beat 3 12:0, eye difference +12, Buchholz 0), entry 4 (lost 11:12 to 2,
    # beat 5 12:0: +11, Buchholz 1), entry 2 (beat 4 12:11: +1, Buchholz 1).
    results = [won(1, 3, 0), won(2, 4, 11), won(4, 5, 0)]
    entries = [1, 2, 3, 4, 5]
    eyes_first = compute_standings(entries, results, tiebreaks=[Tiebreak.EYE_DIFFERENCE, Tiebreak.BUCHHOLZ])
    assert order(eyes_first)[:3] == [(1, 1), (2, 4), (3, 2)]
    buchholz_only = compute_standings(entries, results, tiebreaks=[Tiebreak.BUCHHOLZ])
    assert order(buchholz_only)[:3] == [(1, 2), (1, 4), (3, 1)]
    buchholz_then_eyes = compute_standings(
        entries, results, tiebreaks=[Tiebreak.BUCHHOLZ, Tiebreak.EYE_DIFFERENCE]
    )
    assert order(buchholz_then_eyes)[:3] == [(1, 4), (2, 2), (3, 1)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"home": 1, "away": 1, "home_eyes": 12, "winner": 1}, "two different"),
        ({"home": 1, "away": 2, "home_eyes": 12, "winner": 3}, "not one of"),
        ({"home": 1, "away": 2, "home_eyes": 13, "winner": 1}, "0 to 12"),
        ({"home": 1, "away": 2, "home_eyes": 5, "away_eyes": 12, "winner": 1}, "fewer eyes"),
        ({"home": 1, "away": 2, "bye": True}, "no opponent"),
        ({"home": 1, "away": 2, "home_eyes": 12, "winner": 1, "home_lucy": -1}, "negative"),
    ],
)
def test_impossible_results_are_refused(kwargs: dict[str, int | bool], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MatchResult(**kwargs)  # type: ignore[arg-type]


def test_results_for_unknown_entries_are_refused() -> None:
    with pytest.raises(ValueError, match="not in this tournament"):
        compute_standings([1, 2], [won(1, 9)])
