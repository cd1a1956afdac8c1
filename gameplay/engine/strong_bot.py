"""The strong bot: many guesses at the hidden hands, each solved with all cards known, averaged.

At each card it draws deals consistent with everything its seat has seen (`sampler.py`: the
cards played and by whom, the voids shown, the public `JC` holder, the hand sizes), asks the
double-dummy solver for the value of each of its legal cards in each deal, and plays the card
whose average is best for its pair ("perfect-information Monte Carlo").

What it averages: the card points its pair ends the deal with (not the eyes). Points track the
eyes closely (61, the rout and all-tricks are all reached through points and tricks), the
solver answers points exactly, and an average of points keeps a card that wins 5 points more on
average from losing to one that only moves a rare threshold. The eyes would need the solver to
search thresholds; they are left for later.

The redeal question is answered by the beginner's rule (`bot.wants_redeal`): the deal is
redealt only on a hand with almost no high cards, which is what a strong player asks too.

Time: `budget` seconds per decision. A deal is solved only when the time spent plus what one solve
is expected to take still fits the budget, and a solve still running at `HARD_STOP` of the budget is
stopped (the solver asks the clock every 1024 positions) and dropped; the expectation (`CostModel`)
is learnt from the solves this process has timed, per number of cards still in the hands, as a
slowly forgotten maximum; for a number of cards never timed it is that of the nearest larger number
timed, else the nearest smaller one's times a growth factor per card (`calibrate` times a few random
deals of each size up front). So the bot adapts to the solver it runs on (pure Python, mypyc, C):
where even one solve would not fit (the first cards of a deal, on a slow solver) it plays the
beginner's card for that decision instead of overrunning the table's clock. The clock can be given,
so a test can spend the budget for it.
It sees only an `Observation`: never the state, never another seat's hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gameplay.engine import bot
from gameplay.engine.bot import wants_redeal
from gameplay.engine.cards import JACK_RANK, PASS, REDEAL, VALUE, deck_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.ladder import PLAIN_ORDER
from gameplay.engine.observation import Observation
from gameplay.engine.sampler import Knowledge
from gameplay.engine.solver import Solver

#: Seconds per decision unless the caller says otherwise (the tables' "strong" setting).
DEFAULT_BUDGET = 1.0
#: Enough deals that more change little; the budget usually stops the drawing first.
MAX_SAMPLES = 64
#: A solve is started only if twice its expected cost still fits: deals of one size differ
#: tenfold in cost, and without the margin the p99 decision overran a 1 s budget by half.
SAFETY = 2.0
#: A solve still running when this share of the budget is spent is stopped and dropped: the
#: cost model is a guess, and one deal in a few hundred costs ten times its size's usual, which
#: without the stop took a decision to 2.2 s on a 1 s budget.
HARD_STOP = 0.85


class CostModel:
    """What one solve costs, in seconds, by the number of cards still in the four hands."""

    #: Each further card in the hands multiplies a solve's cost by about this much (measured
    #: between 12 and 28 cards on the mypyc solver: 1.5 to 2; the larger for safety).
    GROWTH = 2.0
    #: A solve with at most this many cards left is assumed cheap before it is ever timed.
    CHEAP = 12
    #: How slowly the remembered maximum is forgotten, per new timing of the same size.
    DECAY = 0.97

    def __init__(self) -> None:
        self.slowest: dict[int, float] = {}

    def predict(self, cards_left: int) -> float:
        known = self.slowest.get(cards_left)
        if known is not None:
            return known
        larger = [n for n in self.slowest if n > cards_left]
        if larger:
            return self.slowest[min(larger)]  # more cards never cost less, by and large
        smaller = [n for n in self.slowest if n < cards_left]
        if smaller:
            m = max(smaller)
            return self.slowest[m] * self.GROWTH ** (cards_left - m)
        return 0.0 if cards_left <= self.CHEAP else float("inf")

    def observe(self, cards_left: int, seconds: float) -> None:
        old = self.slowest.get(cards_left)
        self.slowest[cards_left] = seconds if old is None else max(seconds, old * self.DECAY)

    def calibrate(self, budget: float, *, deck: str = "32", deals: int = 3, seed: int = 0,
                  clock: Callable[[], float] = time.perf_counter) -> None:
        """Time solves of random deals cut to 1, 2, ... tricks, `deals` of each size, and stop at
        the first size whose slowest solve passes `budget`: a worker (or the arena) that calls
        this at start knows its solver's speed before its first decision."""
        rng = random.Random(seed)  # noqa: S311 - test deals, not secrets
        cards = deck_cards(deck)
        for per_hand in range(1, len(cards) // 4 + 1):
            slowest = 0.0
            for _ in range(deals):
                drawn = rng.sample(cards, 4 * per_hand)
                hands = tuple(sum(1 << c for c in drawn[s::4]) for s in range(4))
                trump = rng.randrange(4)
                leader = rng.randrange(4)
                pos = Position.start((hands[0], hands[1], hands[2], hands[3]), trump, leader,
                                     ace_discard_ban=False)
                began = clock()
                Solver(trump).card_values(pos)
                seconds = clock() - began
                self.observe(4 * per_hand, seconds)
                slowest = max(slowest, seconds)
            if slowest > budget:
                return


#: The process's cost model, shared by every decision (a Celery worker learns it once).
COSTS = CostModel()


def choose_action(obs: Observation, rng: random.Random, *, budget: float = DEFAULT_BUDGET,
                  clock: Callable[[], float] = time.perf_counter, max_samples: int = MAX_SAMPLES,
                  costs: CostModel | None = None) -> int:
    """The strong bot's action for the seat of `obs` (which must have an action to take)."""
    return decide(obs, rng, budget=budget, clock=clock, max_samples=max_samples, costs=costs)[0]


def decide(obs: Observation, rng: random.Random, *, budget: float = DEFAULT_BUDGET,
           clock: Callable[[], float] = time.perf_counter, max_samples: int = MAX_SAMPLES,
           costs: CostModel | None = None) -> tuple[int, int]:
    """(action, number of deals solved) — the number for benchmarks and tests."""
    if not isinstance(obs, Observation):
        raise TypeError("the strong bot decides from an Observation only")
    legal = obs.legal
    if not legal:
        raise ValueError("the observed seat has no action to take")
    if obs.redeal_phase:
        assert obs.hand is not None and obs.trump is not None  # noqa: S101
        return (REDEAL if REDEAL in legal and wants_redeal(obs.hand, obs.trump) else PASS), 0
    if len(legal) == 1:
        return legal[0], 0
    start = clock()
    knowledge = Knowledge.of(obs)
    sampler = knowledge.sampler()
    trump = obs.trump
    assert trump is not None and obs.trick_leader is not None  # noqa: S101
    hard_stop = start + HARD_STOP * budget
    # one table for the decision: its keys are whole deals
    solver = Solver(trump, knowledge.next_seat, stop=lambda: clock() > hard_stop)
    totals = dict.fromkeys(legal, 0)
    costs = COSTS if costs is None else costs
    cards_left = sum(obs.hand_sizes)
    solved = 0
    while solved < max_samples:
        began = clock()
        if began - start + SAFETY * costs.predict(cards_left) > budget:
            break
        hands = sampler.draw(rng)
        pos = Position(hands, trump, obs.trick_leader, obs.trick, knowledge.unled_aces, knowledge.points,
                       knowledge.next_seat)
        try:
            values = solver.card_values(pos)
        except TimeoutError:
            costs.observe(cards_left, clock() - began)  # it cost at least this much: remember it
            break
        for card, ns_points in values.items():
            totals[card] += ns_points
        solved += 1
        costs.observe(cards_left, clock() - began)
    if not solved:
        return bot.choose_action(obs, rng), 0  # not even one solve fits: the beginner's card
    sign = 1 if obs.seat is not None and obs.seat % 2 == 0 else -1
    best = max(sign * totals[c] for c in legal)
    return min((c for c in legal if sign * totals[c] == best), key=lambda c: _cheap_first(c, trump)), solved


def _cheap_first(card: int, trump: int) -> tuple[int, int, int]:
    """Among equally good cards, keep the valuable and the strong: points, then trumps, then rank."""
    rank = card % 9
    trumpish = rank == JACK_RANK or card // 9 == trump
    return (VALUE[card], 1 if trumpish else 0, 9 if rank == JACK_RANK else PLAIN_ORDER[rank])


class StrongBot:
    """Callable form for the live tables: `StrongBot(rng, budget=...)(observation) -> action`."""

    def __init__(self, rng: random.Random | None = None, *, budget: float = DEFAULT_BUDGET) -> None:
        self.rng = rng or random.Random()  # noqa: S311 - play choices, not secrets
        self.budget = budget

    def __call__(self, obs: Observation) -> int:
        return choose_action(obs, self.rng, budget=self.budget)


__all__ = ["DEFAULT_BUDGET", "StrongBot", "choose_action", "decide"]
