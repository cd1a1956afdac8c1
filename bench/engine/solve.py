"""How fast is the double-dummy solver? Random full deals from fixed seeds, solved from ply 0.

Each deal gets a fresh solver (an empty transposition table) and is answered as
`python -m gameplay.engine solve --ply 0` answers it: par and the value of every card the
leader may lead (`--par-only`: par alone); `--ply K` first plays K random legal cards and times
the position there, mid-trick and with points taken (what a bot asks of each sampled deal).
Hands, trump and leader (the JC holder) are drawn from `--seed`, so runs compare. Prints which
build ran (C, the mypyc one or pure Python; `--pure` forces the Python search), a line per deal
with `-v`, the CPU time per deal (what a busy machine inflates least), and last the wall time:
`... median X ms, p99 Y ms`.

Usage: .venv/bin/python -m bench.engine.solve [--deals 50] [--deck 32|36|32-no-sevens|28] [--seed 1]
       [--ace-discard-ban] [--par-only] [--ply 0] [--pure] [-v]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import gameplay.engine.solver as solver_module
from gameplay.engine.cards import JC, deck_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.solver import Solver


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--deck", default="32", choices=["32", "36", "32-no-sevens", "28"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ace-discard-ban", action="store_true")
    parser.add_argument("--par-only", action="store_true")
    parser.add_argument("--ply", type=int, default=0, help="random legal cards played before timing")
    parser.add_argument("--pure", action="store_true", help="the Python search even where C is built")
    parser.add_argument("-v", action="store_true", help="a line per deal")
    args = parser.parse_args()
    if args.pure:
        compiled = not (solver_module.__file__ or "").endswith(".py")
        print("build: " + ("mypyc" if compiled else "pure Python"))
    else:
        print("build: " + solver_module.BUILD)
    rng = random.Random(args.seed)
    times = []
    cpu_times = []
    for i in range(args.deals):
        cards = deck_cards(args.deck)
        rng.shuffle(cards)
        n = len(cards) // 4
        masks = [sum(1 << c for c in cards[k * n:(k + 1) * n]) for k in range(4)]
        hands = (masks[0], masks[1], masks[2], masks[3])
        leader = next(s for s in range(4) if hands[s] >> JC & 1)
        trump = rng.randrange(4)
        pos = Position.start(hands, trump, leader, ace_discard_ban=args.ace_discard_ban)
        for _ in range(min(args.ply, len(cards) - 1)):
            legal = pos.legal_mask()
            pos = pos.play(rng.choice([c for c in range(36) if legal >> c & 1]))
        start = time.perf_counter()
        cpu_start = time.process_time()
        solver = Solver(trump, native=not args.pure)
        if args.par_only:
            par = solver.value(pos)
        else:
            values = solver.card_values(pos).values()
            par = max(values) if pos.to_move % 2 == 0 else min(values)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        cpu_times.append(time.process_time() - cpu_start)
        if args.v:
            print(f"deal {i + 1}: par NS {par}, {elapsed * 1000:.0f} ms, {solver.nodes} nodes")
    what = "par" if args.par_only else "par and every card"
    cpu_times.sort()
    print(f"CPU time: median {statistics.median(cpu_times) * 1000:.1f} ms, "
          f"p99 {_p99(cpu_times) * 1000:.1f} ms, max {cpu_times[-1] * 1000:.1f} ms")
    times.sort()
    p99 = _p99(times)
    where = f"after {args.ply} cards" if args.ply else "from the first card"
    print(f"{args.deals} deals of {args.deck} cards {where} ({what}, fresh solver each): "
          f"mean {statistics.fmean(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms")


def _p99(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


if __name__ == "__main__":
    main()
