"""How strong is the strong bot? Duplicate deals against the beginner and against a bot that sees all hands.

Each deal is played twice with the same hands, dealer and suits: once with bot A on NS and bot B
on EW, once the other way round, so the luck of the cards cancels. A's card-point margin per deal
is (A's points in both plays - B's points in both plays) / 2, printed with its 95% confidence
interval (normal approximation). Every decision with a choice is also checked against
double-dummy play (all hands known, the solver's value of each legal card): the points the played
card loses against the best card, summed per deal and pair, are each bot's "points lost per deal".
The cheating bot plays the double-dummy best card (so it loses 0): the limit of what seeing the
hidden hands is worth. The redeal question is answered "play" by everyone, so both plays of a
deal are the same deal. The strong bot's cost model is calibrated at the start (each worker).

Usage: .venv/bin/python -m bench.bots.arena [--deals 200] [--budget 1.0] [--against beginner,cheat]
       [--seed 1] [--deck 32] [--jobs 1] [--move-times N] [--clock wall|cpu]
`--clock cpu`: the strong bot's budget counts the CPU seconds of its own process instead of the
wall clock, so a long run can share the machine (at `nice -n 19`) and still give the bot the
same thinking per decision; the live tables always count wall seconds.
`--move-times N`: instead of matches, time N decisions of the strong bot at `--budget` from
random deals (all seats strong) and print the p50/p99 of those with a choice.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool

import gameplay.engine.solver as solver_module
from gameplay.engine import bot, strong_bot
from gameplay.engine.cards import (
    PASS,
    PLAIN_SUIT_MASK,
    deck_cards,
)
from gameplay.engine.deal import first_suits
from gameplay.engine.deal_position import Position
from gameplay.engine.ladder import PLAIN_ACES
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.solver import Solver

_settings: dict[str, object] = {}


def _position(state: MatchState) -> Position:
    """The full-information position of the seat to move (what only the arena may see)."""
    log = state.deals[-1]
    trump = log.trump
    unled = PLAIN_ACES[trump] if state.rules.ace_discard_ban else 0
    for i in range(0, len(log.plays), 4):
        lead = log.plays[i]
        if lead % 9 != 5 and lead // 9 != trump:
            unled &= ~PLAIN_SUIT_MASK[lead // 9]
    next_seat = (1, 2, 3, 0) if state.rules.direction == "clockwise" else (3, 0, 1, 2)
    return Position(state.hands, trump, state.trick_leader, state.trick, unled, state.points, next_seat)


def _cheap_first(card: int, trump: int) -> tuple[int, int, int]:
    return strong_bot._cheap_first(card, trump)  # noqa: SLF001 - the same tie rule as the strong bot


def play_once(hands: tuple[int, int, int, int], dealer: int, suits: tuple[int, int, int, int],
              bots: tuple[str, str], seed: int, rules: Rules, budget: float,
              times: list[float]) -> tuple[tuple[int, int], tuple[int, int]]:
    """One play of a deal, `bots[0]` on NS and `bots[1]` on EW: (points, points lost vs DD) per pair."""
    rng = random.Random(seed)  # noqa: S311 - bot choices, reproducible
    state = MatchState(rules, auto_deal=False, first_dealer=dealer, seed=seed)
    state.suit_of_seat = suits
    state.start_deal(hands)
    log = state.deals[-1]
    while state.redeal_pending:
        state.apply(PASS, state.redeal_pending[0])
    solver = Solver(log.trump, (1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2))
    lost = [0, 0]
    while log.outcome is None:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        values = solver.card_values(_position(state))  # the deal's DD analysis, one table per play
        sign = 1 if seat % 2 == 0 else -1
        best = max(sign * v for v in values.values())
        kind = bots[seat % 2]
        if kind == "cheat":
            ties = [c for c in legal if sign * values[c] == best]
            card = min(ties, key=lambda c: _cheap_first(c, log.trump))
        elif kind == "beginner":
            card = bot.choose_action(state.observation(seat), rng)
        else:
            began = time.perf_counter()
            card = strong_bot.choose_action(state.observation(seat), rng, budget=budget,
                                            clock=_settings["clock"])  # type: ignore[arg-type]
            times.append(time.perf_counter() - began)
        lost[seat % 2] += best - sign * values[card]
        state.apply(card)
    return log.points, (lost[0], lost[1])


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _init(rules: Rules, budget: float, clock: str = "wall") -> None:
    _settings["rules"], _settings["budget"], _settings["clock"] = rules, budget, CLOCKS[clock]
    strong_bot.COSTS.calibrate(budget, deck=rules.deck, clock=CLOCKS[clock])


def duplicate(job: tuple[int, int, tuple[str, str]]) -> tuple[float, float, float, list[float]]:
    """Deal `index` of the run, played both ways: A's margin, A's and B's points lost (per play)."""
    seed, index, (a, b) = job
    rules: Rules = _settings["rules"]  # type: ignore[assignment]
    budget: float = _settings["budget"]  # type: ignore[assignment]
    rng = random.Random(seed * 1_000_003 + index)  # noqa: S311 - the deal, reproducible
    cards = deck_cards(rules.deck)
    rng.shuffle(cards)
    per = len(cards) // 4
    hands = tuple(sum(1 << c for c in cards[i * per:(i + 1) * per]) for i in range(4))
    dealer = rng.randrange(4)
    suits = first_suits(rng.randrange(4), (1, 2, 3, 0))  # as if fixed by an earlier deal
    times: list[float] = []
    pts1, lost1 = play_once(hands, dealer, suits, (a, b), rng.getrandbits(32), rules, budget, times)  # type: ignore[arg-type]
    pts2, lost2 = play_once(hands, dealer, suits, (b, a), rng.getrandbits(32), rules, budget, times)  # type: ignore[arg-type]
    margin = ((pts1[0] - pts1[1]) + (pts2[1] - pts2[0])) / 2
    return margin, (lost1[0] + lost2[1]) / 2, (lost1[1] + lost2[0]) / 2, times


