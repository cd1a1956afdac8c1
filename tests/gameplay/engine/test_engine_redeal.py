"""Redeals: each kind allowed and refused, the redeal phase of the state, the third in a row."""

from __future__ import annotations

import pytest
from engine_helpers import MatchBuilder, complete_hands, deal, masks_of, record, score

from gameplay.engine.cards import PASS, REDEAL
from gameplay.engine.errors import IllegalAction, RecordError
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.state import Phase

HAND_13 = "KC QC JD KH 9H 8H 7H 9S"  # 4 + 3 + 2 + 4 = 13 points
HAND_14 = "TC JD JH 8H 7H 9S 8S 7S"  # 10 + 2 + 2 = 14 points
HAND_12 = "KC QC JD QH 9H 8H 7H 9S"  # 12 points
HAND_0 = "9C 8C 7C 9H 8H 7H 9S 8S"
FOUR_NINES = "9C 9D 9H 9S AC AD AH AS"
FIVE_HEARTS = "AH TH KH QH 9H AC AD AS"
FOUR_HEARTS_AND_JH = "AH TH KH QH JH AC AD AS"


def redeal_record(hand, rules=None, seat="E"):
    return record([deal("W", complete_hands({seat: hand}, seed=1), redeal=seat)], rules or {})


def refused(rec):
    with pytest.raises(RecordError) as info:
        score(rec)
    return str(info.value)


@pytest.mark.parametrize(
    "hand,rules",
    [
        (HAND_13, {}),
        (HAND_12, {"redeal_below": 13}),
        (FOUR_NINES, {"redeal_four_nines": True}),
        (FIVE_HEARTS, {"redeal_five_of_suit": True}),
        (FOUR_NINES, {"redeal_four_nines": True, "redeal_below": 0}),
    ],
)
def test_redeal_allowed(hand, rules):
    report = score(redeal_record(hand, rules))
    d = report["deals"][0]
    assert d["outcome"] == "redeal" and d["eyes"] == {"NS": 0, "EW": 0}
    assert "trump" not in d and "tricks" not in d and "points" not in d and "on_duty" not in d


@pytest.mark.parametrize(
    "hand,rules",
    [
        (HAND_14, {}),
        (HAND_13, {"redeal_below": 13}),
        (HAND_0, {"redeal_below": 0}),
        (FOUR_NINES, {}),
        (FIVE_HEARTS, {}),
        (FOUR_HEARTS_AND_JH, {"redeal_five_of_suit": True}),  # a jack is not a heart
    ],
)
def test_redeal_refused(hand, rules):
    assert refused(redeal_record(hand, rules)) == (
        "deal 1: E may not ask for a redeal: the hand does not qualify")


def test_redealt_deal_is_dealt_again_by_the_same_dealer():
    first = deal("W", complete_hands({"E": HAND_13}, seed=1), redeal="E")
    b = MatchBuilder(first_dealer=3, seed=4)
    b.deals.append(first)
    b.played()
    assert score(b.record())["deals"][1]["outcome"] in ("win", "rout", "eggs", "lucy")
    wrong = dict(b.deals[1], dealer="N")
    assert refused(record([first, wrong])) == "deal 2: the dealer must be W, not N"


def _redeals(n, rules, seed=0):
    b = MatchBuilder(rules, first_dealer=3, seed=seed)
    for _ in range(n):
        b.redeal()
    return b


def test_third_redeal_in_a_row_gives_an_eye_to_the_pair_not_dealing():
    report = score(_redeals(6, {"three_redeals_eye": True}).record())
    eyes = [d["eyes"] for d in report["deals"]]
    assert eyes[2] == {"NS": 1, "EW": 0}  # W deals: EW is the dealing pair
    assert eyes[5] == {"NS": 1, "EW": 0}  # the count started again
    assert all(e == {"NS": 0, "EW": 0} for i, e in enumerate(eyes) if i not in (2, 5))
    assert report["score"] == {"NS": 2, "EW": 0}


def test_without_three_redeals_eye_redeals_cost_nothing():
    report = score(_redeals(3, {}).record())
    assert report["score"] == {"NS": 0, "EW": 0}


def test_a_played_deal_breaks_the_run_of_redeals():
    b = MatchBuilder({"three_redeals_eye": True}, first_dealer=3, seed=5)
    b.redeal()
    b.redeal()
    b.played(lambda d: d.points == (60, 60))
    b.redeal()
    report = score(b.record())
    assert report["score"] == {"NS": 0, "EW": 0}


