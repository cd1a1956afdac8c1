"""Scoring deals into eyes: the worked examples, rout_at, Lucy, eggs, first deal, end of match.

Deals are found by a seeded search over random legal play (the property is stated, the
scorer is asked), or written out card by card where the rule needs a particular deal.
"""

from __future__ import annotations

import pytest
from engine_helpers import LUCY_ALL_TRICKS, LUCY_POINTS_ONLY, MatchBuilder, deal, find_deal, record, score


def eyes(report, n=0):
    d = report["deals"][n]
    return d["eyes"]["NS"], d["eyes"]["EW"]


def duty_takes(lo, hi=None):
    hi = lo if hi is None else hi
    return lambda d: lo <= d.points[d.pair_on_duty] <= hi


def other_takes(lo, hi=None):
    hi = lo if hi is None else hi
    return lambda d: lo <= d.points[1 - d.pair_on_duty] <= hi


def first_deal_record(predicate, rules=None, seed=0):
    b = MatchBuilder(rules, seed=seed)
    b.played(predicate)
    return score(b.record())


# ---------------------------------------------------------------- worked examples (seed 000)
def test_example_jack_holder_pair_takes_68_opens_one_eye():
    report = first_deal_record(duty_takes(68))
    d = report["deals"][0]
    duty = d["on_duty"]
    assert d["trump"] == "C"
    assert d["points"][duty] == 68
    assert d["eyes"][duty] == 1 and sum(d["eyes"].values()) == 1
    assert d["outcome"] == "win"


def test_example_opponents_of_the_jack_holder_take_71_open_two_eyes():
    report = first_deal_record(other_takes(71))
    d = report["deals"][0]
    other = "EW" if d["on_duty"] == "NS" else "NS"
    assert d["points"][other] == 71
    assert d["eyes"] == {other: 2, d["on_duty"]: 0}


def test_example_opponents_take_94_against_26_open_three_eyes():
    report = first_deal_record(other_takes(94))
    d = report["deals"][0]
    other = "EW" if d["on_duty"] == "NS" else "NS"
    assert d["points"] == {other: 94, d["on_duty"]: 26}
    assert d["eyes"][other] == 3
    assert d["outcome"] == "rout"


# ---------------------------------------------------------------- rout_at
@pytest.mark.parametrize("rout_at,eyes_opened,outcome", [(90, 3, "rout"), (91, 2, "win")])
def test_rout_at_decides_whether_exactly_90_is_a_rout(rout_at, eyes_opened, outcome):
    b = MatchBuilder({"rout_at": rout_at}, seed=5)
    b.played(other_takes(90))
    d = score(b.record())["deals"][0]
    other = "EW" if d["on_duty"] == "NS" else "NS"
    assert d["points"][other] == 90
    assert (d["eyes"][other], d["outcome"]) == (eyes_opened, outcome)


def test_duty_pair_rout_opens_two_eyes():
    d = first_deal_record(duty_takes(95, 119))["deals"][0]
    assert d["eyes"][d["on_duty"]] == 2 and d["outcome"] == "rout"


# ---------------------------------------------------------------- Lucy
def test_lucy_by_tricks_win_mode_ends_the_match_at_once():
    report = score(record([LUCY_ALL_TRICKS]))
    d = report["deals"][0]
    assert d["outcome"] == "lucy"
    assert d["points"] == {"NS": 120, "EW": 0}
    assert d["eyes"] == {"NS": 12, "EW": 0}
    assert report["winner"] == "NS" and report["score"] == {"NS": 12, "EW": 0}


def test_lucy_by_points_also_counts_a_deal_with_every_trick():
    report = score(record([LUCY_ALL_TRICKS], {"lucy_by": "points"}))
    assert report["deals"][0]["outcome"] == "lucy" and report["winner"] == "NS"


