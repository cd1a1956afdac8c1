"""Eyes at physical tables: final scores and deal-by-deal score sheets (RULES.md, "Scoring a deal")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine.sheets import (
    POSSIBLE_POINTS,
    DealSummary,
    InvalidScore,
    ScoringRules,
    score_sheet,
    validate_final_score,
)


def deal(ns: int, jack: int, all_tricks: int | None = None) -> DealSummary:
    return DealSummary(points=(ns, 120 - ns), jack_holder=jack, all_tricks=all_tricks)


def eyes_of(*deals: DealSummary, **rules: object) -> list[tuple[int, int]]:
    sheet = score_sheet(list(deals), ScoringRules(**rules))  # type: ignore[arg-type]
    return [line.result.eyes for line in sheet.lines]


def test_worked_examples_of_rules_md() -> None:
    assert eyes_of(deal(68, jack=0)) == [(1, 0)]  # on duty, 68: 1 eye
    assert eyes_of(deal(71, jack=1)) == [(2, 0)]  # against the jack holders, 71: 2 eyes
    assert eyes_of(deal(94, jack=1)) == [(3, 0)]  # against them, 94 (they 26): 3 eyes


def test_rout_threshold_is_a_table_parameter() -> None:
    assert eyes_of(deal(30, jack=1)) == [(0, 2)]  # 90 is a rout by default
    assert eyes_of(deal(30, jack=1), rout_at=91) == [(0, 1)]
    assert eyes_of(deal(29, jack=1), rout_at=91) == [(0, 2)]


@pytest.mark.parametrize(("eggs", "expected"), [("double", 3), ("four", 8), ("plus_four", 9)])
def test_two_eggs_raise_the_next_decided_deal(eggs: str, expected: int) -> None:
    sheet = score_sheet([deal(60, 0), deal(60, 1), deal(50, jack=1)], ScoringRules(eggs=eggs))
    assert [line.result.outcome for line in sheet.lines] == ["eggs", "eggs", "win"]
    assert [line.eggs_before for line in sheet.lines] == [0, 1, 2]
    assert sheet.score == (0, expected)


def test_eggs_count_restarts_after_a_decided_deal() -> None:
    sheet = score_sheet([deal(60, 0), deal(70, 0), deal(70, 0)])
    assert [line.score for line in sheet.lines] == [(0, 0), (2, 0), (3, 0)]


def test_lucy_win_ends_the_match_at_once() -> None:
    sheet = score_sheet([deal(70, 0), deal(20, 1), deal(120, 0, all_tricks=0)])
    assert sheet.score == (12, 2) and sheet.winner == 0
    assert sheet.lines[-1].result.outcome == "lucy" and sheet.lines[-1].result.match_won == 0
    with pytest.raises(InvalidScore, match="after the match was won"):
        score_sheet([deal(120, 0, all_tricks=0), deal(70, 0)])


def test_lucy_zero_resets_the_others_and_scores_a_rout_with_the_eggs() -> None:
    rules = ScoringRules(lucy="zero")
    sheet = score_sheet([deal(70, 0), deal(70, 0), deal(60, 1), deal(0, 1, all_tricks=1)], rules)
    assert [line.score for line in sheet.lines] == [(1, 0), (2, 0), (2, 0), (0, 4)]
    assert sheet.lines[-1].result.reset == 0 and sheet.winner is None


def test_lucy_by_tricks_needs_every_trick_and_by_points_all_120() -> None:
    # 120 points without every trick: the others took a trick of blanks.
    assert score_sheet([deal(120, 0)]).lines[0].result.outcome == "rout"
    by_points = score_sheet([deal(120, 0)], ScoringRules(lucy_by="points"))
    assert by_points.lines[0].result.outcome == "lucy" and by_points.winner == 0


def test_first_deal_opens_exactly_two_eyes_when_the_table_says_so() -> None:
    rules = ScoringRules(first_deal_two_eyes=True)
    assert score_sheet([deal(95, 1), deal(95, 1)], rules).score == (5, 0)  # 2, then 3
    assert score_sheet([deal(70, 0)], rules).score == (2, 0)
    # The first deal was eggs: the rule lapses and the eggs double the next deal.
    assert score_sheet([deal(60, 0), deal(70, 0)], rules).score == (2, 0)
    assert score_sheet([deal(60, 0), deal(95, 1)], rules).score == (6, 0)


def test_scores_are_capped_at_twelve_and_the_match_ends_there() -> None:
    sheet = score_sheet([deal(95, 1)] * 3 + [deal(70, 0), deal(95, 1)])
    assert [line.score for line in sheet.lines] == [(3, 0), (6, 0), (9, 0), (10, 0), (12, 0)]
    assert sheet.lines[-1].result.eyes == (3, 0)
    assert sheet.winner == 0


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        (DealSummary(points=(70, 40), jack_holder=0), "add up to 120"),
        (DealSummary(points=(130, -10), jack_holder=0), "0 to 120"),
        (deal(119, 0), "worth 119 points"),
        (deal(120, 1), "at least its 2 points"),
        (deal(118, 0, all_tricks=1), "only the pair holding the jack"),
        (deal(100, 0, all_tricks=0), "took all 120"),
        (deal(70, 2), "pair 0 or 1"),
    ],
)
def test_impossible_deals_are_refused_with_their_number(summary: DealSummary, message: str) -> None:
    with pytest.raises(InvalidScore, match=f"deal 2: .*{message}"):
        score_sheet([deal(70, 0), summary])


def test_counting_cards_cannot_make_one_point() -> None:
    assert 1 not in POSSIBLE_POINTS and 119 not in POSSIBLE_POINTS
    assert {0, 2, 3, 5, 60, 117, 118, 120} <= POSSIBLE_POINTS


def test_rules_come_from_a_table_rules_object_and_are_checked() -> None:
    rules = ScoringRules.from_rules({"rout_at": 91, "eggs": "four", "deck": "36", "move_seconds": 90})
    assert rules == ScoringRules(rout_at=91, eggs="four")
    with pytest.raises(InvalidScore, match="rout_at"):
        ScoringRules.from_rules({"rout_at": True})
    with pytest.raises(InvalidScore, match="lucy"):
        ScoringRules(lucy="sometimes")


@pytest.mark.parametrize(("eyes", "winner"), [((12, 0), 0), ((11, 12), 1), ((12, 7), 0)])
def test_valid_final_scores(eyes: tuple[int, int], winner: int) -> None:
    assert validate_final_score(eyes) == winner


@pytest.mark.parametrize(
    ("eyes", "forfeit", "message"),
    [
        ((12, 12), False, "both pairs"),
        ((11, 10), False, "a pair at 12"),
        ((13, 0), False, "0 to 12"),
        ((12, -1), False, "0 to 12"),
        ((12, 5), True, "forfeit is scored 12:0"),
    ],
)
def test_impossible_final_scores(eyes: tuple[int, int], forfeit: bool, message: str) -> None:
    with pytest.raises(InvalidScore, match=message):
        validate_final_score(eyes, forfeit=forfeit)


def test_a_forfeit_is_twelve_nil() -> None:
    assert validate_final_score((0, 12), forfeit=True) == 1


points = st.sampled_from(sorted(p for p in POSSIBLE_POINTS if 2 <= p <= 118))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(points, st.integers(0, 1)), min_size=1, max_size=40),
    st.sampled_from(["double", "four", "plus_four"]),
    st.sampled_from(["win", "zero"]),
)
def test_any_played_match_reads_back_as_a_valid_final_score(
    deals: list[tuple[int, int]], eggs: str, lucy: str
) -> None:
    sheet_deals: list[DealSummary] = []
    rules = ScoringRules(eggs=eggs, lucy=lucy)
    for ns, jack in deals:
        sheet_deals.append(deal(ns, jack))
        sheet = score_sheet(sheet_deals, rules)
        assert all(0 <= s <= 12 for s in sheet.score)
        if sheet.winner is not None:
            assert validate_final_score(sheet.score) == sheet.winner
            break
