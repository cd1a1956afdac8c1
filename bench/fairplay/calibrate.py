"""Calibration of the fair-play review on bots: the detection rate of each cheat and the false-alarm
rate of each honest bot, over samples of 50, 100 and 200 deals per player, at a threshold
corrected for the number of players reviewed at once (Bonferroni: a family-wise `--alpha` over
`--players` players, so each is flagged at p < alpha / players).

Each repetition plays `max(--deals)` deals per kind with that bot North and beginners elsewhere
(`players.py`), reviews North with the plain test and with the partner's hand known, and reads
the verdict over the first 50, 100, ... deals. Rates carry Wilson 95% intervals; the mean and
spread of Z are printed too, as they say more than a rate over few repetitions.

    nice -n 10 .venv/bin/python -m bench.fairplay.calibrate --reps 5 [--deals 50,100,200]
        [--samples 20] [--players 100] [--alpha 0.05] [--kinds all-seeing,strong] [--json out.json]
        [--decisions decisions.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from bench.fairplay.players import HONEST, KINDS, play_deals
from gameplay.engine import fairplay
from gameplay.engine.record import read_record
from gameplay.engine.solver import BUILD


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a rate k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_fit(shifted: list[float], threshold: float, flagging: bool) -> tuple[float, float]:
    """The flag rate read off a normal fitted to the repetitions' shifted Z (Z with the margin,
    flagged below the threshold's quantile), and its conservative bound: the mean moved 1.96
    standard errors towards the threshold and the spread at the upper end of its 95% interval
    (chi-square, Wilson-Hilferty). `flagging` (a cheat): the bound is a lower one; else an upper
    one. Z over hundreds of decisions is a sum of many small terms, hence the normal; this reaches
    rates far below what a few dozen repetitions can count, and says so by its name."""
    n = len(shifted)
    if n < 3:
        return (float("nan"), float("nan"))
    normal = statistics.NormalDist()
    cut = normal.inv_cdf(threshold)
    mean, sd = statistics.mean(shifted), statistics.stdev(shifted)
    k = n - 1
    chi_low = k * (1 - 2 / (9 * k) - 1.96 * math.sqrt(2 / (9 * k))) ** 3  # 2.5% quantile
    sd_high = sd * math.sqrt(k / chi_low)
    towards = mean + 1.96 * sd / math.sqrt(n) * (1 if flagging else -1)
    return (normal.cdf((cut - mean) / sd), normal.cdf((cut - towards) / sd_high))


def _by_deal(records: list[dict[str, Any]], *, samples: int, partner_known: bool,
             rep: int) -> list[list[fairplay.Decision]]:
    """North's decisions grouped by played deal, in the order the deals were played."""
    out = []
    for i, record in enumerate(records):
        decisions = fairplay.review_record(record, seats="N", key=f"{rep}/{i}", samples=samples,
                                           partner_known=partner_known)
        state = read_record(record)
        for number, log in enumerate(state.deals, start=1):
            if log.redeal is None and log.outcome is not None:
                out.append([d for d in decisions if d.deal == number])
    return out


