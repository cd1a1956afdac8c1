"""The strong bot: legal cards under every rule, blind to the hidden hands, within its time budget,
and better than the beginner where the solver can see the deal through."""

from __future__ import annotations

import random

import pytest
from test_engine_sampler import play_into_deal

from gameplay.engine import bot, bots, strong_bot
from gameplay.engine.cards import PASS, REDEAL
from gameplay.engine.deal_position import Position
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.sampler import Knowledge
from gameplay.engine.solver import Solver
from gameplay.engine.state import Phase
from gameplay.engine.strong_bot import CostModel


class FakeClock:
    """Each reading is `step` seconds after the last: every solve "takes" time."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


class SolveUpTo(CostModel):
    """A cost model that lets every decision with at most `limit` cards left be solved, and no other
    (the tests pick how deep the bot thinks, whatever this machine's speed)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def predict(self, cards_left: int) -> float:
        return 0.0 if cards_left <= self.limit else float("inf")


def cheap_costs(limit: int) -> CostModel:
    return SolveUpTo(limit)


def still() -> float:
    """A clock that stands still: with it the work of a decision is bounded by its sample count and
    the cost model alone, never cut short by a busy machine's slowness."""
    return 0.0


RULE_SETS = [
    Rules(),
    Rules(deck="36", direction="counterclockwise", ace_discard_ban=True),
    Rules(deck="32-no-sevens", first_lead="after_dealer", redeal_below=0, redeal_four_nines=True),
    Rules(deck="28", ace_discard_ban=True, redeal_five_of_suit=True, rout_at=91, lucy_by="points",
          eggs="plus_four", lucy="zero", review_tricks="none", three_redeals_eye=True),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.deck}-{r.direction}-{r.ace_discard_ban}")
def test_it_plays_only_legal_cards_under_every_rule(rules):
    """Whole deals with four strong bots, solving from 16 cards left: `apply` refuses anything illegal."""
    costs = cheap_costs(16)
    for seed in range(3):
        state = MatchState(rules, seed=seed)
        rng = random.Random(seed)
        solved = 0
        while len(state.deals) < 3 and state.phase != Phase.OVER:
            if state.phase == Phase.REDEAL:
                seat = state.redeal_pending[0]
                action = strong_bot.choose_action(state.observation(seat), rng)
                assert action in (PASS, REDEAL)
                state.apply(action, seat)
                continue
            obs = state.observation(state.to_move)
            action, n = strong_bot.decide(obs, rng, budget=5.0, max_samples=3, costs=costs, clock=still)
            assert action in obs.legal
            solved += n
            state.apply(action)
        assert solved > 0


def test_it_decides_from_an_observation_only():
    state = play_into_deal(Rules(redeal_below=0), 3, 20)
    with pytest.raises(TypeError):
        strong_bot.choose_action(state, random.Random(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(6))
def test_other_hands_do_not_change_its_choice(seed):
    """Two deals that differ only in the hidden hands give the seat the same observation, and the
    bot the same card for the same random seed."""
    rules = Rules(redeal_below=0, ace_discard_ban=seed % 2 == 1)
    state = play_into_deal(rules, seed, 17)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    viewer = state.to_move
    obs = state.observation(viewer)
    other_hands = Knowledge.of(obs).sample(random.Random(seed + 100))
    assert other_hands != state.hands
    dealt = list(other_hands)
    for seat, card in obs.history:
        dealt[seat] |= 1 << card
    twin = MatchState(rules, auto_deal=False, first_dealer=obs.dealer, seed=seed)
    twin.suit_of_seat = obs.suit_of_seat
    twin.start_deal(tuple(dealt))
    for _, card in obs.history:
        twin.apply(card)
    assert twin.hands != state.hands
    twin_obs = twin.observation(viewer)
    assert twin_obs == obs
    choices = {strong_bot.decide(o, random.Random(7), budget=9.0, max_samples=8, costs=cheap_costs(16),
                                 clock=still)
               for o in (obs, twin_obs)}
    assert len(choices) == 1 and next(iter(choices))[1] == 8


def test_it_stops_drawing_when_the_clock_says_the_budget_is_spent():
    state = play_into_deal(Rules(redeal_below=0), 5, 22)
    obs = state.observation(state.to_move)
    assert len(obs.legal) > 1

    def solved(budget: float, **kw: object) -> int:
        # every reading of the clock is 1/16 s after the last: a solve "takes" 1/16 s (twice that is
        # budgeted), the k-th draw starts 2k/16 s after the decision began and goes on if (2k+1)/16 fits
        return strong_bot.decide(obs, random.Random(1), budget=budget, clock=FakeClock(0.0625),
                                 costs=CostModel(), **kw)[1]  # type: ignore[arg-type]

    assert solved(1.0) == 7
    assert solved(3.0) == 23
    assert solved(1000.0, max_samples=20) == 20


def test_where_not_one_solve_fits_it_plays_the_beginners_card():
    state = play_into_deal(Rules(redeal_below=0), 6, 1)
    obs = state.observation(state.to_move)
    costs = CostModel()
    costs.slowest[31] = 2.0  # one solve here took 2 s before
    action, solved = strong_bot.decide(obs, random.Random(3), budget=1.0, costs=costs)
    assert solved == 0
    assert action == bot.choose_action(obs, random.Random(3))


def test_the_cost_model_learns_and_extrapolates():
    costs = CostModel()
    assert costs.predict(8) == 0.0 and costs.predict(30) == float("inf")
    costs.observe(12, 0.01)
    assert costs.predict(14) == pytest.approx(0.01 * CostModel.GROWTH ** 2)
    costs.observe(20, 0.5)
    assert costs.predict(16) == 0.5 and costs.predict(20) == 0.5
    costs.observe(20, 0.1)
    assert costs.predict(20) == pytest.approx(0.5 * CostModel.DECAY)
    costs.calibrate(0.05, deck="28", deals=1, clock=FakeClock(0.01))
    assert set(costs.slowest) >= {4, 8, 24, 28}


def _dd_loss(obs_state: MatchState, card: int) -> int:
    """Points the card loses for its pair against the best card, with every hand known."""
    seat = obs_state.to_move
    log = obs_state.deals[-1]
    trick = obs_state.trick
    unled = Knowledge.of(obs_state.observation(seat)).unled_aces
    points = obs_state.points
    next_seat = (1, 2, 3, 0) if obs_state.rules.direction == "clockwise" else (3, 0, 1, 2)
    pos = Position(obs_state.hands, log.trump, obs_state.trick_leader, trick, unled, points, next_seat)
    values = Solver(log.trump, next_seat).card_values(pos)
    sign = 1 if seat % 2 == 0 else -1
    best = max(sign * v for v in values.values())
    return best - sign * values[card]


def test_it_loses_fewer_points_than_the_beginner_in_the_last_tricks():
    """From the last three tricks on, summed over many decisions, the strong bot gives away less
    against double-dummy play than the beginner."""
    strong_loss = beginner_loss = decisions = 0
    for seed in range(40):
        state = play_into_deal(Rules(redeal_below=0), seed, 20)
        log = state.deals[-1]
        while log.outcome is None:
            obs = state.observation(state.to_move)
            if len(obs.legal) > 1:
                decisions += 1
                s = strong_bot.choose_action(obs, random.Random(seed), budget=10.0, max_samples=16,
                                             costs=cheap_costs(12), clock=still)
                b = bot.choose_action(obs, random.Random(seed))
                strong_loss += _dd_loss(state, s)
                beginner_loss += _dd_loss(state, b)
            state.apply(bot.choose_action(obs, random.Random(seed)))
    assert decisions > 100
    assert strong_loss * 4 < beginner_loss * 3


def test_levels_by_name():
    state = play_into_deal(Rules(redeal_below=0), 8, 26)
    obs = state.observation(state.to_move)
    assert set(bots.LEVELS) == {"beginner", "strong"}
    assert bots.choose("beginner", obs, random.Random(2)) == bot.choose_action(obs, random.Random(2))
    assert bots.choose("strong", obs, random.Random(2), budget=5.0) in obs.legal
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose("grandmaster", obs, random.Random(2))


def test_a_solve_that_runs_past_the_hard_stop_is_dropped():
    # the cost model says a solve is cheap; the clock says otherwise: every reading is 0.3 s after
    # the last, so the first question the solver asks (after 1,024 positions) is past 0.85 of 1 s
    state = play_into_deal(Rules(redeal_below=0), 5, 0)
    obs = state.observation(state.to_move)
    assert len(obs.legal) > 1
    costs = CostModel()
    costs.slowest[sum(obs.hand_sizes)] = 0.0001
    action, solved = strong_bot.decide(obs, random.Random(3), budget=1.0, clock=FakeClock(0.3), costs=costs)
    assert solved == 0
    assert action == bot.choose_action(obs, random.Random(3))  # the beginner's card, not a half-solved one
    assert costs.predict(sum(obs.hand_sizes)) >= 0.3  # and the model learnt that it was dear
