"""Bilka for two with the stock known: the solver's positions follow the engine card by card
(draws included), its values agree with an exhaustive minimax on small deals with a stock, and the
best card's value is the position's."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.bilka2_solver import Bilka2Position, Bilka2Solver
from gameplay.engine.cards import deck_cards, mask_cards
from gameplay.engine.variant_analysis import bilka2_start

rules_strategy = st.builds(
    Bilka2Rules,
    deck=st.sampled_from(["32", "36", "32-no-sevens", "28"]),
    stock=st.sampled_from(["halves", "after_trick"]),
    ace_discard_ban=st.booleans(),
)


def brute(pos: Bilka2Position) -> int:
    if pos.over:
        return pos.points[0]
    values = [brute(pos.play(c)) for c in mask_cards(pos.legal_mask())]
    return max(values) if pos.to_move == 0 else min(values)


def small_deal(rng: random.Random, quarter: int) -> Bilka2Position:
    """Hands of `quarter` cards and a stock of as many again for each, at random."""
    cards = deck_cards("32")
    rng.shuffle(cards)
    q = quarter
    hands = (sum(1 << c for c in cards[:q]), sum(1 << c for c in cards[q:2 * q]))
    pos = Bilka2Position.start(hands, tuple(cards[2 * q:4 * q]), rng.randrange(4), rng.randrange(2),
                               after_trick=rng.random() < 0.5, dealer=rng.randrange(2),
                               ace_discard_ban=rng.random() < 0.3)
    for _ in range(rng.randrange(2)):
        pos = pos.play(rng.choice(mask_cards(pos.legal_mask())))
    return pos


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), quarter=st.sampled_from([1, 2, 3]))
def test_solver_agrees_with_brute_force(seed: int, quarter: int) -> None:
    pos = small_deal(random.Random(seed), quarter)
    solver = Bilka2Solver(pos)
    assert solver.value(pos) == brute(pos)
    values = solver.card_values(pos)
    assert set(values) == set(mask_cards(pos.legal_mask()))
    for card, v in values.items():
        assert v == brute(pos.play(card))
    best = max(values.values()) if pos.to_move == 0 else min(values.values())
    assert Bilka2Solver(pos).value(pos) == best


@settings(max_examples=30, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_positions_follow_the_engine(rules: Bilka2Rules, seed: int) -> None:
    rng = random.Random(seed)
    state = Bilka2MatchState(rules, seed=seed)
    log = state.deals[-1]
    pos = bilka2_start(rules, log)
    while log.outcome is None:
        assert pos.legal_mask() == state.legal_mask()
        card = rng.choice(state.legal_actions())
        state.apply(card)
        pos = pos.play(card)
        if log.outcome is None:
            assert pos.hands == state.hands
            assert len(pos.stock) == state.stock_left
    assert pos.over
    assert pos.points == log.points


def test_a_whole_deal_with_halves_is_solved_and_consistent() -> None:
    # with `stock=halves` a whole 32-card deal is solved from its first card (the benchmark times it)
    state = Bilka2MatchState(Bilka2Rules(), seed=11)
    pos = bilka2_start(state.rules, state.deals[-1])
    solver = Bilka2Solver(pos)
    values = solver.card_values(pos)
    par = max(values.values()) if pos.to_move == 0 else min(values.values())
    assert 0 <= par <= 120
    assert Bilka2Solver(pos).value(pos) == par
