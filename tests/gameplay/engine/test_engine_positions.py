"""The replay's positions agree with the record and the scorer, card by card, over bot-played matches."""

from __future__ import annotations

import random
from typing import Any

from engine_helpers import MatchBuilder, deal, record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import MatchState, Phase, Rules, choose_action, score_record, write_record
from gameplay.engine.positions import Replay


def bot_match(seed: int, rules: dict[str, Any] | None = None,
              max_actions: int | None = None) -> dict[str, Any]:
    """A match the beginner bots play (in every seat) from a seeded deal, as its record."""
    state = MatchState(Rules.from_json(rules or {}), seed=seed)
    rng = random.Random(seed)
    actions = 0
    while state.to_move is not None and (max_actions is None or actions < max_actions):
        seat = state.to_move
        state.apply(choose_action(state.observation(seat), rng), seat=seat)
        actions += 1
    return write_record(state)


rules_strategy = st.fixed_dictionaries({
    "deck": st.sampled_from(["32", "36", "28"]),
    "direction": st.sampled_from(["clockwise", "counterclockwise"]),
    "first_lead": st.sampled_from(["jack_holder", "after_dealer"]),
    "redeal_below": st.sampled_from([0, 14, 24]),
    "redeal_five_of_suit": st.booleans(),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=rules_strategy)
def test_hands_at_each_card_are_the_dealt_hands_less_the_cards_played(seed, rules):
    rec = bot_match(seed, rules)
    replay = Replay.from_record(rec)
    assert len(replay.deals) == len(rec["deals"])
    for index, dealt in enumerate(rec["deals"]):
        plays = dealt.get("plays", [])
        assert replay.deals[index].plays == len(plays)
        for k in range(len(plays) + 1):
            pos = replay.position(index, k)
            gone = set(plays[:k])
            for seat in "NESW":
                assert set(pos.hands[seat]) == set(dealt["hands"][seat]) - gone
            if k < len(plays):
                # the card played next comes out of the hand of the seat whose turn it is
                assert plays[k] in pos.hands[pos.to_move]
            assert [c for _s, c in pos.trick] == plays[k - (k % 4 or (4 if k else 0)):k]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=rules_strategy)
