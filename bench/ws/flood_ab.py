"""The flood's cost to the other tables, from runs of bench/ws/load.py with and without `--flood` in turn.

One run's p99 of 1,500 moves rests on its 15 slowest: two runs of the same code differed by 50 ms
at p99 here, five times the issue's 10 ms. So this runs `--pairs` pairs (no flood then flood, the
order swapped every other pair so a drift of the machine falls on both alike), keeps every move's
latency (`BENCH_DUMP`), and prints:

- each run's p50/p99 (move -> all four seats) and the load average;
- the median of the runs' p99 with and without the flood, and each pair's difference;
- the p99 of all the moves of each kind pooled, and its difference with a 95% interval from a
  bootstrap over whole runs (runs drawn with replacement within each kind, 2,000 times), which
  counts the run-to-run spread as the uncertainty it is.

    .venv/bin/python -m bench.ws.flood_ab [--pairs 5] [--seconds 30] [-- more bench.ws.load options]

`python -m bench.ws.load --flood-windows 30` measures the same within one run, with and without the flood
in alternating windows: it is the better measure here (the machine's drift between runs falls on
both kinds alike), and the README's figures come from it.

Goal (issue "Fair live tables"): every other table's move -> all seats p99 within 10 ms of the same
run without the flood. Bounded: each run as bench.ws.load bounds it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def one_run(flood: bool, seconds: int, extra: list[str]) -> tuple[list[float], str]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        dump = Path(f.name)
    cmd = [sys.executable, "-m", "bench.ws.load", "--seconds", str(seconds), *extra]
    if flood:
        cmd.append("--flood")
    out = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "BENCH_DUMP": str(dump)},  # noqa: S603
                         capture_output=True, text=True, check=True).stdout
    latencies = [lat for _, lat in json.loads(dump.read_text())]
    dump.unlink()
    flood_line = next((line for line in out.splitlines() if line.startswith("flood at table")), "")
    return latencies, flood_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=30)
    args, extra = parser.parse_known_args()
    extra = [a for a in extra if a != "--"]
    if not 1 <= args.pairs <= 20:
        parser.error("1 to 20 pairs")
    runs: dict[bool, list[list[float]]] = {False: [], True: []}
    pairs: list[tuple[float, float]] = []
    print(f"{args.pairs} pairs of {args.seconds} s runs, move -> all 4 seats", flush=True)
    print(f"{'run':>4} {'flood':>6} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8}  load", flush=True)
    for k in range(args.pairs):
        got = {}
        for flood in ((False, True) if k % 2 == 0 else (True, False)):
            latencies, flood_line = one_run(flood, args.seconds, extra)
            runs[flood].append(latencies)
            got[flood] = p99(latencies)
            print(f"{2 * k + len(got):>4} {'yes' if flood else 'no':>6} {len(latencies):>6} "
                  f"{1000 * statistics.median(latencies):>8.1f} {1000 * got[flood]:>8.1f}  "
                  f"{os.getloadavg()[0]:.2f}" + (f"  ({flood_line})" if flood_line else ""), flush=True)
        pairs.append((got[False], got[True]))
    print(f"median p99: without the flood {1000 * statistics.median(a for a, _ in pairs):.1f} ms, "
          f"with it {1000 * statistics.median(b for _, b in pairs):.1f} ms")
    print("each pair's p99 difference (flood - none), ms: "
          + ", ".join(f"{1000 * (b - a):+.1f}" for a, b in pairs))
    pooled = {kind: p99([x for run in runs[kind] for x in run]) for kind in (False, True)}
    rng = random.Random(1)
    diffs = []
    for _ in range(2000):
        drawn = {kind: [x for _ in runs[kind] for x in rng.choice(runs[kind])] for kind in (False, True)}
        diffs.append(p99(drawn[True]) - p99(drawn[False]))
    diffs.sort()
    low, high = diffs[int(0.025 * len(diffs))], diffs[int(0.975 * len(diffs)) - 1]
    print(f"pooled p99: without {1000 * pooled[False]:.1f} ms, with {1000 * pooled[True]:.1f} ms; "
          f"difference {1000 * (pooled[True] - pooled[False]):+.1f} ms "
          f"(95% interval over runs {1000 * low:+.1f} .. {1000 * high:+.1f} ms)")
    if extra:
        print(f"bench.ws.load options: {' '.join(extra)}")


if __name__ == "__main__":
    main()