def test_120_points_without_every_trick_is_lucy_only_by_points():
    by_points = score(record([LUCY_POINTS_ONLY], {"lucy_by": "points"}))
    assert by_points["deals"][0]["points"] == {"NS": 120, "EW": 0}
    assert by_points["deals"][0]["tricks"][-1]["winner"] == "E"
    assert by_points["deals"][0]["outcome"] == "lucy" and by_points["winner"] == "NS"
    by_tricks = score(record([LUCY_POINTS_ONLY], {"lucy_by": "tricks"}))
    assert by_tricks["deals"][0]["outcome"] == "rout"
    assert by_tricks["deals"][0]["eyes"] == {"NS": 2, "EW": 0}  # N holds JC: a duty rout
    assert by_tricks["winner"] is None


def _lucy_after_ew_leads(rules):
    """A first deal won by EW against N's jack of clubs (2 eyes), then the Lucy deal."""
    b = MatchBuilder(rules, first_dealer=2, seed=3)
    b.played(lambda d: d.jack_holder == 0 and 61 <= d.points[1] < 90)
    b.deals.append(dict(LUCY_ALL_TRICKS, dealer="W"))
    return score(b.record())


def test_lucy_win_opens_what_takes_the_pair_to_12():
    report = _lucy_after_ew_leads({"lucy": "win"})
    assert report["deals"][0]["score"] == {"NS": 0, "EW": 2}
    assert report["deals"][1]["eyes"] == {"NS": 12, "EW": 0}
    assert report["winner"] == "NS"


def test_lucy_zero_resets_the_others_and_scores_a_rout_and_play_goes_on():
    report = _lucy_after_ew_leads({"lucy": "zero"})
    d = report["deals"][1]
    assert d["outcome"] == "lucy"
    assert d["eyes"] == {"NS": 2, "EW": 0}  # N holds JC: a rout on duty
    assert d["score"] == {"NS": 2, "EW": 0}  # EW's two eyes are gone
    assert report["winner"] is None


def test_lucy_zero_by_points():
    report = score(record([LUCY_POINTS_ONLY], {"lucy_by": "points", "lucy": "zero"}))
    assert report["deals"][0]["outcome"] == "lucy"
    assert report["deals"][0]["eyes"] == {"NS": 2, "EW": 0}
    assert report["winner"] is None


# ---------------------------------------------------------------- eggs
def is_eggs(d):
    return d.points == (60, 60)


def duty_win(d):
    return 61 <= d.points[d.pair_on_duty] < 90


EGGS_ONCE = {"double": 2, "four": 4, "plus_four": 5}
EGGS_TWICE = {"double": 3, "four": 8, "plus_four": 9}


@pytest.mark.parametrize("mode", ["double", "four", "plus_four"])
def test_eggs_once_then_a_duty_win(mode):
    b = MatchBuilder({"eggs": mode}, seed=11)
    b.played(is_eggs)
    b.played(duty_win)
    report = score(b.record())
    first, second = report["deals"]
    assert first["outcome"] == "eggs" and first["eyes"] == {"NS": 0, "EW": 0}
    assert second["eyes"][second["on_duty"]] == EGGS_ONCE[mode]


@pytest.mark.parametrize("mode", ["double", "four", "plus_four"])
def test_eggs_twice_in_a_row_with_a_redeal_between(mode):
    b = MatchBuilder({"eggs": mode}, seed=12)
    b.played(is_eggs)
    b.redeal()
    b.played(is_eggs)
    b.played(duty_win)
    report = score(b.record())
    outcomes = [d["outcome"] for d in report["deals"]]
    assert outcomes == ["eggs", "redeal", "eggs", "win"]
    last = report["deals"][-1]
    assert last["eyes"][last["on_duty"]] == EGGS_TWICE[mode]


@pytest.mark.parametrize("mode,expected", [("double", 6), ("four", 4), ("plus_four", 7)])
def test_eggs_then_a_rout_by_the_other_pair(mode, expected):
    b = MatchBuilder({"eggs": mode}, seed=13)
    b.played(is_eggs)
    b.played(other_takes(90, 119))
    d = score(b.record())["deals"][-1]
    other = "EW" if d["on_duty"] == "NS" else "NS"
    assert d["eyes"][other] == expected


def test_eggs_count_starts_again_after_a_decided_deal():
    b = MatchBuilder({"eggs": "double"}, seed=14)
    b.played(is_eggs)
    b.played(duty_win)
    b.played(duty_win)
    d = score(b.record())["deals"]
    assert d[1]["eyes"][d[1]["on_duty"]] == 2
    assert d[2]["eyes"][d[2]["on_duty"]] == 1


