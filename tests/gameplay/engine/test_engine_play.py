"""Playing tricks: follow rules, the two-level trumps, direction, first lead, ace_discard_ban,
decks, what each seat may see, and errors that say why."""

from __future__ import annotations

import random

import pytest
from engine_helpers import complete_hands, deal, masks_of, record, score

from gameplay.engine.cards import PASS, card_from_str, card_to_str
from gameplay.engine.errors import IllegalAction, RecordError
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.state import Phase

C = card_from_str

# N holds the top trumps; E has no trump and three aces of suits not yet led.
ACE_BAN_HANDS = {
    "N": "JC JS JH JD AC TC KC QC",
    "E": "AH AD AS 7H 8H 9H 7D 8D",
    "S": "TH KH QH TD KD QD TS KS",
    "W": "9C 8C 7C 9D QS 9S 8S 7S",
}


def started(hands, rules=None, dealer=3):
    state = MatchState(Rules(**(rules or {})), auto_deal=False, first_dealer=dealer, seed=0)
    state.start_deal(masks_of(hands))
    while state.phase == Phase.REDEAL:
        state.apply(PASS)
    return state


def names(actions):
    return sorted(card_to_str(a) for a in actions)


def play(state, text):
    for c in text.split():
        state.apply(C(c))


# ---------------------------------------------------------------- following
def test_plain_lead_must_be_followed_with_a_non_jack_card_of_the_suit():
    hands = {
        "N": "JC AH 7C 8C 9C TC KC QC",
        "E": "JS 7H AD TD KD QD 9D 8D",
        "S": "JH AS TS KS QS 9S 8S 7S",
        "W": "JD 8H 9H TH KH QH AC 7D",
    }
    state = started(hands)
    play(state, "AH")  # N leads hearts
    assert names(state.legal_actions()) == ["7H"]  # E must follow; JS is no heart
    with pytest.raises(IllegalAction, match="^E must follow hearts and cannot play JS$"):
        state.apply(C("JS"))
    play(state, "7H")
    # S has no heart: anything goes, trumping is not compulsory
    assert names(state.legal_actions()) == names(masks_to_cards(hands["S"]))


def masks_to_cards(text):
    return [C(c) for c in text.split()]


def test_trump_lead_must_be_followed_with_any_trump_jack_or_trump_suit():
    hands = {
        "N": "JC AH 7C 8C 9C TC KC QC",
        "E": "JS 7H AD TD KD QD 9D 8D",
        "S": "JH AS TS KS QS 9S 8S 7S",
        "W": "JD 8H 9H TH KH QH AC 7D",
    }
    state = started(hands)
    play(state, "7C")  # clubs are trumps in the first deal: a trump lead
    assert names(state.legal_actions()) == ["JS"]
    with pytest.raises(IllegalAction, match="^E must play a trump and cannot play 7H$"):
        state.apply(C("7H"))
    play(state, "JS JH")
    assert names(state.legal_actions()) == ["AC", "JD"]
    play(state, "AC")
    assert state.last_trick == (0, (C("7C"), C("JS"), C("JH"), C("AC")), 1)  # JS beats JH, AC
    assert state.points == (0, 15)


def test_card_not_in_hand_and_not_a_card_are_refused_saying_why():
    state = MatchState(Rules(redeal_below=0), seed=1)
    seat = state.to_move
    assert seat is not None
    foreign = next(c for c in range(32) if not state.hands[seat] >> c & 1 and c % 9 != 0)
    with pytest.raises(IllegalAction, match=f"does not hold {card_to_str(foreign)}"):
        state.apply(foreign)
    with pytest.raises(IllegalAction, match="not a card"):
        state.apply(99)
    with pytest.raises(IllegalAction, match="not a card"):
        state.apply(-1)
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(state.legal_actions()[0], seat=(seat + 1) % 4)