def test_tricks_points_and_eyes_are_those_of_the_scorer(seed, rules):
    rec = bot_match(seed, rules)
    scored = score_record(rec)
    replay = Replay.from_record(rec)
    assert replay.winner == scored["winner"] and replay.score == scored["score"]
    before = {"NS": 0, "EW": 0}
    for index, (summary, sc) in enumerate(zip(replay.deals, scored["deals"], strict=True)):
        assert summary.outcome == sc["outcome"] and summary.eyes == sc["eyes"]
        assert summary.score_before == before and summary.score_after == sc["score"]
        before = sc["score"]
        if sc["outcome"] == "redeal":
            assert summary.trump is None and summary.redeal is not None and summary.redeal.grounds
            continue
        assert summary.trump == sc["trump"] and summary.pair_on_duty == sc["on_duty"]
        assert summary.jack_holder == sc["jack_holder"]
        assert summary.suits is not None and summary.suits[summary.jack_holder] == summary.trump
        end = replay.position(index, summary.plays)
        assert end.points == sc["points"]
        assert [(t.leader, [c for _s, c in t.cards], t.winner, t.points) for t in end.tricks] == [
            (t["leader"], t["cards"], t["winner"], t["points"]) for t in sc["tricks"]]
        assert end.eyes_after == sc["score"] and end.to_move is None
        # points run up trick by trick
        for k in range(0, summary.plays + 1, 4):
            taken = sc["tricks"][:k // 4]
            pos = replay.position(index, k)
            for pair in ("NS", "EW"):
                assert pos.points[pair] == sum(t["points"] for t in taken if t["winner"] in pair)
            if k:
                assert pos.trick_winner == taken[-1]["winner"] and len(pos.trick) == 4


def test_the_first_played_deal_gives_the_suits_and_redeals_before_it_have_none():
    match = MatchBuilder(rules={"redeal_below": 14}, first_dealer=3, seed=5)
    asked = match.redeal()
    first = match.played()
    match.played()
    replay = Replay.from_record(match.record())
    redealt, played = replay.deals[0], replay.deals[1]
    assert redealt.outcome == "redeal" and redealt.suits is None and redealt.trump is None
    assert redealt.redeal is not None and redealt.redeal.seat == asked
    assert redealt.redeal.grounds == (("points", redealt.redeal.hand_points),)
    assert redealt.redeal.hand_points < 14 == redealt.redeal.redeal_below
    holder = "NESW"[first.jack_holder]
    partner = "NESW"[(first.jack_holder + 2) % 4]
    assert played.suits is not None and played.suits[holder] == "C" and played.suits[partner] == "S"
    assert played.trump == "C" and played.pair_on_duty == ("NS" if holder in "NS" else "EW")
    assert replay.deals[2].suits == played.suits


def test_a_redeal_says_which_rule_the_hand_met():
    hands = {
        "N": "9C 9D 9H 9S 7C 8C 7D 8D",
        "E": "JC JS AC TC KC QC AS TS",
        "S": "JH JD AH TH KH QH AD TD",
        "W": "KS QS 8S 7S KD QD 7H 8H",
    }
    rec = record([deal("W", hands, redeal="N"), deal("W", hands, "")],
                 rules={"redeal_below": 0, "redeal_four_nines": True, "redeal_five_of_suit": True})
    replay = Replay.from_record(rec)
    assert replay.deals[0].redeal is not None
    assert replay.deals[0].redeal.grounds == (("four_nines", 0),)
    assert replay.deals[0].redeal.hand_points == 0
    assert replay.deals[1].outcome == "unfinished"


def test_an_unfinished_deal_is_marked_and_says_whose_turn_it_is():
    rec = bot_match(11, max_actions=10)  # the redeal answers, then the first cards of deal 1
    replay = Replay.from_record(rec)
    last = replay.deals[-1]
    assert not last.finished and last.outcome == "unfinished"
    pos = replay.position(len(replay.deals) - 1, last.plays)
    state = MatchState(Rules(), seed=11)
    rng = random.Random(11)
    for _ in range(10):
        seat = state.to_move
        state.apply(choose_action(state.observation(seat), rng), seat=seat)
    assert state.phase == Phase.PLAY
    assert pos.to_move == "NESW"[state.to_move]
    assert pos.eyes_after == pos.eyes_before


def test_out_of_range_positions_are_clamped():
    rec = bot_match(4)
    replay = Replay.from_record(rec)
    last = len(replay.deals) - 1
    assert (replay.position(-5, -5).deal, replay.position(-5, -5).card) == (0, 0)
    far = replay.position(99, 999)
    assert far.deal == last and far.card == replay.deals[last].plays
    assert replay.position(0, 999).card == replay.deals[0].plays
    assert replay.clamp(1, -1) == (1, 0)


def test_the_scripts_data_holds_only_the_deals_asked_for():
    rec = bot_match(4)
    replay = Replay.from_record(rec)
    data = replay.to_json(visible_deals=2)
    assert [d["number"] for d in data["deals"]] == [1, 2]
    assert data["deals"][0]["hands"] == {s: list(h) for s, h in replay.deals[0].hands.items()}
    assert replay.to_json(visible_deals=0)["deals"] == []


def test_a_long_suit_redeal_names_the_suit():
    from engine_helpers import complete_hands

    hands = complete_hands({"N": "AC TC KC QC 9C 7H 8H 9H"}, seed=2)
    rec = record([deal("W", hands, redeal="N")], rules={"redeal_below": 0, "redeal_five_of_suit": True})
    asked = Replay.from_record(rec).deals[0].redeal
    assert asked is not None and asked.grounds == (("five_of_suit", "C"),) and asked.hand_points == 28