# ---------------------------------------------------------------- first_deal_two_eyes
@pytest.mark.parametrize("flag,expected", [(False, 3), (True, 2)])
def test_first_deal_two_eyes_for_a_rout(flag, expected):
    b = MatchBuilder({"first_deal_two_eyes": flag}, seed=21)
    b.played(other_takes(95, 119))
    b.played(other_takes(95, 119))
    d = score(b.record())["deals"]
    other = lambda x: "EW" if x["on_duty"] == "NS" else "NS"  # noqa: E731
    assert d[0]["eyes"][other(d[0])] == expected
    assert d[1]["eyes"][other(d[1])] == 3  # only the first played deal


@pytest.mark.parametrize("flag,expected", [(False, 1), (True, 2)])
def test_first_deal_two_eyes_for_a_duty_win_after_a_redeal(flag, expected):
    b = MatchBuilder({"first_deal_two_eyes": flag}, seed=22)
    b.redeal()
    b.played(duty_win)
    d = score(b.record())["deals"][1]
    assert d["eyes"][d["on_duty"]] == expected


def test_first_deal_two_eyes_lapses_when_the_first_deal_is_eggs():
    b = MatchBuilder({"first_deal_two_eyes": True}, seed=23)
    b.played(is_eggs)
    b.played(duty_win)
    d = score(b.record())["deals"][1]
    assert d["eyes"][d["on_duty"]] == 2  # eggs doubling of 1, not the first-deal rule


def test_first_deal_two_eyes_lapses_for_lucy():
    report = score(record([LUCY_POINTS_ONLY], {"lucy_by": "points", "lucy": "zero",
                                                "first_deal_two_eyes": True}))
    assert report["deals"][0]["eyes"] == {"NS": 2, "EW": 0}
    report = score(record([LUCY_ALL_TRICKS], {"first_deal_two_eyes": True}))
    assert report["deals"][0]["eyes"] == {"NS": 12, "EW": 0}


# ---------------------------------------------------------------- end of the match
def ns_rout_against_duty(d):
    return d.pair_on_duty == 1 and d.points[0] >= 90 and d.points[0] < 120


def test_match_ends_exactly_at_12():
    b = MatchBuilder(seed=31)
    for _ in range(4):
        b.played(ns_rout_against_duty)
    report = score(b.record())
    assert [d["score"]["NS"] for d in report["deals"]] == [3, 6, 9, 12]
    assert report["score"] == {"NS": 12, "EW": 0} and report["winner"] == "NS"


def test_match_that_overshoots_is_shown_as_12():
    b = MatchBuilder(seed=32)
    b.played(lambda d: d.pair_on_duty == 0 and 61 <= d.points[0] < 90)
    for _ in range(4):
        b.played(ns_rout_against_duty)
    report = score(b.record())
    assert [d["score"]["NS"] for d in report["deals"]] == [1, 4, 7, 10, 12]
    assert report["deals"][-1]["eyes"]["NS"] == 3
    assert report["score"] == {"NS": 12, "EW": 0} and report["winner"] == "NS"


def test_unfinished_match_has_no_winner_and_an_unfinished_last_deal():
    b = MatchBuilder(seed=33)
    b.played()
    hands, plays, _ = find_deal(lambda d: True, seed=1, dealer=b.dealer, suits=b.suits)
    b.deals.append(deal("NESW"[b.dealer], hands, plays[:6]))
    report = score(b.record())
    last = report["deals"][-1]
    assert last["outcome"] == "unfinished" and len(last["tricks"]) == 1
    assert report["winner"] is None


def test_every_complete_deal_in_the_report_totals_120_and_its_tricks_add_up():
    b = MatchBuilder(seed=34)
    for _ in range(5):
        b.played()
    for d in score(b.record())["deals"]:
        assert sum(d["points"].values()) == 120
        for pair in ("NS", "EW"):
            seats = {"NS": "NS", "EW": "EW"}[pair]
            assert d["points"][pair] == sum(t["points"] for t in d["tricks"] if t["winner"] in seats)
