"""Measure the rating model against its peers on simulated Bilka data, side by side, and print the table.

    .venv/bin/python -m bench.ratings.harness                       report: seeds 100-119
    .venv/bin/python -m bench.ratings.harness --tune                tune the model on seeds 0-4
    .venv/bin/python -m bench.ratings.harness --seeds 100-101 --players 80 --per-player 80

Three kinds of data (bench/ratings/sim.py): a league of fixed pairs, rotating partners, and a mix
with uneven activity. Each system predicts every match before it learns from it; log-loss and
calibration are taken over the second half of each stream, and "gap closed" is how much of the
distance between the best peer and the exact log-loss floor a system covers. Spearman compares
each player's (league: each pair's) score at his 60th match with his hidden strength then. Team
Elo's K is tuned to its best on the very seeds reported (the peer's best case).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

from ratings.core.model import ModelParams

from .peers import Bilka, OpenSkill, TeamElo, TrueSkill
from .sim import simulate

KINDS = ("league", "rotating", "mix")

@dataclass(frozen=True)
class Shape:
    """One shape of data: how the matches are made (``field``, strengths) and what the systems see (``info``).

    ``field``: "league" (fixed pairs), "rotating" (partners drawn anew each match), "mix" (half the
    players in fixed pairs, uneven activity, players joining late and pausing) or "bots" (rotating
    partners, every deal played out by the engine's beginner bot with a player's own noise).
    ``info``: "points" (deals with card points), "eyes" (each deal's eyes only) or "score" (the final
    score only, no deals). The truth does not depend on ``info``; only what the systems are given.
    """

    name: str
    field: str
    info: str = "points"
    spread: float = 0.25  # sd of hidden strength (units of a deal's margin)
    drift: float = 0.006  # sd of a player's strength change per sqrt(day)
    chemistry: float = 0.1  # sd of a fixed pair's own term
    players: int = 120
    per_player: int = 80


# The split, fixed before anything is tuned: the model and its tuning may look at the TUNING shapes
# (seeds 0-4) only; the report is on the HELD_OUT shapes (seeds 100-119), which differ in shape,
# not only in seed: less information, another spread or drift, strong chemistry, another deal mechanism.
TUNING = (
    Shape("league", "league"),
    Shape("rotating", "rotating"),
    Shape("mix", "mix"),
)
HELD_OUT = (
    Shape("eyes-league", "league", info="eyes"),
    Shape("eyes-mix", "mix", info="eyes"),
    Shape("score-league", "league", info="score"),
    Shape("score-rotating", "rotating", info="score"),
    Shape("spread-half", "rotating", spread=0.125),
    Shape("spread-double", "mix", spread=0.5),
    Shape("drift-none", "league", drift=0.0),
    Shape("drift-fast", "rotating", drift=0.02),
    Shape("chemistry-strong", "league", chemistry=0.25),
    Shape("bots", "bots"),
)
TUNING_SEEDS = tuple(range(0, 5))
HELD_OUT_SEEDS = tuple(range(100, 120))
SHAPES = {s.name: s for s in (*TUNING, *HELD_OUT)}
ELO_K = (8.0, 16.0, 24.0, 32.0, 48.0, 64.0, 96.0, 128.0, 192.0, 256.0)
PEERS = ("TrueSkill", "OpenSkill PL", "OpenSkill BT")


def make(name: str, params: ModelParams | None):  # type: ignore[no-untyped-def]
    if name.startswith("Elo"):
        return TeamElo(float(name.split("K=")[1]))
    if name == "TrueSkill":
        return TrueSkill()
    if name == "OpenSkill PL":
        return OpenSkill("PL")
    if name == "OpenSkill BT":
        return OpenSkill("BT")
    if name == "Bilka (winner only)":
        return Bilka(params, with_deals=False)
    if name == "Bilka (no points)":
        return Bilka(params, with_points=False)
    return Bilka(params)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=v.__getitem__)
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def ece(ps: list[float], ys: list[int]) -> float:
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for p, y in zip(ps, ys, strict=True):
        bins[min(9, int(p * 10))].append((p, y))
    return sum(abs(sum(p for p, _ in b) - sum(y for _, y in b)) for b in bins if b) / len(ps)


def logloss(ps: list[float], ys: list[int]) -> float:
    eps = 1e-12
    return -statistics.fmean(math.log(max(eps, p if y else 1 - p)) for p, y in zip(ps, ys, strict=True))


_STREAMS: dict[tuple[str, int, int, int], object] = {}


def run(job: tuple[str, int, str, ModelParams | None, int, int]) -> dict[str, float | str | int]:
    kind, seed, name, params, players, per_player = job
    key = (kind, seed, players, per_player)
    if key not in _STREAMS:
        if len(_STREAMS) >= 16:
            _STREAMS.clear()
        _STREAMS[key] = simulate(kind, seed, players, per_player)
    stream = _STREAMS[key]
    system = make(name, params)
    ms = stream.matches  # type: ignore[attr-defined]
    half = len(ms) // 2
    at: dict[int, list[tuple[str, ...]]] = {}
    for unit, i in stream.index_at_60.items():  # type: ignore[attr-defined]
        at.setdefault(i, []).append(unit)
    ps, ys, pt = [], [], []
    got, truth = [], []
    for i, m in enumerate(ms):
        p = min(1 - 1e-9, max(1e-9, system.predict(m)))
        if i >= half:
            ps.append(p)
            ys.append(1 if m.winner == "NS" else 0)
            pt.append(m.p_true)
        system.learn(m)
        for unit in at.get(i + 1, ()):
            got.append(system.score(unit))
            truth.append(stream.truth_at_60[unit])  # type: ignore[attr-defined]
    return {
        "kind": kind,
        "seed": seed,
        "system": name,
        "ll": logloss(ps, ys),
        "ece": ece(ps, ys),
        "rho": spearman(got, truth) if len(got) > 2 else float("nan"),
        "floor_ll": logloss(pt, ys),
        "floor_ece": ece(pt, ys),
        "ps": ps,
        "ys": ys,
        "pt": pt,
    }


def run_all(
    names: list[str], seeds: list[int], params: ModelParams | None, players: int, per_player: int, pool: Pool
) -> list[dict]:  # type: ignore[type-arg]
    # Jobs of one stream run together so each worker simulates it once.
    jobs = [(k, s, n, params, players, per_player) for k in KINDS for s in seeds for n in names]
    return pool.map(run, jobs, chunksize=len(names))


def mean_sd(v: list[float]) -> str:
    return f"{statistics.fmean(v):.4f} ± {statistics.stdev(v) if len(v) > 1 else 0.0:.4f}"


def table(results: list[dict], names: list[str]) -> str:
    lines = []
    head = (
        f"{'system':24} {'data':9} {'log-loss':17} {'gap closed':17} {'ECE':17} {'ECE pooled':10} "
        f"{'Spearman@60':17}"
    )
    lines.append(head)
    lines.append("-" * len(head))
    for kind in KINDS:
        rows = [r for r in results if r["kind"] == kind]
        seeds = sorted({r["seed"] for r in rows})
        by = {(r["system"], r["seed"]): r for r in rows}
        peers = [n for n in names if not n.startswith("Bilka")]
        best = {s: min(by[(n, s)]["ll"] for n in peers) for s in seeds}
        floor = {s: by[(names[0], s)]["floor_ll"] for s in seeds}
        for n in names:
            ll = [by[(n, s)]["ll"] for s in seeds]
            gap = [(best[s] - by[(n, s)]["ll"]) / (best[s] - floor[s]) for s in seeds]
            e = [by[(n, s)]["ece"] for s in seeds]
            rho = [by[(n, s)]["rho"] for s in seeds]
            pooled = ece(
                [p for s in seeds for p in by[(n, s)]["ps"]], [y for s in seeds for y in by[(n, s)]["ys"]]
            )
            lines.append(
                f"{n:24} {kind:9} {mean_sd(ll):17} {mean_sd(gap):17} {mean_sd(e):17} {pooled:<10.4f} "
                f"{mean_sd(rho):17}"
            )
        fl = [floor[s] for s in seeds]
        fe = [by[(names[0], s)]["floor_ece"] for s in seeds]
        first = [by[(names[0], s)] for s in seeds]
        pooled = ece([p for r in first for p in r["pt"]], [y for r in first for y in r["ys"]])
        lines.append(
            f"{'floor (true p)':24} {kind:9} {mean_sd(fl):17} {'1':17} {mean_sd(fe):17} {pooled:<10.4f}"
        )
        lines.append("")
    lines.append(goals(results, names))
    return "\n".join(lines)


def goals(results: list[dict], names: list[str], model: str = "Bilka") -> str:
    """The issue's goals for the model, each kind of data, said plainly: met or not."""
    out = [f"goals for {model!r} (means over seeds):"]
    peers = [n for n in names if not n.startswith("Bilka")]
    for kind in KINDS:
        by = {(r["system"], r["seed"]): r for r in results if r["kind"] == kind}
        seeds = sorted({s for _, s in by})

        def mean(n: str, key: str, by: dict = by, seeds: list = seeds) -> float:  # type: ignore[type-arg]
            return statistics.fmean(by[(n, s)][key] for s in seeds)

        best = {s: min(by[(n, s)]["ll"] for n in peers) for s in seeds}
        gap = statistics.fmean(
            (best[s] - by[(model, s)]["ll"]) / (best[s] - by[(model, s)]["floor_ll"]) for s in seeds
        )
        ll = mean(model, "ll")
        worst_peer = min(mean(n, "ll") for n in peers)
        pooled = ece(
            [p for s in seeds for p in by[(model, s)]["ps"]], [y for s in seeds for y in by[(model, s)]["ys"]]
        )
        checks = [
            (f"log-loss {ll:.4f} below every peer's (best {worst_peer:.4f})", ll < worst_peer),
            (f"gap closed {gap:.3f} >= 0.40", gap >= 0.4),
            (f"ECE {mean(model, 'ece'):.4f} <= 0.02 (per seed)", mean(model, "ece") <= 0.02),
            (f"ECE {pooled:.4f} <= 0.02 (all seeds pooled)", pooled <= 0.02),
            (f"Spearman {mean(model, 'rho'):.3f} >= 0.9", mean(model, "rho") >= 0.9),
        ]
        for text, ok in checks:
            out.append(f"  {kind:9} {'MET    ' if ok else 'NOT MET'} {text}")
    return "\n".join(out)


