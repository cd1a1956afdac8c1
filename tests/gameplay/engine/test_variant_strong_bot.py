"""The strong bot of Kozyol and Bilka for two: its guesses agree with everything its seat saw, it
plays only legal cards over many random deals, and in Kozyol it beats the beginner."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import variant_bot, variant_strong_bot
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import deck_mask
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.kozyol_rules import AD, KozyolRules, ladder_of
from gameplay.engine.ladder import FOLLOW, LEAD_KEY
from gameplay.engine.state import Phase
from gameplay.engine.variant_sampler import Bilka2Layouts, kozyol_sampler

kozyol_rules = st.builds(
    KozyolRules, deck=st.sampled_from(["36", "32", "28"]), six_of_clubs=st.booleans(),
    direction=st.sampled_from(["clockwise", "counterclockwise"]), ace_discard_ban=st.booleans(),
    first_lead=st.sampled_from(["ace_of_diamonds", "after_dealer"]), dealer_leads_plain=st.booleans(),
    redeal_below=st.just(0))
bilka2_rules = st.builds(
    Bilka2Rules, deck=st.sampled_from(["32", "36", "28"]), stock=st.sampled_from(["halves", "after_trick"]),
    ace_discard_ban=st.booleans())


def play_some(state: KozyolMatchState | Bilka2MatchState, rng: random.Random, cards: int) -> None:
    """Up to `cards` cards of the first deal by the beginner (who shows voids as people do)."""
    log = state.deals[-1]
    for _ in range(cards):
        if log.outcome is not None or state.deals[-1] is not log:
            return
        state.apply(variant_bot.choose_action(state.observation(state.to_move), rng))  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=kozyol_rules, seed=st.integers(0, 2**32), cards=st.integers(0, 30))
def test_kozyol_layouts_agree_with_what_the_seat_saw(rules: KozyolRules, seed: int, cards: int) -> None:
    rng = random.Random(seed)
    state = KozyolMatchState(rules, seed=seed)
    play_some(state, rng, cards)
    if state.phase != Phase.PLAY:
        return
    seat = state.to_move
    assert seat is not None
    view = state.observation(seat)
    lad = ladder_of(rules)
    played = sum(1 << c for _, c in view.history)

    def consistent(hands: tuple[int, int, int, int]) -> bool:
        if hands[seat] != sum(1 << c for c in view.hand):
            return False
        every = hands[0] | hands[1] | hands[2] | hands[3] | played
        if any(hands[s] & hands[t] for s in range(4) for t in range(s)) or every != deck_mask(rules.deck):
            return False
        if [h.bit_count() for h in hands] != [h.bit_count() for h in state.hands]:
            return False
        for start in range(0, len(view.history), 4):
            trick = view.history[start:start + 4]
            follow = lad.follow[lad.lead_key[trick[0][1]]]
            if any(not follow >> c & 1 and hands[s] & follow for s, c in trick[1:]):
                return False  # a seat that did not follow holds no card that follows
        first = state.deals[-1].leader
        ace_first = rules.first_lead == "ace_of_diamonds" and not played >> AD & 1
        return not (ace_first and not hands[first] >> AD & 1)

    assert consistent(state.hands)  # the truth passes the check
    sampler = kozyol_sampler(view)
    for _ in range(20):
        assert consistent(sampler.draw(rng))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=bilka2_rules, seed=st.integers(0, 2**32), cards=st.integers(0, 34))
def test_bilka2_layouts_agree_with_what_the_player_saw(rules: Bilka2Rules, seed: int, cards: int) -> None:
    rng = random.Random(seed)
    state = Bilka2MatchState(rules, seed=seed)
    play_some(state, rng, cards)
    if state.phase != Phase.PLAY:
        return
    me = state.to_move
    assert me is not None
    opp = 1 - me
    view = state.observation(me)
    log = state.deals[-1]
    hidden = state.hands[opp] | sum(1 << c for c in log.stock[len(log.draws):])  # the truth, to compare
    draws_after: dict[int, int] = {}  # trick -> how many cards the opponent drew after it (the tricks so far)
    for t in range(len(view.history) // 2):
        later = sum(1 for i, (p, _) in enumerate(log.draws) if p == opp and draw_trick(rules, i) >= t)
        draws_after[t] = later
    layouts = Bilka2Layouts(view)
    for _ in range(20):
        hand, stock = layouts.draw(rng)
        assert hand.bit_count() == state.hands[opp].bit_count()
        assert len(stock) == state.stock_left
        assert hand | sum(1 << c for c in stock) == hidden and not hand & sum(1 << c for c in stock)
        # a void shown at trick t: of that suit, he holds now (or played after t) no more cards
        # than he drew after t
        for t in range(0, len(view.history), 2):
            trick = view.history[t:t + 2]
            if len(trick) < 2 or trick[1][0] != opp:
                continue
            follow = FOLLOW[view.trump * 4 + LEAD_KEY[view.trump][trick[0][1]]]
            if follow >> trick[1][1] & 1:
                continue
            later = sum(1 for p, c in view.history[t + 2:] if p == opp and follow >> c & 1)
            assert (hand & follow).bit_count() + later <= draws_after[t // 2]


def draw_trick(rules: Bilka2Rules, i: int) -> int:
    """After which trick the i-th draw of a deal happened."""
    quarter = deck_mask(rules.deck).bit_count() // 4
    return i // 2 if rules.stock == "after_trick" else quarter - 1


def play_deal(state: KozyolMatchState | Bilka2MatchState, strong: set[int], rng: random.Random, *,
              budget: float, max_samples: int) -> None:
    """One deal, the seats in `strong` played by the strong bot, the others by the beginner."""
    log = state.deals[-1]
    while log.outcome is None:
        if state.phase == Phase.REDEAL:
            state.end_redeal_phase()  # type: ignore[union-attr]
            continue
        seat = state.to_move
        assert seat is not None
        view = state.observation(seat)
        if seat in strong:
            action = variant_strong_bot.choose_action(view, rng, budget=budget, max_samples=max_samples)
        else:
            action = variant_bot.choose_action(view, rng)
        assert action in view.legal
        state.apply(action)


def legal_over(deals: int) -> None:
    rng = random.Random(deals)
    for i in range(deals):
        game = KozyolMatchState(KozyolRules(deck=rng.choice(["36", "32"]), ace_discard_ban=i % 3 == 0,
                                            dealer_leads_plain=i % 4 == 0), seed=i)
        play_deal(game, {0, 1, 2, 3} if i % 2 else {0, 2}, rng, budget=0.005, max_samples=1)
        two = Bilka2MatchState(Bilka2Rules(stock="after_trick" if i % 2 else "halves",
                                           ace_discard_ban=i % 3 == 0), seed=i)
        play_deal(two, {0, 1} if i % 3 else {i % 2}, rng, budget=0.005, max_samples=1)


def test_the_strong_bots_are_legal_over_a_hundred_deals() -> None:
    legal_over(100)


@pytest.mark.slow
def test_the_strong_bots_are_legal_over_hundreds_more_deals() -> None:
    # 300 more deals of each game (about a minute); `bench/engine/variant_solver.py` plays as many
    # as asked (1,000 of each passed when this was written, in 215 s).
    legal_over(300)


def deal_value(log: object) -> int:
    """N/S's points of a played Kozyol deal, a catch counted as the solver counts it."""
    points = log.points  # type: ignore[attr-defined]
    catch = log.catch  # type: ignore[attr-defined]
    if catch is None:
        return int(points[0])
    return 120 - int(points[1]) if catch % 2 == 0 else int(points[0])


@pytest.mark.slow
def test_the_strong_pair_beats_the_beginners_in_kozyol() -> None:
    # Duplicate: each deal is played twice, the strong pair N/S and then E/W, so the cards cancel out.
    # 60 deals at a small budget keep this a check that the bot is stronger; the figure with its
    # interval over 200 deals at the tables' budget is the benchmark's (`--arena 200`).
    rng = random.Random(7)
    margins = []
    for i in range(60):
        values = []
        for strong in ({0, 2}, {1, 3}):
            state = KozyolMatchState(KozyolRules(redeal_below=0), seed=1000 + i)
            play_deal(state, strong, rng, budget=0.05, max_samples=8)
            v = deal_value(state.deals[0])
            values.append(v if 0 in strong else 120 - v)  # the strong pair's points
        # the strong pair's points over both tables less the beginners' on the same cards
        margins.append(values[0] + values[1] - 120)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    assert mean - half > 0, (mean, half)