def _ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, half


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _progress(a: str, b: str, done: int, total: int, start: float) -> None:
    print(f"\r{a} vs {b}: {done}/{total} deals, {time.perf_counter() - start:.0f} s", end="",
          file=sys.stderr, flush=True)


def match_up(a: str, b: str, args: argparse.Namespace, rules: Rules) -> None:
    jobs = [(args.seed, i, (a, b)) for i in range(args.deals)]
    start = time.perf_counter()
    results = []
    if args.jobs > 1:
        with Pool(args.jobs, initializer=_init, initargs=(rules, args.budget, args.clock)) as pool:
            for r in pool.imap_unordered(duplicate, jobs, chunksize=1):
                results.append(r)
                _progress(a, b, len(results), len(jobs), start)
    else:
        _init(rules, args.budget, args.clock)
        for j in jobs:
            results.append(duplicate(j))
            _progress(a, b, len(results), len(jobs), start)
    print(file=sys.stderr)
    elapsed = time.perf_counter() - start
    margin, half = _ci([r[0] for r in results])
    lost_a, lost_a_half = _ci([r[1] for r in results])
    lost_b, lost_b_half = _ci([r[2] for r in results])
    times = [t for r in results for t in r[3]]
    print(f"{a} vs {b}: {len(results)} duplicate deals ({2 * len(results)} plays) in {elapsed:.0f} s")
    print(f"  {a} card-point margin per deal: {margin:+.2f} "
          f"(95% CI {margin - half:+.2f} .. {margin + half:+.2f})")
    print(f"  points lost per deal vs double-dummy: {a} {lost_a:.2f} ±{lost_a_half:.2f}, "
          f"{b} {lost_b:.2f} ±{lost_b_half:.2f}")
    if times:
        print(f"  strong bot decisions with a choice: {len(times)}, "
              f"p50 {1000 * _quantile(times, 0.5):.0f} ms, "
              f"p99 {1000 * _quantile(times, 0.99):.0f} ms, max {1000 * max(times):.0f} ms")
    sys.stdout.flush()


def move_times(args: argparse.Namespace, rules: Rules) -> None:
    """Time the strong bot's decisions with a choice, all four seats strong, whole deals."""
    clock = CLOCKS[args.clock]
    strong_bot.COSTS.calibrate(args.budget, deck=rules.deck, clock=clock)
    times: list[float] = []
    solved: list[int] = []
    seed = args.seed
    while len(times) < args.move_times:
        state = MatchState(rules, seed=seed)
        rng = random.Random(seed)  # noqa: S311
        seed += 1
        log = state.deals[-1]
        while state.redeal_pending:
            state.apply(PASS, state.redeal_pending[0])
        while log.outcome is None and len(times) < args.move_times:
            obs = state.observation(state.to_move)  # type: ignore[arg-type]
            if len(obs.legal) > 1:
                began = time.perf_counter()
                card, n = strong_bot.decide(obs, rng, budget=args.budget, clock=clock)
                times.append(time.perf_counter() - began)
                solved.append(n)
            else:
                card = obs.legal[0]
            state.apply(card)
    print(f"move times at budget {args.budget} s over {len(times)} decisions with a choice "
          f"({seed - args.seed} deals): p50 {1000 * _quantile(times, 0.5):.0f} ms, "
          f"p99 {1000 * _quantile(times, 0.99):.0f} ms, max {1000 * max(times):.0f} ms; "
          f"deals solved per decision: median {statistics.median(solved):.0f}, "
          f"none (the beginner's card) in {sum(1 for n in solved if n == 0)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=strong_bot.DEFAULT_BUDGET)
    parser.add_argument("--against", default="beginner,cheat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deck", default="32", choices=["32", "36", "32-no-sevens", "28"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--move-times", type=int, default=0)
    parser.add_argument("--clock", default="wall", choices=sorted(CLOCKS))
    args = parser.parse_args()
    rules = Rules(deck=args.deck)
    counted = "CPU seconds of the bot process" if args.clock == "cpu" else "wall clock"
    print(f"solver build: {solver_module.BUILD}; time budget per decision: "
          f"{args.budget} s ({counted}); deck {args.deck}; seed {args.seed}")
    if args.move_times:
        move_times(args, rules)
        return
    for other in args.against.split(","):
        match_up("strong", other, args, rules)


if __name__ == "__main__":
    main()
