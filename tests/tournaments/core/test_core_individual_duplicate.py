"""The individual duplicate's pure core: the full movement with one board set a round (every player
plays each board of his rounds once, every table of a round plays its set), and each player's score
from his sides' percentages, docs/duplicate.md's worked example computed by hand."""

from collections import defaultdict
from fractions import Fraction

import pytest

from tests.docs.test_docs_examples import ROOT, example_table
from tournaments.core.duplicate import TableResult, event_scores, finished, percentages
from tournaments.core.movement import movement

BOARDS = 3  # per round


@pytest.mark.parametrize("n", range(4, 14))
def test_every_player_plays_each_board_of_his_rounds_once_and_every_table_plays_the_rounds_set(n):
    rounds = movement(list(range(1, n + 1)))
    boards_of: dict[int, list[int]] = defaultdict(list)
    plays: dict[int, int] = defaultdict(int)
    for rnd in rounds:
        boards = range((rnd.number - 1) * BOARDS + 1, rnd.number * BOARDS + 1)  # set r in round r
        seated = [p for t in rnd.tables for p in t.players]
        assert len(seated) == len(set(seated)) == n - len(rnd.byes) == 4 * (n // 4)
        for table in rnd.tables:
            for p in table.players:
                boards_of[p] += list(boards)
            for b in boards:
                plays[b] += 1
    for p, boards in boards_of.items():
        assert len(boards) == len(set(boards)), f"player {p} played a board twice"
    assert set(plays.values()) == {n // 4}  # each board at every table of its round
    sat_out = {p: sum(p in r.byes for r in rounds) for p in range(1, n + 1)}
    for p in range(1, n + 1):  # a player plays every board but those of the rounds he sat out
        assert len(boards_of[p]) == BOARDS * (len(rounds) - sat_out[p])


# docs/duplicate.md, "Individual duplicate": twelve players at three tables in round 1. Sides (one
# partnership at one table): 101 = players 1 and 2 (NS at table 1) against 102 = 3 and 4; 103 = 5
# and 6 against 104 = 7 and 8; 105 = 9 and 10 against 106 = 11 and 12. Player 12 left before
# board 2: table 3 did not play it, his side is at fault.
SIDES = {101: (1, 2), 102: (3, 4), 103: (5, 6), 104: (7, 8), 105: (9, 10), 106: (11, 12)}
RESULTS = [
    TableResult(1, 101, 102, 80), TableResult(1, 103, 104, 70), TableResult(1, 105, 106, 60),
    TableResult(2, 101, 102, 65), TableResult(2, 103, 104, 55),
    TableResult(2, 105, 106, None, ("plus", "minus")),
]  # fmt: skip
ABSENT = {106: frozenset({12})}


def test_the_worked_example_by_hand():
    # board 1: 80, 70, 60 at three tables: NS 4, 2, 0 matchpoints of a top of 4 -> 100, 50, 0 %.
    # board 2, played twice: 65 beats 55 (2 of a top of 2); Neuberg to three results:
    # (2 + 1) * 3/2 - 1 = 3.5 of 4 -> 87.5 %, and (0 + 1) * 3/2 - 1 = 0.5 -> 12.5 %.
    # table 3: NS not at fault 60 %; player 12 at fault 40 %, his partner 11 not, 60 %.
    assert percentages(RESULTS, SIDES, ABSENT) == {
        1: [100, Fraction(175, 2)], 2: [100, Fraction(175, 2)],
        3: [0, Fraction(25, 2)], 4: [0, Fraction(25, 2)],
        5: [50, Fraction(25, 2)], 6: [50, Fraction(25, 2)],
        7: [50, Fraction(175, 2)], 8: [50, Fraction(175, 2)],
        9: [0, 60], 10: [0, 60], 11: [100, 60], 12: [100, 40],
    }  # fmt: skip
    scores = event_scores(RESULTS, SIDES, ABSENT)
    assert scores == {1: Fraction(375, 4), 2: Fraction(375, 4), 3: Fraction(25, 4), 4: Fraction(25, 4),
                      5: Fraction(125, 4), 6: Fraction(125, 4), 7: Fraction(275, 4), 8: Fraction(275, 4),
                      9: 30, 10: 30, 11: 80, 12: 70}  # fmt: skip
    # without anyone marked absent, the side's adjusted score is both players'
    assert event_scores(RESULTS, SIDES)[11] == 70


def test_a_player_who_sat_out_is_averaged_over_the_boards_he_played():
    sides = {1: (1, 2), 2: (3, 4), 3: (5, 6), 4: (7, 8), 5: (1, 3), 6: (5, 9), 7: (2, 7), 8: (4, 8)}
    results = [TableResult(1, 1, 2, 70), TableResult(1, 3, 4, 50),  # round 1: player 9 sits out
               TableResult(2, 5, 6, 60), TableResult(2, 7, 8, 60)]  # round 2: player 6 sits out
    scores = event_scores(results, sides)
    assert scores[9] == 50 and scores[6] == 0 and scores[1] == 75  # 9: one board, 50 %
    assert len(percentages(results, sides)[9]) == 1


def test_a_board_is_finished_once_every_table_that_plays_it_has_a_result():
    assert finished(RESULTS, {1: 3, 2: 3, 3: 3}) == {1, 2}
    assert finished(RESULTS[:4], {1: 3, 2: 3}) == {1}
    assert finished([], {1: 0}) == set()


def test_the_docs_table_of_averages_is_the_cores():
    rows = example_table(ROOT / "docs" / "duplicate.md", "individual-averages")
    scores = event_scores(RESULTS, SIDES, ABSENT)
    shown = percentages(RESULTS, SIDES, ABSENT)
    assert sum(len(r[0].split(",")) for r in rows) == 12
    for who, first, second, average in rows:
        for player in (int(p) for p in who.split(",")):
            assert shown[player] == [Fraction(first), Fraction(second)]
            assert scores[player] == Fraction(average)