def run(kinds: list[str], reps: int, sizes: list[int], samples: int, seed: int,
        after_rep: Any = None, kept: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The verdict rows of every repetition; `after_rep(rows)` is called after each one, so a run
    stopped early still leaves its figures. With `kept`, every reviewed decision is appended to it
    too (rep, player, test, deal index, ply, mid-rank, mean, variance), so another way of combining
    them can be judged later on the same decisions without solving them again."""
    rows: list[dict[str, Any]] = []
    for rep in range(reps):
        for kind in kinds:
            began = time.perf_counter()
            records = play_deals(kind, max(sizes), seed=seed + rep)
            for partner_known in (False, True):
                deals = _by_deal(records, samples=samples, partner_known=partner_known, rep=rep)
                if kept is not None:
                    kept.extend({"rep": rep, "seed": seed + rep, "kind": kind, "partner_known": partner_known,
                                 "deal": i, "ply": d.ply, "mid_rank": d.mid_rank, "mean": d.mean,
                                 "variance": round(d.variance, 6)}
                                for i, deal in enumerate(deals) for d in deal if d.informative)
                for size in sizes:
                    verdict = fairplay.combine([d for deal in deals[:size] for d in deal])
                    rows.append({"rep": rep, "kind": kind, "partner_known": partner_known, "deals": size}
                                | verdict.as_dict())
            print(f"rep {rep} {kind}: {time.perf_counter() - began:.0f} s", flush=True)
        if after_rep is not None:
            after_rep(rows)
    return rows


def _rate(x: float, bound: str = "") -> str:
    """A rate for the table: tiny ones in powers of ten, rates near 1 with the digits that matter;
    `bound` (">=" or "<=") says which side a bound is on."""
    if math.isnan(x):
        return "-"
    if x < 0.01:
        text = f"{x:.1e}"
    elif x >= 0.9999:
        return f"{bound or '>'}99.99%"
    else:
        text = f"{x:.0%}" if x <= 0.9 else f"{x:.1%}" if x < 0.9995 else f"{x:.2%}"
    return bound + text


def report(rows: list[dict[str, Any]], threshold: float, margin: float = 0.0) -> list[str]:
    """The table: per player, test and number of deals, the share flagged at p < `threshold` with
    the effect's `margin` (see `fairplay.combine`), its interval, and Z's and the effect's means."""
    lines = [f"margin {margin}:",
             f"{'player':15} {'test':8} {'deals':>5} {'reps':>4} {'flagged':>7} {'rate':>6} "
             f"{'95% interval':>15} {'mean Z':>7} {'sd Z':>5} {'effect':>6} {'decisions':>9} "
             f"{'normal fit':>10} {'bound':>9}"]
    keys = sorted({(r["kind"], r["partner_known"], r["deals"]) for r in rows},
                  key=lambda k: (KINDS.index(k[0]), k[1], k[2]))
    for kind, partner_known, size in keys:
        group = [r for r in rows
                 if (r["kind"], r["partner_known"], r["deals"]) == (kind, partner_known, size)]
        flagged = sum(1 for r in group
                      if fairplay.p_with_margin(r["z"], r["sd"], r["spread"], margin) < threshold)
        shifted = [r["z"] + (margin * r["spread"] / r["sd"] if r["sd"] else 0.0) for r in group]
        fit, bound = normal_fit(shifted, threshold, flagging=kind not in HONEST)
        lo, hi = wilson(flagged, len(group))
        zs = [r["z"] for r in group]
        sd = statistics.stdev(zs) if len(zs) > 1 else float("nan")
        what = "detect" if kind not in HONEST else "false"
        lines.append(f"{kind:15} {'partner' if partner_known else 'plain':8} {size:>5} {len(group):>4} "
                     f"{flagged:>7} {flagged / len(group):>6.0%} {f'[{lo:.0%}, {hi:.0%}]':>15} "
                     f"{statistics.mean(zs):>7.2f} {sd:>5.2f} "
                     f"{statistics.mean(r['effect'] for r in group):>6.2f} "
                     f"{statistics.mean(r['informative'] for r in group):>9.0f} "
                     f"{_rate(fit):>10} {_rate(bound, '>=' if kind not in HONEST else '<='):>9}  {what}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--deals", default="50,100,200")
    parser.add_argument("--samples", type=int, default=fairplay.SAMPLES, help="layouts per decision")
    parser.add_argument("--players", type=int, default=100, help="players reviewed at once")
    parser.add_argument("--alpha", type=float, default=0.05, help="family-wise false-alarm rate")
    parser.add_argument("--margin", type=float, default=0.25,
                        help="the effect margin reported beside the plain test (fairplay.combine)")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--json", help="write the rows here too")
    parser.add_argument("--decisions", help="write every telling decision here (JSON lines)")
    parser.add_argument("--report", nargs="+", metavar="JSON",
                        help="play nothing: print the table of the rows these --json files hold, together")
    args = parser.parse_args()
    sizes = [int(x) for x in args.deals.split(",")]
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in KINDS:
            parser.error(f"unknown player {kind!r}: one of {', '.join(KINDS)}")
    threshold = args.alpha / args.players
    began = time.perf_counter()
    if args.report:
        rows = []
        for path in args.report:
            with open(path) as f:
                saved = json.load(f)
            rows += [r | {"rep": f"{saved['seed']}+{r['rep']}"} for r in saved["rows"]]
        seeds = sorted({r["rep"] for r in rows})
        print(f"{len(seeds)} repetitions from {', '.join(args.report)}; flagged at p < {args.alpha} / "
              f"{args.players} = {threshold:.1e}")
        print("\n".join(report(rows, threshold) + report(rows, threshold, args.margin)))
        return

    def show(rows: list[dict[str, Any]]) -> None:
        reps = len({r["rep"] for r in rows})
        print(f"solver: {BUILD}; {reps} repetitions; {args.samples} layouts per decision; North reviewed "
              f"from trick 2; flagged at p < {args.alpha} / {args.players} = {threshold:.1e}; "
              f"{time.perf_counter() - began:.0f} s")
        print("\n".join(report(rows, threshold) + report(rows, threshold, args.margin)), flush=True)
        if args.decisions:
            with open(args.decisions, "w") as f:
                f.writelines(json.dumps(d) + "\n" for d in kept)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"threshold": threshold, "margin": args.margin, "samples": args.samples,
                           "seed": args.seed, "rows": rows}, f, indent=1)

    kept: list[dict[str, Any]] = []
    run(kinds, args.reps, sizes, args.samples, args.seed, after_rep=show, kept=kept)


if __name__ == "__main__":
    main()
