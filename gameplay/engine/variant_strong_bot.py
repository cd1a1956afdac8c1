"""The strong bot of Kozyol and of Bilka for two: many guesses at the hidden cards, each solved
with every card known, averaged (Bilka's `strong_bot.py` for the other two games).

At each card it draws layouts consistent with everything its seat has seen (`variant_sampler.py`:
the three hidden hands in Kozyol; the opponent's hand and the stock's order in Bilka for two), asks
the game's solver (`kozyol_solver.py`, `bilka2_solver.py`) for the value of each of its legal cards
in each layout, and plays the card whose average is best for its side. What it averages is each
solver's objective: card points, with Kozyol's catch as every card to the catchers.

The solvers are pure Python, so a whole deal is searched only where that is quick: Kozyol once at
most `KOZYOL_CARDS` cards are left in the hands, Bilka for two with `stock=halves` always, with
`stock=after_trick` once at most `AFTER_TRICK_CARDS` are left in the hands and the stock (the
benchmark `bench/engine/variant_solver.py` gives the times). Before that, and whenever not even
one solve fits the budget, it plays the beginner's card (`variant_bot.py`). A solve still running
at `HARD_STOP` of the budget is stopped and dropped. It sees only a `View`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from gameplay.engine import variant_bot
from gameplay.engine.bilka2_rules import Bilka2Rules
from gameplay.engine.bilka2_solver import Bilka2Position, Bilka2Solver
from gameplay.engine.cards import VALUE
from gameplay.engine.kozyol_rules import KozyolRules, ladder_of
from gameplay.engine.kozyol_solver import KozyolPosition, KozyolSolver
from gameplay.engine.sampler import Inconsistent
from gameplay.engine.variant_sampler import Bilka2Layouts, kozyol_knowledge
from gameplay.engine.variant_view import View

DEFAULT_BUDGET = 1.0
MAX_SAMPLES = 32
HARD_STOP = 0.85
#: Kozyol is searched once at most this many cards are left in the four hands (a solve of every
#: card at 24 cards: median 0.16 s, the slowest of ten 0.7 s; at 20 cards a few ms).
KOZYOL_CARDS = 24
#: Bilka for two with `stock=after_trick` is searched once at most this many cards are left in the
#: hands and the stock (at 20: median 0.26 s a solve; at 16 cards 0.03 s).
AFTER_TRICK_CARDS = 20


def choose_action(view: View, rng: random.Random, *, budget: float = DEFAULT_BUDGET,
                  clock: Callable[[], float] = time.perf_counter, max_samples: int = MAX_SAMPLES) -> int:
    """The strong bot's action for the seat of `view` (which must have an action to take)."""
    return decide(view, rng, budget=budget, clock=clock, max_samples=max_samples)[0]


def decide(view: View, rng: random.Random, *, budget: float = DEFAULT_BUDGET,
           clock: Callable[[], float] = time.perf_counter, max_samples: int = MAX_SAMPLES) -> tuple[int, int]:
    """(action, number of layouts solved): 0 solved means the beginner's card was played."""
    legal = view.legal
    if not legal:
        raise ValueError("the observed seat has no action to take")
    if view.redeal_phase or len(legal) == 1 or not _worth_searching(view):
        return variant_bot.choose_action(view, rng), 0
    start = clock()
    hard_stop = start + HARD_STOP * budget

    def stop() -> bool:
        return clock() > hard_stop

    try:
        layouts = _layouts(view)
    except Inconsistent:
        return variant_bot.choose_action(view, rng), 0
    totals = dict.fromkeys(legal, 0)
    solved = 0
    solver: KozyolSolver | Bilka2Solver | None = None
    while solved < max_samples and clock() < hard_stop:
        try:
            pos = layouts(rng)
        except Inconsistent:  # no guess meets every void shown (rare): the beginner's card
            break
        try:
            if isinstance(pos, KozyolPosition):
                if not isinstance(solver, KozyolSolver):
                    solver = KozyolSolver.for_position(pos, stop=stop)  # one table: its keys are whole deals
                values = solver.card_values(pos)
            else:
                values = Bilka2Solver(pos, stop=stop).card_values(pos)  # a table per stock
        except TimeoutError:
            break
        for card, v in values.items():
            totals[card] += v
        solved += 1
    if not solved:
        return variant_bot.choose_action(view, rng), 0
    sign = 1 if view.seat % 2 == 0 else -1
    best = max(sign * totals[c] for c in legal)
    trumps = view.trumps
    return min((c for c in legal if sign * totals[c] == best),
               key=lambda c: (VALUE[c], trumps >> c & 1, view.strength[view.lead_key[c]][c])), solved


def _worth_searching(view: View) -> bool:
    rules = view.rules
    if isinstance(rules, KozyolRules):
        return 4 * len(view.hand) - len(view.trick) <= KOZYOL_CARDS
    if isinstance(rules, Bilka2Rules):
        left = 2 * len(view.hand) - len(view.trick) + view.stock_left
        return rules.stock == "halves" or left <= AFTER_TRICK_CARDS
    return False


def _layouts(view: View) -> Callable[[random.Random], KozyolPosition | Bilka2Position]:
    """A function drawing one position consistent with `view`, every card known."""
    rules = view.rules
    if isinstance(rules, KozyolRules):
        k = kozyol_knowledge(view)
        sampler = k.sampler()
        ladder = ladder_of(rules)
        leader = view.trick_seats[0] if view.trick else view.seat

        def kozyol(rng: random.Random) -> KozyolPosition:
            return KozyolPosition(sampler.draw(rng), leader, view.trick, k.unled_aces, k.points, ladder,
                                  k.next_seat, view.lead_restricted)
        return kozyol
    layouts = Bilka2Layouts(view)
    me = view.seat
    own = sum(1 << c for c in view.hand)
    leader = view.trick_seats[0] if view.trick else me

    def bilka2(rng: random.Random) -> Bilka2Position:
        opp, stock = layouts.draw(rng)
        hands = (own, opp) if me == 0 else (opp, own)
        return Bilka2Position(hands, stock, view.trump, leader, view.trick, layouts.unled_aces,
                              layouts.points, layouts.after_trick, layouts.dealer, layouts.quarter)
    return bilka2


class VariantStrongBot:
    """Callable form for the live tables: `VariantStrongBot(rng, budget=...)(view) -> action`."""

    def __init__(self, rng: random.Random | None = None, *, budget: float = DEFAULT_BUDGET) -> None:
        self.rng = rng or random.Random()  # noqa: S311 - play choices, not secrets
        self.budget = budget

    def __call__(self, view: View) -> int:
        return choose_action(view, self.rng, budget=self.budget)


__all__ = ["DEFAULT_BUDGET", "VariantStrongBot", "choose_action", "decide"]
