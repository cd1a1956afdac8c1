"""Properties of random legal play, checked against a small reference written from RULES.md
with card strings (not the engine's tables): legality, trick winners, 120 points per deal,
no leaked cards in any observation, exact record round trips."""

from __future__ import annotations

import random

from engine_helpers import fingerprint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine.cards import PASS, REDEAL, SEATS, card_to_str, mask_cards
from gameplay.engine.match import MatchState
from gameplay.engine.record import read_record, record_to_json
from gameplay.engine.rules import Rules

VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
PLAIN_LADDER = "6789QKTA"  # low to high
JACK_LADDER = "DHSC"  # JD < JH < JS < JC


def is_trump(card: str, trump: str) -> bool:
    return card[0] == "J" or card[1] == trump


def reference_winner(cards: list[str], trump: str) -> int:
    """Index of the trick's winner: highest jack, else highest trump, else highest of the led suit."""
    jacks = [i for i, c in enumerate(cards) if c[0] == "J"]
    if jacks:
        return max(jacks, key=lambda i: JACK_LADDER.index(cards[i][1]))
    trumps = [i for i, c in enumerate(cards) if c[1] == trump]
    if trumps:
        return max(trumps, key=lambda i: PLAIN_LADDER.index(cards[i][0]))
    led = cards[0][1]
    return max((i for i, c in enumerate(cards) if c[1] == led), key=lambda i: PLAIN_LADDER.index(cards[i][0]))


def reference_legal(hand: set[str], trick: list[str], trump: str, led: set[str], ace_ban: bool) -> set[str]:
    if not trick:
        return set(hand)
    lead = trick[0]
    if is_trump(lead, trump):
        follow = {c for c in hand if is_trump(c, trump)}
    else:
        follow = {c for c in hand if c[1] == lead[1] and c[0] != "J"}
    if follow:
        return follow
    if ace_ban:
        banned = {c for c in hand if c[0] == "A" and c[1] != trump and c[1] not in led}
        if banned != hand:
            return hand - banned
    return set(hand)


def hand_strings(mask: int) -> set[str]:
    return {card_to_str(c) for c in mask_cards(mask)}


rules_strategy = st.builds(
    Rules,
    deck=st.sampled_from(["32", "36", "32-no-sevens", "28"]),
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    first_lead=st.sampled_from(["jack_holder", "after_dealer"]),
    ace_discard_ban=st.booleans(),
    lucy=st.sampled_from(["win", "zero"]),
    lucy_by=st.sampled_from(["tricks", "points"]),
    eggs=st.sampled_from(["double", "four", "plus_four"]),
    redeal_below=st.sampled_from([0, 14, 30]),
    redeal_four_nines=st.booleans(),
    redeal_five_of_suit=st.booleans(),
    three_redeals_eye=st.booleans(),
    review_tricks=st.sampled_from(["last", "none"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32), max_deals=st.integers(1, 4))
def test_random_legal_play_follows_the_reference_rules(rules, seed, max_deals):
    rng = random.Random(seed)
    state = MatchState(rules, seed=seed)
    order = "NESW" if rules.direction == "clockwise" else "NWSE"
    led: set[str] = set()
    trick: list[str] = []
    trick_seats: list[str] = []
    deal_points = [0, 0]
    deals_seen = 0
    while state.winner is None and deals_seen < max_deals:
        seat = state.to_move
        actions = state.legal_actions()
        assert seat is not None and actions, "random legal play got stuck"
        deal_index = len(state.deals)
        trump = "CDHS"[state.trump]
        if actions[-1] == PASS:
            action = rng.choice(actions)
        else:
            hand = hand_strings(state.hands[seat])
            assert {card_to_str(a) for a in actions} == reference_legal(hand, trick, trump, led,
                                                                         rules.ace_discard_ban)
            action = rng.choice(actions)
            card = card_to_str(action)
            if not trick and not is_trump(card, trump):
                led.add(card[1])
            if trick:
                assert order.index(SEATS[seat]) == (order.index(trick_seats[-1]) + 1) % 4
            trick.append(card)
            trick_seats.append(SEATS[seat])
        # observations never show another seat's unplayed card
        others = [hand_strings(state.hands[s]) for s in range(4)]
        for viewer in (seat, (seat + 1) % 4):
            seen = {card_to_str(c) for c in state.observation(viewer).visible_cards()}
            hidden = set().union(*(others[s] for s in range(4) if s != viewer))
            assert not seen & hidden
        assert state.spectator_observation().hand is None
        state.apply(action)
        if action in (PASS, REDEAL):
            if len(state.deals) != deal_index or state.deals[deal_index - 1].outcome == "redeal":
                deals_seen += 1
                led, trick, trick_seats = set(), [], []
            continue
        if len(trick) == 4:
            log = state.deals[deal_index - 1]
            winner = trick_seats[reference_winner(trick, trump)]
            assert SEATS[log.trick_winners[-1]] == winner
            deal_points[0 if winner in "NS" else 1] += sum(VALUES.get(c[0], 0) for c in trick)
            trick, trick_seats = [], []
            if log.outcome is not None:
                assert sum(log.points) == 120
                assert list(log.points) == deal_points
                deals_seen += 1
                led, deal_points = set(), [0, 0]
    text = record_to_json(state)
    assert record_to_json(read_record(text)) == text


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 600))
def test_record_round_trip_is_exact_at_any_point(seed, moves):
    rng = random.Random(seed)
    state = MatchState(Rules(three_redeals_eye=True, eggs="four"), seed=seed)
    for _ in range(moves):
        if state.to_move is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    text = record_to_json(state)
    again = read_record(text)
    assert record_to_json(again) == text
    assert fingerprint(again) == fingerprint(state)
