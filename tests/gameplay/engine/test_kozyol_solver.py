"""Kozyol's double-dummy solver: its positions follow the engine card by card, its values agree
with an exhaustive minimax on small end positions, the best card's value is the position's, and
the catch is worth every card still out to the catchers."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variant_helpers import mask

from gameplay.engine.cards import deck_cards, mask_cards
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.kozyol_rules import QC, KozyolRules, ladder_of
from gameplay.engine.kozyol_solver import KozyolPosition, KozyolSolver

rules_strategy = st.builds(
    KozyolRules,
    deck=st.sampled_from(["36", "32", "32-no-sevens", "28"]),
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    six_of_clubs=st.booleans(),
    ace_discard_ban=st.booleans(),
    dealer_leads_plain=st.booleans(),
    redeal_below=st.just(0),
)


def brute(pos: KozyolPosition) -> int:
    """Plain minimax over every legal card: the objective N/S end the deal with."""
    if pos.over:
        return pos.objective
    values = [brute(pos.play(c)) for c in mask_cards(pos.legal_mask())]
    return max(values) if pos.to_move % 2 == 0 else min(values)


def small_position(rules: KozyolRules, rng: random.Random, tricks: int) -> KozyolPosition:
    """`tricks` cards a hand, dealt at random, with the шамок and the queen of clubs often in play,
    and up to three cards of the first trick already played."""
    cards = deck_cards(rules.deck)
    rng.shuffle(cards)
    shamok = ladder_of(rules).shamok
    if rng.random() < 0.6:  # bring the catch's two cards to the front
        for card in (QC, shamok):
            if card is not None:
                cards.remove(card)
                cards.insert(rng.randrange(4 * tricks), card)
    hands = tuple(sum(1 << c for c in cards[s * tricks:(s + 1) * tricks]) for s in range(4))
    pos = KozyolPosition.start(rules, (hands[0], hands[1], hands[2], hands[3]), rng.randrange(4),
                               dealer=rng.randrange(4), first_played=rng.random() < 0.5)
    for _ in range(rng.randrange(4)):
        pos = pos.play(rng.choice(mask_cards(pos.legal_mask())))
    return pos


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32), tricks=st.sampled_from([2, 3]))
def test_solver_agrees_with_brute_force(rules: KozyolRules, seed: int, tricks: int) -> None:
    pos = small_position(rules, random.Random(seed), tricks)
    solver = KozyolSolver.for_position(pos)
    assert solver.value(pos) == brute(pos)
    values = solver.card_values(pos)
    assert set(values) == set(mask_cards(pos.legal_mask()))
    for card, v in values.items():
        assert v == brute(pos.play(card))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_best_card_value_is_the_position_value(rules: KozyolRules, seed: int) -> None:
    rng = random.Random(seed)
    pos = small_position(rules, rng, 4)
    values = KozyolSolver.for_position(pos).card_values(pos)
    best = max(values.values()) if pos.to_move % 2 == 0 else min(values.values())
    assert KozyolSolver.for_position(pos).value(pos) == best
    # a fresh solver on the position after each card says the same as the shared table did
    card = rng.choice(sorted(values))
    after = pos.play(card)
    assert KozyolSolver.for_position(after).value(after) == values[card]


@settings(max_examples=30, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_positions_follow_the_engine(rules: KozyolRules, seed: int) -> None:
    rng = random.Random(seed)
    state = KozyolMatchState(rules, seed=seed)
    log = state.deals[-1]
    pos = KozyolPosition.start(rules, log.hands, log.leader, dealer=log.dealer, first_played=True)
    while log.outcome is None:
        assert pos.legal_mask() == state.legal_mask()
        card = rng.choice(state.legal_actions())
        state.apply(card)
        pos = pos.play(card)
        if log.outcome is None:
            assert pos.hands == state.hands
            assert pos.points == state.points
    assert pos.over
    assert pos.caught == log.catch
    assert pos.points == log.points


def test_a_catch_counts_as_every_card_to_the_catchers() -> None:
    # N leads the шамок; E's only trump is the queen of clubs and he must play it: the deal stops
    # and N/S are given every point still out, the trick never played included (28). The ace of
    # hearts first takes 25, and the шамок then catches the queen all the same.
    rules = KozyolRules()
    hands = (mask("6C AH"), mask("QC TH"), mask("7C KH"), mask("8C 9H"))
    pos = KozyolPosition.start(rules, hands, 0)
    values = KozyolSolver.for_position(pos).card_values(pos)
    assert values == {card("6C"): 28, card("AH"): 28}
    after = pos.play(card("6C")).play(card("QC")).play(card("7C")).play(card("8C"))
    assert after.caught == 0 and after.over and after.objective == 28


def test_the_other_pair_is_forced_into_the_catch_by_a_trump_lead() -> None:
    # S leads a diamond: N must trump with his шамок, E with his only trump, the queen of clubs.
    # A heart lead instead lets E keep the queen back and take the tricks that matter.
    rules = KozyolRules()
    hands = (mask("6C 9H"), mask("QC AS"), mask("7D TH"), mask("8S KS"))
    pos = KozyolPosition.start(rules, hands, 2)
    values = KozyolSolver.for_position(pos).card_values(pos)
    assert values[card("7D")] == 28
    assert values[card("TH")] < 28
    assert KozyolSolver.for_position(pos).value(pos) == 28


def test_the_other_pair_throws_points_rather_than_be_caught() -> None:
    # N leads the шамок, a trump lead: E must play a trump, and holds two, the queen of clubs and
    # the jack of spades. He plays the jack and keeps the queen out of the catch.
    rules = KozyolRules()
    hands = (mask("6C 9H"), mask("QC JS"), mask("7D TH"), mask("8S KS"))
    pos = KozyolPosition.start(rules, hands, 0).play(card("6C"))
    values = KozyolSolver.for_position(pos).card_values(pos)
    assert set(values) == {card("QC"), card("JS")}
    assert values[card("JS")] < values[card("QC")]  # E/W minimise: the jack, never the queen


def card(text: str) -> int:
    return mask_cards(mask(text))[0]
