"""Whole-history ratings against the filter: log-loss of predicting the second half of simulated streams.

    .venv/bin/python -m bench.ratings.whole_quality [--kinds rotating,league,mix] [--seeds 1,2] [--every 500]

Each stream (``bench.ratings.sim.simulate``, 200 players, 6,000 matches, days counted whole as on
the site) is split in two. The filter (``RatingState``) predicts every match of the second half
from all matches before it, then learns it. Whole-history (``ratings.core.whole.fit_whole``) is
refitted on all matches before every ``--every``-th, warm-started from the last fit, and predicts
the next ``--every`` matches from that fit (``WholeFit.predict``: the match probability of ``d``
averaged over its variance, as ``RatingState.predict``) -- so it predicts from older information
than the filter. The oracle is the exact probability from the hidden strengths.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import replace

from ratings.core.model import RatingState
from ratings.core.whole import WholeFit, fit_whole

from .peers import model_match
from .sim import simulate


def _loss(p: float, won: bool) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -math.log(p if won else 1.0 - p)


def run(kind: str, seed: int, every: int) -> tuple[float, float, float, float, int]:
    sims = simulate(kind, seed).matches
    ms = [replace(model_match(s, "points"), day=float(math.floor(s.day))) for s in sims]
    half = len(ms) // 2
    state = RatingState()
    filt: list[float] = []
    for i, m in enumerate(ms):
        if i >= half:
            filt.append(_loss(state.predict(m), m.winner == "NS"))
        state.update(m)
    whole: list[float] = []
    fit: WholeFit | None = None
    sweeps = 0
    t0 = time.perf_counter()
    for start in range(half, len(ms), every):
        fit = fit_whole(ms[:start], start=fit)
        sweeps += fit.sweeps
        whole += [_loss(fit.predict(m), m.winner == "NS") for m in ms[start : start + every]]
    took = time.perf_counter() - t0
    oracle = [_loss(s.p_true, s.winner == "NS") for s in sims[half:]]
    return statistics.fmean(filt), statistics.fmean(whole), statistics.fmean(oracle), took, sweeps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="rotating,league,mix")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--every", type=int, default=500)
    args = ap.parse_args()
    print(f"log-loss on the second half (whole-history refitted every {args.every} matches)")
    print(f"{'stream':>12} {'filter':>8} {'whole':>8} {'oracle':>8}  whole closes of the filter's gap")
    for kind in args.kinds.split(","):
        for seed in (int(s) for s in args.seeds.split(",")):
            f, w, o, took, sweeps = run(kind, seed, args.every)
            gap = (f - w) / (f - o) if f > o else math.nan
            print(
                f"{kind + '-' + str(seed):>12} {f:8.4f} {w:8.4f} {o:8.4f}  {100 * gap:+.1f}%"
                f"  (refits {took:.0f} s, {sweeps} Newton steps)",
                flush=True,
            )


if __name__ == "__main__":
    main()
