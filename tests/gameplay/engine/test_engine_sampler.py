"""The strong bot's guesses at the hidden hands: only deals the seat's observation allows, all of them,
and each equally likely."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine.cards import JC, PASS, card_from_str, deck_cards
from gameplay.engine.errors import IllegalAction
from gameplay.engine.match import MatchState
from gameplay.engine.observation import Observation
from gameplay.engine.rules import Rules
from gameplay.engine.sampler import Knowledge, Sampler
from gameplay.engine.state import Phase

RULES = st.builds(
    Rules,
    deck=st.sampled_from(["32", "36", "32-no-sevens", "28"]),
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    first_lead=st.sampled_from(["jack_holder", "after_dealer"]),
    ace_discard_ban=st.booleans(),
    redeal_below=st.sampled_from([0, 14]),
    review_tricks=st.sampled_from(["last", "none"]),
)


def play_into_deal(rules: Rules, seed: int, cards: int) -> MatchState:
    """A match's first deal after `cards` random legal cards (the redeal question passed)."""
    rng = random.Random(seed)
    state = MatchState(rules, seed=seed)
    while True:
        if state.phase == Phase.REDEAL:
            state.apply(PASS, state.redeal_pending[0])
            continue
        if len(state.deals[-1].plays) >= cards:
            return state
        state.apply(rng.choice(state.legal_actions()))


def replay_is_legal(obs: Observation, hands: tuple[int, int, int, int]) -> bool:
    """Could the deal have been dealt as `hands` (now) plus the cards played, and played as it was?"""
    assert obs.rules is not None
    dealt = list(hands)
    for seat, card in obs.history:
        dealt[seat] |= 1 << card
    state = MatchState(obs.rules, auto_deal=False, first_dealer=obs.dealer, seed=0)
    state.suit_of_seat = obs.suit_of_seat
    state.start_deal(tuple(dealt))
    while state.phase == Phase.REDEAL:
        state.apply(PASS, state.redeal_pending[0])
    if state.trump != obs.trump or state.deals[-1].jack_holder != obs.jack_holder:
        return False
    try:
        for seat, card in obs.history:
            state.apply(card, seat)
    except IllegalAction:
        return False
    return state.hands == hands


@settings(max_examples=150, deadline=None)
@given(rules=RULES, seed=st.integers(0, 10**6), cards=st.integers(0, 35), viewer=st.integers(0, 3),
       draw_seed=st.integers(0, 10**6))
def test_every_drawn_deal_fits_what_the_seat_has_seen(rules, seed, cards, viewer, draw_seed):
    state = play_into_deal(rules, seed, min(cards, len(deck_cards(rules.deck)) - 1))
    obs = state.observation(viewer)
    knowledge = Knowledge.of(obs)
    truth = state.hands
    for s in range(4):  # the real deal is one of those allowed
        if s != viewer:
            assert truth[s] & ~knowledge.allowed[s] & ~knowledge.forced[s] == 0
            assert knowledge.forced[s] & ~truth[s] == 0
    sampler = Sampler(knowledge)
    rng = random.Random(draw_seed)
    for _ in range(5):
        hands = sampler.draw(rng)
        assert hands[viewer] == truth[viewer]
        assert tuple(h.bit_count() for h in hands) == obs.hand_sizes
        assert hands[0] | hands[1] | hands[2] | hands[3] == truth[0] | truth[1] | truth[2] | truth[3]
        if any(h >> JC & 1 for h in truth):
            assert hands[obs.jack_holder] >> JC & 1
        assert replay_is_legal(obs, hands)


def _deals(hidden: list[int], seats: list[int], sizes: list[int], base: list[int]):
    """Every way to give the `hidden` cards to `seats`, `sizes` cards each."""
    if not seats:
        yield tuple(base)
        return
    for chosen in itertools.combinations(hidden, sizes[0]):
        rest = [c for c in hidden if c not in chosen]
        hands = list(base)
        hands[seats[0]] = sum(1 << c for c in chosen)
        yield from _deals(rest, seats[1:], sizes[1:], hands)


