"""How much of the gap to the oracle the data allow: a near-best predictor beside the model.

    .venv/bin/python -m bench.ratings.ceiling --shapes score-rotating,spread-half --seeds 100-109

The oracle of the harness knows every hidden strength; no system can, so the share of the gap
between the best peer and the oracle that a system can close has a ceiling set by how much the
matches tell. This estimates it from above the model's reach: a **Kalman filter over every
player at once** (and each fixed pair's own term), with the full covariance between them, given
the generator's own parameters (the shape's spread, drift and chemistry, and the simulation's deal
constants, which are the model's defaults), each match's likelihood taken as a normal about its
mode (Laplace, the model's own ``RatingState._solve``: card points, deal outcomes or the final
score). For a linear-Gaussian stream this is the exact posterior; here it is close to the best
any rating system can predict from the same information. It knows what no system is told (the
true parameters) and keeps what the site cannot afford (a covariance of every pair of players),
so its figure is a ceiling, not a goal.

Printed per shape: mean log-loss over the same seeds of the best peer (per seed, as the harness),
the model (``Learner``, as the harness runs it), this ceiling, and the oracle, and the gap each
closes. Read-only on the streams: nothing here is tuned, and the model does not use it.
"""

from __future__ import annotations

import argparse
import math
import statistics
from multiprocessing import Pool

import numpy as np

from ratings.core.model import NS, ModelParams, RatingState, averaged_chance

from . import harness
from .peers import model_match


def kalman(shape: harness.Shape, seed: int) -> tuple[float, float]:
    """Mean log-loss over the stream's second half of the full-covariance filter with the true
    parameters, and the oracle's."""
    stream = harness.stream_of(shape, seed)
    ms = stream.matches
    players = sorted({p for m in ms for p in (*m.ns, *m.ew)})
    pairs = sorted({tuple(sorted(s)) for m in ms if m.fixed for s in (m.ns, m.ew)})
    index: dict[object, int] = {p: i for i, p in enumerate(players)}
    for j, pr in enumerate(pairs):
        index[pr] = len(players) + j
    n, k = len(players) + len(pairs), len(players)
    q = shape.drift**2
    model = RatingState(ModelParams(initial_sd=shape.spread, max_sd=10.0, drift=q))
    mu = np.zeros(n)
    cov = np.diag([shape.spread**2] * k + [shape.chemistry**2] * len(pairs))
    today = 0.0
    half = len(ms) // 2
    loss: list[float] = []
    oracle: list[float] = []
    for i, sm in enumerate(ms):
        m = model_match(sm, shape.info)
        if sm.day > today:  # every player's strength drifts every day, as the generator's
            cov[np.arange(k), np.arange(k)] += q * (sm.day - today)
            today = sm.day
        a = np.zeros(n)
        for p in m.ns:
            a[index[p]] += 1.0
        for p in m.ew:
            a[index[p]] -= 1.0
        if sm.fixed:
            a[index[tuple(sorted(m.ns))]] += 1.0
            a[index[tuple(sorted(m.ew))]] -= 1.0
        d0 = float(a @ mu)
        ca = cov @ a
        v = float(a @ ca)
        p = min(1 - 1e-9, max(1e-9, averaged_chance(model.table(m.rules), d0, v)))
        if i >= half:
            won = m.winner == NS
            loss.append(-math.log(p if won else 1 - p))
            oracle.append(-math.log(sm.p_true if won else 1 - sm.p_true))
        d, h = model._solve(m, d0, v)
        if h <= 1e-12:
            continue
        # the match as a normal observation of a.x: mode y, variance 1/h
        y = d + (d - d0) / (v * h)
        gain = ca / (v + 1.0 / h)
        mu += gain * (y - d0)
        cov -= np.outer(gain, ca)
    return statistics.fmean(loss), statistics.fmean(oracle)


def _ceiling(job: tuple[str, int]) -> float:
    return kalman(harness.SHAPES[job[0]], job[1])[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shapes", default="eyes-mix,score-league,score-rotating,spread-half")
    ap.add_argument("--seeds", default="100-109")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    shapes = harness.shapes_of(args.shapes)
    if any(s.field == "bots" for s in shapes):
        raise SystemExit("the bot streams have no generator parameters to give the filter")
    seeds = harness.seeds_of(args.seeds)
    names = [harness.MODEL, *harness.PEERS, harness.BEST_ELO]
    elo = [f"Elo K={k:g}" for k in harness.ELO_K]
    jobs = [(s.name, seed) for s in shapes for seed in seeds]
    with Pool(args.workers) as pool:
        results = harness.run_all(shapes, [harness.MODEL, *harness.PEERS, *elo], seeds, None, pool)
        ceiling = dict(zip(jobs, pool.map(_ceiling, jobs, chunksize=1), strict=True))
    print(f"shapes {', '.join(s.name for s in shapes)}; seeds {args.seeds}; "
          "log-loss on each stream's second half, mean over seeds")
    print(f"{'shape':16} {'best peer':>9} {'model':>7} {'ceiling':>7} {'oracle':>7}  "
          "gap closed: model   ceiling")
    for shape in shapes:
        sm = harness.summary(results, shape.name, names)
        by = {(r["system"], r["seed"]): r for r in results if r["shape"] == shape.name}
        best = {seed: min(by[(n, seed)]["ll"] for n in names[1:]) for seed in seeds}
        oracle = {seed: by[(harness.MODEL, seed)]["oracle_ll"] for seed in seeds}
        mine = {seed: ceiling[(shape.name, seed)] for seed in seeds}
        gap = statistics.fmean((best[seed] - mine[seed]) / (best[seed] - oracle[seed]) for seed in seeds)
        print(f"{shape.name:16} {statistics.fmean(best.values()):9.4f} {sm[harness.MODEL]['ll']:7.4f} "
              f"{statistics.fmean(mine.values()):7.4f} {sm['oracle']['ll']:7.4f}  "
              f"{sm[harness.MODEL]['gap']:+.3f}  {gap:+.3f}", flush=True)


if __name__ == "__main__":
    main()
