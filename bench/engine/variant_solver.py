"""How fast are the solvers of Kozyol and Bilka for two, beside Bilka's Python solver, and the
strong bot of both games per decision; optionally, how much better the strong bot plays.

Solve times: for each game, `--positions` random deals from `--seed`, played at random to the
start of trick 1, 3 and 5, each solved with a fresh solver for the value of every legal card (what
the analysis asks of a card, and the bot of each guess). A solve is stopped after `--cap` seconds
and counted as taking the cap (the line then says how many were stopped). Bilka's is its Python
search (`Solver(native=False)`: the mypyc build where it is built), on 32 cards, beside the same
positions' count for the other games: Kozyol on its default 36 cards and on 32, Bilka for two on 32
with each stock rule.

Decision times: `--decisions` decisions of the strong bot at random points of random deals where it
searches (`variant_strong_bot.KOZYOL_CARDS`, `AFTER_TRICK_CARDS`), with `--budget` seconds each.

Arena (`--arena N`): N Kozyol deals, each played twice (the strong pair N/S, then E/W, against
the beginners, on the same cards), the strong pair's points per deal less the beginners' with a 95%
interval (a catch counted as the solver counts it); the same for Bilka for two (a strong player
against the beginner).

Usage: .venv/bin/python -m bench.engine.variant_solver [--positions 10] [--cap 10] [--seed 1]
       [--decisions 40] [--budget 1.0] [--arena 0]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gameplay.engine.solver as solver_module
from gameplay.engine import variant_bot, variant_strong_bot
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.bilka2_solver import Bilka2Solver
from gameplay.engine.cards import JC, deck_cards, mask_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.kozyol_rules import KozyolRules
from gameplay.engine.kozyol_solver import KozyolPosition, KozyolSolver
from gameplay.engine.solver import Solver
from gameplay.engine.state import Phase
from gameplay.engine.variant_analysis import bilka2_start

TRICKS = (1, 3, 5)


def _play_random(pos: Any, rng: random.Random, plies: int) -> Any:
    for _ in range(plies):
        pos = pos.play(rng.choice(mask_cards(pos.legal_mask())))
        if pos.over:
            return None
    return pos


def kozyol_position(deck: str) -> Callable[[random.Random, int], Any]:
    def make(rng: random.Random, trick: int) -> Any:
        while True:
            state = KozyolMatchState(KozyolRules(deck=deck, redeal_below=0), rng=random.Random(rng.random()))
            log = state.deals[-1]
            pos = _play_random(KozyolPosition.start(state.rules, log.hands, log.leader), rng, 4 * (trick - 1))
            if pos is not None:
                return pos
    return make


def bilka2_position(stock: str) -> Callable[[random.Random, int], Any]:
    def make(rng: random.Random, trick: int) -> Any:
        state = Bilka2MatchState(Bilka2Rules(stock=stock), rng=random.Random(rng.random()))
        return _play_random(bilka2_start(state.rules, state.deals[-1]), rng, 2 * (trick - 1))
    return make


def bilka_position(rng: random.Random, trick: int) -> Any:
    cards = deck_cards("32")
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[8 * s:8 * s + 8]) for s in range(4))
    leader = next(s for s in range(4) if hands[s] >> JC & 1)
    four = (hands[0], hands[1], hands[2], hands[3])
    pos = Position.start(four, rng.randrange(4), leader, ace_discard_ban=False)
    return _play_random(pos, rng, 4 * (trick - 1))


def solve(pos: Any, stop: Callable[[], bool]) -> None:
    if isinstance(pos, KozyolPosition):
        KozyolSolver.for_position(pos, stop=stop).card_values(pos)
    elif isinstance(pos, Position):
        Solver(pos.trump, pos.next_seat, native=False, stop=stop).card_values(pos)
    else:
        Bilka2Solver(pos, stop=stop).card_values(pos)


def time_solves(name: str, make: Callable[[random.Random, int], Any], args: argparse.Namespace) -> None:
    for trick in TRICKS:
        rng = random.Random(args.seed * 1000 + trick)
        times, stopped = [], 0
        for _ in range(args.positions):
            pos = make(rng, trick)
            began = time.perf_counter()
            deadline = began + args.cap
            try:
                solve(pos, lambda d=deadline: time.perf_counter() > d)
            except TimeoutError:
                stopped += 1
            times.append(min(args.cap, time.perf_counter() - began))
        times.sort()
        p90 = times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)]
        note = f", {stopped} stopped at the cap of {args.cap:g} s" if stopped else ""
        print(f"{name:34} trick {trick}: median {statistics.median(times) * 1000:9.1f} ms, "
              f"p90 {p90 * 1000:9.1f} ms over {len(times)}{note}", flush=True)


def play_deal(state: Any, strong: set[int], rng: random.Random, budget: float,
              timings: list[tuple[float, int]] | None = None) -> None:
    log = state.deals[-1]
    while log.outcome is None:
        if state.phase == Phase.REDEAL:
            state.end_redeal_phase()
            continue
        seat = state.to_move
        view = state.observation(seat)
        if seat in strong:
            began = time.perf_counter()
            action, solved = variant_strong_bot.decide(view, rng, budget=budget)
            if timings is not None and solved:
                timings.append((time.perf_counter() - began, solved))
        else:
            action = variant_bot.choose_action(view, rng)
        state.apply(action)


def decisions(args: argparse.Namespace) -> None:
    for name, make in (("Kozyol 36", lambda r: KozyolMatchState(KozyolRules(redeal_below=0), rng=r)),
                       ("Bilka for two, halves", lambda r: Bilka2MatchState(Bilka2Rules(), rng=r)),
                       ("Bilka for two, after_trick",
                        lambda r: Bilka2MatchState(Bilka2Rules(stock="after_trick"), rng=r))):
        rng = random.Random(args.seed)
        timings: list[tuple[float, int]] = []
        while len(timings) < args.decisions:
            play_deal(make(random.Random(rng.random())), {0, 1, 2, 3}, rng, args.budget, timings)
        times = sorted(t for t, _ in timings)
        print(f"strong bot, {name:26}: median {statistics.median(times) * 1000:.0f} ms, "
              f"p90 {times[math.ceil(0.9 * len(times)) - 1] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms "
              f"over {len(times)} searched decisions (budget {args.budget:g} s); "
              f"median {statistics.median(s for _, s in timings):.0f} layouts solved", flush=True)


def arena(args: argparse.Namespace) -> None:
    for name, seats, make in (
            ("Kozyol 36", ({0, 2}, {1, 3}), lambda i: KozyolMatchState(KozyolRules(redeal_below=0), seed=i)),
            ("Bilka for two, halves", ({0}, {1}), lambda i: Bilka2MatchState(Bilka2Rules(), seed=i))):
        rng = random.Random(args.seed)
        margins = []
        for i in range(args.arena):
            got = []
            for strong in seats:
                state = make(10_000 + i)
                play_deal(state, strong, rng, args.budget)
                log = state.deals[0]
                ours = 0 if 0 in strong else 1
                points = log.points[ours]
                if getattr(log, "catch", None) is not None:
                    points = 120 - log.points[1 - ours] if log.catch % 2 == ours else log.points[ours]
                got.append(points)
            margins.append(sum(got) - 120)
        mean = statistics.fmean(margins)
        half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
        print(f"arena {name}: the strong side's points per deal less the beginner's on the same cards "
              f"{mean:+.2f} (95% interval {mean - half:+.2f} .. {mean + half:+.2f}) over {len(margins)} "
              f"duplicate deals, budget {args.budget:g} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--cap", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--arena", type=int, default=0)
    parser.add_argument("--skip-solves", action="store_true")
    args = parser.parse_args()
    compiled = not (solver_module.__file__ or "").endswith(".py")
    print("Bilka's Python search: " + ("the mypyc build" if compiled else "pure Python")
          + "; Kozyol's and Bilka for two's: pure Python")
    if not args.skip_solves:
        time_solves("Bilka, Python solver, 32", bilka_position, args)
        time_solves("Kozyol, 36", kozyol_position("36"), args)
        time_solves("Kozyol, 32", kozyol_position("32"), args)
        time_solves("Bilka for two, 32, halves", bilka2_position("halves"), args)
        time_solves("Bilka for two, 32, after_trick", bilka2_position("after_trick"), args)
        decisions(args)
    if args.arena:
        arena(args)


if __name__ == "__main__":
    main()