@pytest.mark.parametrize("seed", range(10))
def test_the_count_of_deals_is_every_consistent_deal_and_the_draws_are_even(seed):
    """Late in a deal every assignment of the hidden cards is tried by brute force: the sampler counts
    exactly the legal ones, and draws each about equally often."""
    rules = Rules(deck="28", ace_discard_ban=seed % 2 == 0, redeal_below=0)
    state = play_into_deal(rules, seed, 16 + seed % 3)
    viewer = state.to_move
    obs = state.observation(viewer)
    sampler = Sampler(Knowledge.of(obs))
    others = [s for s in range(4) if s != viewer]
    hidden = [c for c in range(36) if any(state.hands[s] >> c & 1 for s in others)]
    base = [0, 0, 0, 0]
    base[viewer] = state.hands[viewer]
    legal_deals = {d for d in _deals(hidden, others, [obs.hand_sizes[s] for s in others], base)
                   if replay_is_legal(obs, d)}
    assert state.hands in legal_deals
    assert sampler._count(0, *sampler.caps) == len(legal_deals)
    rng = random.Random(seed)
    draws = Counter(sampler.draw(rng) for _ in range(200 * len(legal_deals)))
    assert set(draws) == legal_deals
    assert max(draws.values()) < 2 * min(draws.values())


def test_a_void_shown_on_a_plain_lead_keeps_that_suit_out_but_not_the_jacks():
    """A jack is a trump, not a card of its printed suit: not following spades says nothing of JS."""
    obs = play_into_deal(Rules(redeal_below=0), 0, 0).observation(0)
    hand = tuple(card_from_str(c) for c in "JC 7C 8C 9C TC QC KC AC".split())
    lead, discard = card_from_str("AS"), card_from_str("7H")  # E leads spades, S shows none
    fake = dataclasses.replace(obs, hand=hand, hand_sizes=(8, 7, 7, 8), trump=0, jack_holder=0,
                               trick_leader=1, trick=(lead, discard), history=((1, lead), (2, discard)))
    knowledge = Knowledge.of(fake)
    spades = sum(1 << card_from_str(r + "S") for r in "789TQK")
    assert knowledge.allowed[2] & spades == 0
    assert knowledge.allowed[2] >> card_from_str("JS") & 1
    assert knowledge.allowed[3] & spades == spades


@pytest.mark.parametrize("ban", [True, False])
def test_a_banned_ace_discarded_shows_a_hand_of_banned_aces_only(ban):
    """Under `ace_discard_ban` a seat that cannot follow may throw an ace of an unled suit only when it
    holds nothing else: after S throws AH on a spade lead, S can hold only AD (spades have been led)."""
    obs = play_into_deal(Rules(redeal_below=0), 0, 0).observation(0)
    hand = tuple(card_from_str(c) for c in "JC 7C 8C 9C TC QC KC AC".split())
    lead, ace = card_from_str("7S"), card_from_str("AH")
    fake = dataclasses.replace(obs, hand=hand, hand_sizes=(8, 7, 7, 8), trump=0, jack_holder=0,
                               trick_leader=1, trick=(lead, ace), history=((1, lead), (2, ace)),
                               rules=Rules(redeal_below=0, ace_discard_ban=ban))
    knowledge = Knowledge.of(fake)
    if ban:
        assert knowledge.allowed[2] == 1 << card_from_str("AD")
    else:
        assert knowledge.allowed[2] >> card_from_str("KH") & 1
        assert knowledge.allowed[2] & sum(1 << card_from_str(r + "S") for r in "89TQKA") == 0


def test_only_an_observation_is_read():
    state = play_into_deal(Rules(redeal_below=0), 1, 5)
    with pytest.raises(TypeError):
        Knowledge.of(state)  # type: ignore[arg-type]