def test_illegal_action_leaves_the_state_unchanged():
    state = MatchState(Rules(redeal_below=0), seed=2)
    before = (state.hands, state.trick, state.to_move, state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply(99)
    assert (state.hands, state.trick, state.to_move, state.legal_actions()) == before


# ---------------------------------------------------------------- parameters that change play
def test_ace_discard_ban_forbids_an_unled_plain_ace_unless_only_such_aces_are_left():
    free = started(ACE_BAN_HANDS)
    play(free, "JC")
    assert "AH" in names(free.legal_actions())
    banned = started(ACE_BAN_HANDS, {"ace_discard_ban": True})
    play(banned, "JC")
    assert names(banned.legal_actions()) == ["7D", "7H", "8D", "8H", "9H"]
    with pytest.raises(IllegalAction, match="^E may not discard AH: hearts have not been led yet$"):
        banned.apply(C("AH"))
    # discard the five low cards; then only unled aces are left and they may be played
    play(banned, "7H TH 9C  JS 8H KH 8C  JH 9H QH 7C  JD 7D TD 9D  AC 8D KD QS  TC")
    assert names(banned.legal_actions()) == ["AD", "AH", "AS"]


def test_ace_discard_ban_changes_whether_a_record_is_legal():
    plays = "JC AH TH 9C"
    ok = score(record([deal("W", ACE_BAN_HANDS, plays)]))
    assert ok["deals"][0]["outcome"] == "unfinished"
    with pytest.raises(RecordError) as info:
        score(record([deal("W", ACE_BAN_HANDS, plays)], {"ace_discard_ban": True}))
    assert str(info.value) == "deal 1, trick 1: E may not discard AH: hearts have not been led yet"


def test_a_suit_counts_as_led_once_a_plain_card_of_it_led_a_trick():
    hands = {
        "N": "JC AC TC KC QC 9C 8C 7H",
        "E": "AH AD 7D 8D 9D TD KD QD",
        "S": "JS JH JD TH KH QH 8H 9H",
        "W": "7C AS TS KS QS 9S 8S 7S",
    }
    state = started(hands, {"ace_discard_ban": True})
    play(state, "7H")  # hearts are led now; E must follow with AH anyway
    play(state, "AH TH 7C")  # W trumps in with 7C (no hearts): W wins
    assert state.to_move == 3
    play(state, "AS")  # W leads spades; N has none and may discard; E has no spade and no trump
    play(state, "8C")  # N trumps
    assert "AD" not in names(state.legal_actions())  # diamonds never led
    assert names(state.legal_actions()) == ["7D", "8D", "9D", "KD", "QD", "TD"]


@pytest.mark.parametrize("direction,order", [("clockwise", [0, 1, 2, 3]), ("counterclockwise", [0, 3, 2, 1])])
def test_direction_sets_play_order_and_the_suits_given_in_the_first_deal(direction, order):
    hands = complete_hands({"N": "JC AC TC KC QC 9C 8C 7C"}, seed=3)
    state = started(hands, {"direction": direction, "redeal_below": 0}, dealer=3)
    seen = []
    for _ in range(4):
        seen.append(state.to_move)
        state.apply(state.legal_actions()[0])
    assert seen == order
    assert state.suit_of_seat is not None
    suits = {"NESW"[s]: "CDHS"[state.suit_of_seat[s]] for s in range(4)}
    if direction == "clockwise":
        assert suits == {"N": "C", "E": "H", "S": "S", "W": "D"}
    else:
        assert suits == {"N": "C", "W": "H", "S": "S", "E": "D"}


def test_suits_stay_for_the_match_and_the_jack_holder_decides_the_trump():
    state = MatchState(Rules(redeal_below=0), seed=4, first_dealer=0)
    rng = random.Random(0)
    first = state.suit_of_seat
    assert first is not None and state.trump == 0  # first deal: clubs
    trumps = set()
    for _ in range(6):
        log = state.deals[-1]
        while log.outcome is None:
            state.apply(rng.choice(state.legal_actions()))
        assert log.trump == first[log.jack_holder]
        trumps.add(log.trump)
        assert state.suit_of_seat == first
    assert len(trumps) > 1


@pytest.mark.parametrize("first_lead,leader", [("jack_holder", 2), ("after_dealer", 0)])
def test_first_lead(first_lead, leader):
    hands = complete_hands({"S": "JC AC TC KC QC 9C 8C 7C"}, seed=5)
    state = started(hands, {"first_lead": first_lead, "redeal_below": 0}, dealer=3)
    assert state.to_move == leader
    rec = record([deal("W", hands, [card_to_str(state.legal_actions()[0])])], {"first_lead": first_lead})
    assert score(rec)["deals"][0]["jack_holder"] == "S"


@pytest.mark.parametrize("deck,per_hand", [("32", 8), ("36", 9), ("32-no-sevens", 8), ("28", 7)])
def test_every_deck_deals_its_cards_and_totals_120(deck, per_hand):
    state = MatchState(Rules(deck=deck), seed=6)
    rng = random.Random(1)
    for _ in range(5):
        if state.winner is not None:
            break
        log = state.deals[-1]
        assert all(h.bit_count() == per_hand for h in log.hands)
        while state.deals[-1] is log and log.outcome is None:
            acts = state.legal_actions()
            state.apply(PASS if acts[-1] == PASS else rng.choice(acts))
        if log.outcome != "redeal":
            assert sum(log.points) == 120 and len(log.trick_winners) == per_hand


def test_a_card_outside_the_deck_is_refused():
    hands = complete_hands({}, seed=7, deck="32")
    with pytest.raises(RecordError, match="^deal 1: 7C is not in the 28 deck"):
        score(record([deal("W", hands, [])], {"deck": "28"}))
    with pytest.raises(RecordError, match="^deal 1: N has 8 cards, not 9"):
        score(record([deal("W", hands, [])], {"deck": "36"}))


# ---------------------------------------------------------------- what a seat sees
@pytest.mark.parametrize("review,visible", [("last", True), ("none", False)])
def test_review_tricks_shows_or_hides_the_last_trick(review, visible):
    state = MatchState(Rules(review_tricks=review, redeal_below=0), seed=8)
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    for seat in range(4):
        assert (state.observation(seat).last_trick is not None) == visible
    assert (state.spectator_observation().last_trick is not None) == visible


def test_observation_holds_own_hand_and_the_table_never_another_hand():
    state = MatchState(Rules(redeal_below=0), seed=9)
    play_n = 6
    for _ in range(play_n):
        state.apply(state.legal_actions()[0])
    for seat in range(4):
        obs = state.observation(seat)
        assert set(obs.hand or ()) == {c for c in range(36) if state.hands[seat] >> c & 1}
        others = {c for s in range(4) if s != seat for c in range(36) if state.hands[s] >> c & 1}
        assert not (obs.visible_cards() & others)
        j = obs.to_json()
        assert j["trump"] == "C" and j["suits"] is not None and j["score"] == {"NS": 0, "EW": 0}
        assert j["last_deal"] is None  # no points shown while the first deal is played
        assert len(j["trick"]["cards"]) == 2
        text = str(j)
        for c in others:
            assert f"'{card_to_str(c)}'" not in text
    spectator = state.spectator_observation()
    assert spectator.hand is None and spectator.legal == ()
    assert spectator.to_json()["hand"] is None


def test_points_are_shown_once_the_deal_is_over():
    state = MatchState(Rules(redeal_below=0), seed=10)
    while len(state.deals) == 1:
        state.apply(state.legal_actions()[0])
    obs = state.observation(0).to_json()
    assert obs["last_deal"]["points"] is not None
    assert sum(obs["last_deal"]["points"].values()) == 120


@pytest.mark.parametrize(
    "key,played_with,scored_with",
    [
        ("direction", "clockwise", "counterclockwise"),
        ("first_lead", "jack_holder", "after_dealer"),
    ],
)
def test_the_same_record_means_something_else_under_the_other_setting(key, played_with, scored_with):
    from engine_helpers import find_deal

    hands, plays, _ = find_deal(lambda d: d.jack_holder != 0, Rules(**{key: played_with}), dealer=3, seed=4)
    rec = record([deal("W", hands, plays)], {key: played_with})
    ours = score(rec)["deals"][0]
    try:
        theirs = score(record([deal("W", hands, plays)], {key: scored_with}))["deals"][0]
    except RecordError:
        return  # the cards are not even legal in that order
    assert [t["leader"] for t in theirs["tricks"]] != [t["leader"] for t in ours["tricks"]]


def test_client_actions_are_parsed_and_written_in_the_notation():
    from gameplay.engine import PASS, REDEAL, action_from_str, action_to_str

    assert action_from_str("redeal") == REDEAL and action_from_str("pass") == PASS
    assert action_to_str(action_from_str("JS")) == "JS"
    with pytest.raises(ValueError):
        action_from_str("J♠")
