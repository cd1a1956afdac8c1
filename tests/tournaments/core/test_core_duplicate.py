"""Duplicate Bilka's pure core: matchpoints with the Neuberg correction, adjusted scores, a board's
value in points or eyes, and the movements (no pair plays a board twice or meets a pair twice,
every board played the same number of times), with the table cards for 6, 8, 10 and 12 pairs."""

from fractions import Fraction

import pytest

from gameplay.engine.rules import Rules
from tournaments.core.duplicate import (
    EW,
    NS,
    TableResult,
    board_value,
    check_movement,
    event_scores,
    howell,
    matchpoints,
    mitchell,
    neuberg,
    score_boards,
    table_cards,
)


def test_matchpoints_two_for_each_beaten_one_for_each_tie():
    # docs/duplicate.md's worked example: four tables, NS took 90, 70, 70 and 50 card points
    mp = matchpoints({1: 90, 2: 70, 3: 70, 4: 50})
    assert mp == {1: 6, 2: 3, 3: 3, 4: 0}


def test_the_neuberg_correction_brings_a_board_to_the_event_scale():
    assert neuberg(Fraction(4), 3, 4) == Fraction(17, 3)  # (4 + 1) * 4 / 3 - 1
    assert neuberg(Fraction(3), 4, 4) == 3  # played as often as the most: unchanged
    assert neuberg(Fraction(0), 1, 4) == 3  # alone on a board: an average
    with pytest.raises(ValueError):
        neuberg(Fraction(0), 5, 4)


def test_board_scores_compare_each_direction_and_sum_to_the_top():
    results = [TableResult(1, ns, ew, v) for ns, ew, v in ((1, 5, 90), (2, 6, 70), (3, 7, 70), (4, 8, 50))]
    scores = {(s.pair, s.direction): s for s in score_boards(results)[1]}
    assert scores[(1, NS)].percent == 100 and scores[(5, EW)].percent == 0
    assert scores[(2, NS)].percent == 50 and scores[(6, EW)].percent == 50
    assert scores[(4, NS)].percent == 0 and scores[(8, EW)].percent == 100
    for ns, ew in ((1, 5), (2, 6), (3, 7), (4, 8)):
        assert scores[(ns, NS)].matchpoints + scores[(ew, EW)].matchpoints == 6


def test_a_board_played_fewer_times_is_corrected_and_an_unplayed_one_adjusted():
    results = [TableResult(1, 1, 5, 60), TableResult(1, 2, 6, 50), TableResult(1, 3, 7, 40),
               TableResult(1, 4, 8, 30),
               TableResult(2, 1, 6, 80), TableResult(2, 2, 7, 70), TableResult(2, 3, 8, 60),
               TableResult(2, 4, 5, None, adjusted=("plus", "minus"))]
    board2 = {(s.pair, s.direction): s for s in score_boards(results)[2]}
    # three results on a four-result scale: the best gets (4 + 1) * 4 / 3 - 1 = 17/3 of 6
    assert board2[(1, NS)].matchpoints == Fraction(17, 3)
    assert board2[(1, NS)].percent == Fraction(17, 3) / 6 * 100
    assert board2[(4, NS)].percent == 60 and board2[(4, NS)].adjusted
    assert board2[(5, EW)].percent == 40
    totals = event_scores(results)
    assert totals[1] == (100 + Fraction(17, 3) / 6 * 100) / 2
    assert totals[4] == (0 + 60) / 2


def test_a_board_value_by_points_or_by_eyes_with_the_duty_rule():
    rules = Rules()
    assert board_value(75, scale="points") == 75
    assert board_value(75, scale="eyes", rules=rules, ns_on_duty=True) == 1  # the pair on duty wins: 1
    assert board_value(75, scale="eyes", rules=rules, ns_on_duty=False) == 2  # against the duty: 2
    assert board_value(30, scale="eyes", rules=rules, ns_on_duty=True) == -3  # EW routed the duty pair
    assert board_value(60, scale="eyes", rules=rules) == 0  # eggs
    assert board_value(95, scale="eyes", rules=rules) > board_value(85, scale="eyes", rules=rules)
    for bad in (-1, 121):
        with pytest.raises(ValueError):
            board_value(bad, scale="points")
    with pytest.raises(ValueError):
        board_value(60, scale="eyes")


@pytest.mark.parametrize("pairs", range(4, 21))
def test_howell_no_repeats_and_every_board_as_often(pairs):
    seats = howell(pairs)
    counts = check_movement(seats)
    n = pairs + pairs % 2
    assert max(s.round for s in seats) == n - 1
    assert set(counts) == set(range(1, n))  # one set a round
    assert len(set(counts.values())) == 1  # every board played the same number of times
    cards = table_cards(seats, per_set=4)
    assert set(cards) == set(range(1, pairs + 1))
    for lines in cards.values():
        assert [c.round for c in lines] == list(range(1, n))
        played = [c for c in lines if c.table]
        ns = sum(c.direction == NS for c in played)
        assert abs(ns - (len(played) - ns)) <= 2  # directions about even
    assert howell(pairs, rounds=3) == [s for s in seats if s.round <= 3]


@pytest.mark.parametrize("pairs", range(4, 21))
def test_mitchell_no_repeats_and_boards_as_often_where_the_tables_are_full(pairs):
    seats = mitchell(pairs)
    counts = check_movement(seats)
    tables = (pairs + 1) // 2
    assert max(s.round for s in seats) == (tables if tables % 2 else tables - 1)
    for s in seats:
        assert s.ns == s.table  # NS pairs stay at their table
    if pairs % 2 == 0 or tables % 2:
        # even pairs, or a phantom visiting every table once: equal counts
        assert len(set(counts.values())) == 1, counts
    else:  # a phantom in a skip Mitchell: the Neuberg correction evens the boards out
        assert max(counts.values()) - min(counts.values()) == 1


def test_the_table_cards_of_6_8_10_and_12_pairs_name_table_direction_boards_and_opponent():
    for pairs in (6, 8, 10, 12):
        for movement in (mitchell, howell):
            cards = table_cards(movement(pairs), per_set=4)
            for pair, lines in cards.items():
                for line in lines:
                    assert line.table >= 1 and line.direction in (NS, EW)
                    assert len(line.boards) == 4 and line.against not in (None, pair)
    three = table_cards(mitchell(10), per_set=4)[8][2]  # pair 8 (EW) in round 3
    assert (three.round, three.table, three.direction) == (3, 5, EW)
    assert list(three.boards) == [5, 6, 7, 8] and three.against == 5  # set 2 moved down to table 5


def test_movements_refuse_what_cannot_be_played():
    with pytest.raises(ValueError):
        mitchell(3)
    with pytest.raises(ValueError):
        mitchell(8, rounds=4)  # four tables: a skip Mitchell has three rounds
    with pytest.raises(ValueError):
        howell(6, rounds=6)
