"""Measure the rating model against its peers on match streams of many shapes, and print the table.

    .venv/bin/python -m bench.ratings.harness                       the held-out shapes, seeds 100-119
    .venv/bin/python -m bench.ratings.harness --shapes tuning       the tuning shapes, seeds 0-4
    .venv/bin/python -m bench.ratings.harness --shapes bots,drift-fast --seeds 100-104 --out t.txt

A shape (``Shape``) is how a stream is made and what the systems see of it: a field (a league of
fixed pairs, rotating partners, a mix with uneven activity and late joiners, or rotating partners
whose every deal is played out by the engine's bots, ``botstreams.py``), the spread and the drift
of the hidden strengths, a fixed pair's own term, and how much of each match the model is given
(deals with card points, each deal's eyes, or the final score). The model and anyone tuning it
look only at the TUNING shapes; the report is on the HELD_OUT ones, which differ in shape, not only
in seed. That split was committed before anything was tuned.

Each system predicts every match before it learns it, in the same process on the same stream.
Log-loss and calibration (ECE, 10 bins) are taken over the second half of each stream; "gap
closed" is the share of the distance between the best peer and the oracle (each match's exact
win probability from the true strengths; for bot streams the fitted truth of ``botstreams.py``)
that a system covers. Spearman compares each player's (league: each fixed pair's) score at his
60th match with his hidden strength then (a pair: its partners' sum plus its own term). Team Elo's
K is chosen best in hindsight on each shape, over the very seeds reported (the peer's best case).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

from ratings.core.model import ModelParams

from . import botstreams
from .peers import Bilka, OpenSkill, TeamElo, TrueSkill
from .sim import SimMatch, Stream, simulate


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
    # Added on 2026-12-07, after the split: less information on fields the held-out shapes do not
    # pair it with, to tune what the model learns when the deals cannot tell it (the strengths' spread).
    Shape("eyes-rotating", "rotating", info="eyes"),
    Shape("score-mix", "mix", info="score"),
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
MODEL = "Bilka"
BEST_ELO = "Team Elo (best K)"
GOAL_GAP = 0.35
GOAL_ECE = 0.02
GOAL_RHO = 0.9


def shapes_of(text: str) -> list[Shape]:
    """ "held-out", "tuning", or shape names separated by commas."""
    if text == "held-out":
        return list(HELD_OUT)
    if text == "tuning":
        return list(TUNING)
    out = []
    for name in text.split(","):
        if name not in SHAPES:
            raise SystemExit(f"unknown shape {name!r}; one of {', '.join(SHAPES)}")
        out.append(SHAPES[name])
    return out


def bot_stream(seed: int) -> Stream:
    """A stream played by bots, read from its file (``botstreams.py`` wrote it once)."""
    lines = botstreams.load(seed)
    strength: dict[str, float] = lines[0]["strength"]  # type: ignore[assignment]
    stream = Stream("bots")
    count: dict[tuple[str, ...], int] = {}
    for obj in lines[1:]:
        ns = (str(obj["ns"][0]), str(obj["ns"][1]))  # type: ignore[index]
        ew = (str(obj["ew"][0]), str(obj["ew"][1]))  # type: ignore[index]
        deals: list[dict[str, object]] = [
            {"NS": a, "EW": b, "outcome": o, "on_duty": d, "points": [p, 120 - p]}
            for a, b, o, d, p in obj["deals"]  # type: ignore[attr-defined]
        ]
        four = (strength[ns[0]], strength[ns[1]], strength[ew[0]], strength[ew[1]])
        eyes = (int(obj["eyes"][0]), int(obj["eyes"][1]))  # type: ignore[index]
        m = SimMatch(ns, ew, float(obj["day"]), str(obj["winner"]), eyes, deals, float(obj["p"]), False, four)  # type: ignore[arg-type]
        stream.matches.append(m)
        for p in (*ns, *ew):
            count[(p,)] = count.get((p,), 0) + 1
            if count[(p,)] == 60:
                stream.truth_at_60[(p,)] = strength[p]
                stream.index_at_60[(p,)] = len(stream.matches)
    return stream


def stream_of(shape: Shape, seed: int) -> Stream:
    if shape.field == "bots":
        return bot_stream(seed)
    return simulate(
        shape.field,
        seed,
        shape.players,
        shape.per_player,
        spread=shape.spread,
        drift=shape.drift,
        chemistry=shape.chemistry,
    )


def make(name: str, shape: Shape, params: ModelParams | None):  # type: ignore[no-untyped-def]
    if name.startswith("Elo"):
        return TeamElo(float(name.split("K=")[1]))
    if name == "TrueSkill":
        return TrueSkill()
    if name == "OpenSkill PL":
        return OpenSkill("PL")
    if name == "OpenSkill BT":
        return OpenSkill("BT")
    if name == MODEL:
        return Bilka(params, info=shape.info)
    raise ValueError(f"unknown system {name!r}")


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
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return cov / den if den else float("nan")


def ece(ps: list[float], ys: list[int]) -> float:
    """Expected calibration error, 10 equal bins of the predicted probability."""
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for p, y in zip(ps, ys, strict=True):
        bins[min(9, int(p * 10))].append((p, y))
    return sum(abs(sum(p for p, _ in b) - sum(y for _, y in b)) for b in bins if b) / len(ps)


def logloss(ps: list[float], ys: list[int]) -> float:
    eps = 1e-12
    return -statistics.fmean(math.log(max(eps, p if y else 1 - p)) for p, y in zip(ps, ys, strict=True))


_STREAMS: dict[tuple[Shape, int], Stream] = {}


def run(job: tuple[Shape, int, str, ModelParams | None]) -> dict:  # type: ignore[type-arg]
    """One system on one stream: predict each match, then learn it."""
    shape, seed, name, params = job
    key = (shape, seed)
    if key not in _STREAMS:
        if len(_STREAMS) >= 4:
            _STREAMS.clear()
        _STREAMS[key] = stream_of(shape, seed)
    stream = _STREAMS[key]
    system = make(name, shape, params)
    ms = stream.matches
    half = len(ms) // 2
    at: dict[int, list[tuple[str, ...]]] = {}
    for unit, i in stream.index_at_60.items():
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
            truth.append(stream.truth_at_60[unit])
    return {
        "shape": shape.name,
        "seed": seed,
        "system": name,
        "ll": logloss(ps, ys),
        "ece": ece(ps, ys),
        "rho": spearman(got, truth) if len(got) > 2 else float("nan"),
        "oracle_ll": logloss(pt, ys),
        "oracle_ece": ece(pt, ys),
        "ps": ps,
        "ys": ys,
        "pt": pt,
    }


def run_all(
    shapes: list[Shape],
    names: list[str],
    seeds: list[int],
    params: ModelParams | None,
    pool: Pool,  # type: ignore[type-arg]
) -> list[dict]:  # type: ignore[type-arg]
    """Every system on every stream; jobs of one stream go together so a worker makes it once."""
    jobs = [(sh, s, n, params) for sh in shapes for s in seeds for n in names]
    every = pool.map(run, jobs, chunksize=len(names))
    out = [r for r in every if not r["system"].startswith("Elo")]
    best_k = {}
    for sh in shapes:
        ll = {
            k: statistics.fmean(
                r["ll"] for r in every if r["shape"] == sh.name and r["system"] == f"Elo K={k:g}"
            )
            for k in ELO_K
        }
        best_k[sh.name] = min(ll, key=ll.__getitem__)
    out += [{**r, "system": BEST_ELO} for r in every if r["system"] == f"Elo K={best_k[r['shape']]:g}"]
    for r in out:
        r["elo_k"] = best_k[r["shape"]]
    return out


def summary(results: list[dict], shape: str, names: list[str]) -> dict[str, dict[str, float]]:  # type: ignore[type-arg]
    """Per system on one shape: mean log-loss, gap closed, ECE per seed and pooled, Spearman (with sds)."""
    by = {(r["system"], r["seed"]): r for r in results if r["shape"] == shape}
    seeds = sorted({s for _, s in by})
    peers = [n for n in names if n != MODEL]
    best = {s: min(by[(n, s)]["ll"] for n in peers) for s in seeds}
    oracle = {s: by[(names[0], s)]["oracle_ll"] for s in seeds}
    out: dict[str, dict[str, float]] = {}
    for n in names:
        rs = [by[(n, s)] for s in seeds]
        gap = [(best[s] - by[(n, s)]["ll"]) / (best[s] - oracle[s]) for s in seeds]
        out[n] = {
            "ll": statistics.fmean(r["ll"] for r in rs),
            "ll_sd": statistics.stdev([r["ll"] for r in rs]) if len(rs) > 1 else 0.0,
            "gap": statistics.fmean(gap),
            "gap_sd": statistics.stdev(gap) if len(gap) > 1 else 0.0,
            "ece": statistics.fmean(r["ece"] for r in rs),
            "ece_sd": statistics.stdev([r["ece"] for r in rs]) if len(rs) > 1 else 0.0,
            "ece_pooled": ece([p for r in rs for p in r["ps"]], [y for r in rs for y in r["ys"]]),
            "rho": statistics.fmean(r["rho"] for r in rs),
            "rho_sd": statistics.stdev([r["rho"] for r in rs]) if len(rs) > 1 else 0.0,
        }
    first = [by[(names[0], s)] for s in seeds]
    out["oracle"] = {
        "ll": statistics.fmean(oracle.values()),
        "ll_sd": statistics.stdev(oracle.values()) if len(seeds) > 1 else 0.0,
        "gap": 1.0,
        "gap_sd": 0.0,
        "ece": statistics.fmean(r["oracle_ece"] for r in first),
        "ece_sd": statistics.stdev([r["oracle_ece"] for r in first]) if len(first) > 1 else 0.0,
        "ece_pooled": ece([p for r in first for p in r["pt"]], [y for r in first for y in r["ys"]]),
        "rho": math.nan,
        "rho_sd": 0.0,
    }
    return out


def goals(sm: dict[str, dict[str, float]], names: list[str]) -> list[tuple[str, bool]]:
    """The goals for the model on one shape, each said plainly: met or not.

    Calibration is judged on the ECE of all seeds' predictions pooled: one stream's second half
    (about 1,200 predictions) leaves so few in each bin that the oracle's own ECE per seed is about
    0.02 (its row shows it), so the per-seed figure is printed beside it, not judged.
    """
    me = sm[MODEL]
    best_peer = min(sm[n]["ll"] for n in names if n != MODEL)
    return [
        (f"log-loss {me['ll']:.4f} < every peer's (best {best_peer:.4f})", me["ll"] < best_peer),
        (f"gap closed {me['gap']:.3f} >= {GOAL_GAP}", me["gap"] >= GOAL_GAP),
        (f"ECE {me['ece_pooled']:.4f} <= {GOAL_ECE} pooled", me["ece_pooled"] <= GOAL_ECE),
        (f"Spearman {me['rho']:.3f} >= {GOAL_RHO}", me["rho"] >= GOAL_RHO),
    ]


def table(results: list[dict], shapes: list[Shape], names: list[str]) -> str:  # type: ignore[type-arg]
    head = (
        f"{'system':19} {'shape':17} {'log-loss':17} {'gap closed':17} {'ECE':17} {'ECE pooled':10} "
        f"{'Spearman@60':17}"
    )
    lines = [head, "-" * len(head)]
    verdicts = []
    for sh in shapes:
        sm = summary(results, sh.name, names)
        k = next(r["elo_k"] for r in results if r["shape"] == sh.name)
        for n in [*names, "oracle"]:
            v = sm[n]
            label = f"Team Elo (K={k:g})" if n == BEST_ELO else n
            rho = "" if n == "oracle" else f"{v['rho']:.3f} ± {v['rho_sd']:.3f}"
            lines.append(
                f"{label:19} {sh.name:17} {v['ll']:.4f} ± {v['ll_sd']:.4f}  "
                f"{v['gap']:+.3f} ± {v['gap_sd']:.3f}  {v['ece']:.4f} ± {v['ece_sd']:.4f}  "
                f"{v['ece_pooled']:<10.4f} {rho}"
            )
        lines.append("")
        verdicts.append((sh.name, goals(sm, names)))
    lines.append(f"goals for {MODEL!r} on each shape (means over seeds):")
    met = 0
    for name, checks in verdicts:
        ok = all(c for _, c in checks)
        met += ok
        lines.append(
            f"  {name:17} {'ALL MET' if ok else 'not met'}: "
            + "; ".join(f"{'ok' if c else 'NO'} {t}" for t, c in checks)
        )
    lines.append(f"shapes with every goal met: {met} of {len(verdicts)}")
    return "\n".join(lines)


def seeds_of(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shapes", default="held-out", help="held-out, tuning, or shape names joined by commas")
    ap.add_argument(
        "--seeds", help="e.g. 100-119 (default: 100-119 for held-out shapes, 0-4 for tuning ones)"
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="also write the table to this file")
    args = ap.parse_args()
    shapes = shapes_of(args.shapes)
    tuning = all(sh in TUNING for sh in shapes)
    seeds = seeds_of(args.seeds) if args.seeds else list(TUNING_SEEDS if tuning else HELD_OUT_SEEDS)
    if any(sh.field == "bots" for sh in shapes) and not set(seeds) <= set(botstreams.SEEDS):
        raise SystemExit(f"bot streams exist for seeds {botstreams.SEEDS[0]}-{botstreams.SEEDS[-1]} only")
    names = [MODEL, *PEERS, BEST_ELO]
    elo = [f"Elo K={k:g}" for k in ELO_K]
    t0 = time.perf_counter()
    with Pool(args.workers) as pool:
        res = run_all(shapes, [MODEL, *PEERS, *elo], seeds, None, pool)
    wall = time.perf_counter() - t0
    text = (
        f"shapes {', '.join(sh.name for sh in shapes)}; seeds {args.seeds or f'{seeds[0]}-{seeds[-1]}'}; "
        f"{wall:.0f} s on {args.workers} workers\n"
        "mean ± sd over seeds; log-loss and ECE on each stream's second half; gap closed = share of "
        "(best peer - oracle) covered; Team Elo's K best in hindsight per shape\n\n"
        + table(res, shapes, names)
    )
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