def seeds_of(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def tune(
    seeds: list[int],
    players: int,
    per_player: int,
    pool: Pool,  # type: ignore[type-arg]
    rounds: int = 2,
) -> ModelParams:
    """Coordinate search on mean log-loss over all kinds of data of the tuning seeds."""
    best = ModelParams()
    grid: dict[str, tuple[float, ...]] = {
        "duty_edge": (0.4, 0.55, 0.7, 0.85, 1.0),
        "rout_cut": (1.0, 1.25, 1.5, 1.75, 2.0),
        "lucy_cut": (2.5, 3.0, 3.5, 4.0),
        "initial_sd": (0.15, 0.2, 0.25, 0.3, 0.4),
        "drift": (0.00001, 0.00003, 0.0001, 0.0003),
        "pair_sd": (0.03, 0.06, 0.1, 0.15),
        "points_scale": (18.0, 20.0, 22.0, 25.0, 28.0),
    }
    shape_keys = {"duty_edge", "rout_cut", "lucy_cut"}

    def score(p: ModelParams) -> float:
        res = run_all(["Bilka"], seeds, p, players, per_player, pool)
        return statistics.fmean(r["ll"] for r in res)

    current = score(best)
    for _ in range(rounds):
        for key, values in grid.items():
            for v in values:
                if key in shape_keys:
                    trial = dataclasses.replace(best, shape=dataclasses.replace(best.shape, **{key: v}))
                else:
                    trial = dataclasses.replace(best, **{key: v})
                if trial == best:
                    continue
                s = score(trial)
                print(f"  {key}={v}: {s:.5f}", flush=True)
                if s < current - 1e-5:
                    best, current = trial, s
                    if key == "initial_sd":
                        best = dataclasses.replace(best, max_sd=v)
        print(f"best so far {best} {current:.5f}", flush=True)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="100-119")
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--per-player", type=int, default=120)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--tune", action="store_true", help="tune on seeds 0-4 (or --seeds) and print the parameters"
    )
    ap.add_argument("--out", help="also write the table to this file")
    args = ap.parse_args()
    with Pool(args.workers) as pool:
        if args.tune:
            seeds = seeds_of(args.seeds if args.seeds != "100-119" else "0-4")
            print(tune(seeds, args.players, args.per_player, pool))
            return
        seeds = seeds_of(args.seeds)
        names = ["Bilka", "Bilka (no points)", "Bilka (winner only)", *PEERS]
        elo_names = [f"Elo K={k:g}" for k in ELO_K]
        every = run_all(names + elo_names, seeds, ModelParams(), args.players, args.per_player, pool)
        res = [r for r in every if r["system"] in names]
        best_k = {}
        for kind in KINDS:
            ll = {
                k: statistics.fmean(
                    r["ll"] for r in every if r["kind"] == kind and r["system"] == f"Elo K={k:g}"
                )
                for k in ELO_K
            }
            best_k[kind] = min(ll, key=ll.__getitem__)
        for r in every:
            if r["system"] == f"Elo K={best_k[r['kind']]:g}":
                res.append({**r, "system": "Team Elo (best K)"})
        names.append("Team Elo (best K)")
    text = (
        f"seeds {args.seeds}, {args.players} players, {args.per_player} matches a player; "
        f"Elo's best K per kind: {best_k}\n"
        "mean ± sd over seeds; log-loss and ECE on each stream's second half; gap closed = share of "
        "(best peer - floor) covered\n\n" + table(res, names)
    )
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