def test_the_redeal_question_is_put_to_all_four_seats_at_once_qualifying_or_not():
    hands = complete_hands({"N": "JC AC TC AD TD AH TH AS", "E": HAND_0, "S": "KD QD JS 7S 9D 8D 7D QS"},
                           seed=2)
    state = MatchState(Rules(), auto_deal=False, first_dealer=3, seed=1)
    state.start_deal(masks_of(hands))
    assert state.phase == Phase.REDEAL
    assert set(state.redeal_pending) == {0, 1, 2, 3}
    assert state.redeal_options(0) == [PASS]  # N leads (JC) and does not qualify
    assert state.redeal_options(1) == [REDEAL, PASS]  # E does
    with pytest.raises(IllegalAction, match="play or redeal"):
        state.apply(0, seat=0)
    with pytest.raises(IllegalAction, match="does not qualify"):
        state.apply(REDEAL, seat=0)
    obs = state.observation(1)
    assert obs.redeal_phase and set(obs.legal) == {REDEAL, PASS} and obs.to_move is None
    assert state.observation(0).legal == (PASS,)
    # answers in any order; each seat once
    state.apply(PASS, seat=2)
    state.apply(PASS, seat=0)
    with pytest.raises(IllegalAction, match="already answered"):
        state.apply(PASS, seat=2)
    assert state.observation(3).answered == (2, 0) and state.spectator_observation().answered == (2, 0)
    assert state.observation(0).legal == ()
    state.apply(PASS, seat=3)
    assert state.phase == Phase.REDEAL and state.redeal_pending == (1,)
    state.apply(PASS, seat=1)
    assert state.phase == Phase.PLAY and state.to_move == 0


def test_the_redeal_phase_times_out_as_play_and_replays_exactly_from_a_record_saved_mid_phase():
    from gameplay.engine.record import read_record, write_record

    hands = complete_hands({"N": "JC AC TC AD TD AH TH AS", "E": HAND_0}, seed=2)
    state = MatchState(Rules(), auto_deal=False, first_dealer=3, seed=1)
    state.start_deal(masks_of(hands))
    state.apply(PASS, seat=3)
    state.apply(PASS, seat=1)
    rec = write_record(state)
    assert rec["deals"][0]["passed"] == ["W", "E"] and rec["deals"][0]["plays"] == []
    again = read_record(rec)
    assert again.phase == Phase.REDEAL and again.redeal_pending == (0, 2)
    assert again.observation(0).to_json() == state.observation(0).to_json()
    state.end_redeal_phase()
    assert state.phase == Phase.PLAY and state.to_move == 0
    rec = write_record(state)
    assert sorted(rec["deals"][0]["passed"]) == ["E", "N", "S", "W"]  # no card yet: kept
    assert read_record(rec).phase == Phase.PLAY
    state.apply(state.legal_actions()[0])
    rec = write_record(state)
    assert "passed" not in rec["deals"][0]  # implied once a card is played
    assert read_record(rec).observation(1).to_json() == state.observation(1).to_json()


def test_a_record_that_answers_twice_or_passes_with_a_redeal_is_refused():
    hands = complete_hands({"E": HAND_0}, seed=2)
    twice = record([dict(deal("W", hands, []), passed=["E", "N", "E"])])
    assert refused(twice) == "deal 1: E answers twice"
    both = record([dict(deal("W", hands, redeal="E"), passed=["N"])])
    assert refused(both) == "deal 1: passed is only for a deal still in its redeal phase"


def test_without_any_redeal_rule_there_is_no_redeal_question():
    state = MatchState(Rules(redeal_below=0), seed=3)
    assert state.phase == Phase.PLAY and state.redeal_pending == ()


def test_redeal_action_ends_the_deal_and_the_same_dealer_deals_again():
    hands = complete_hands({"N": "JC AC TC AD TD AH TH AS", "E": HAND_0}, seed=2)
    state = MatchState(Rules(), auto_deal=False, first_dealer=3, seed=1)
    state.start_deal(masks_of(hands))
    state.apply(REDEAL, seat=1)
    assert state.deals[0].outcome == "redeal" and state.deals[0].redeal == 1
    assert state.phase == Phase.DEALING and state.dealer == 3
    assert state.suit_of_seat is None  # a redealt deal fixes no suits
    state.start_deal()
    assert len(state.deals) == 2 and state.deals[1].dealer == 3


def test_redeal_is_refused_after_the_first_card():
    state = MatchState(Rules(redeal_below=0), seed=3)
    assert state.phase == Phase.PLAY
    with pytest.raises(IllegalAction, match="before the first card"):
        state.apply(REDEAL)
