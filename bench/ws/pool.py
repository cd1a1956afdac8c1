"""The flood's cost over several runs of bench/ws/load.py `--flood-windows`, pooled.

One run gives seven pairs of 30 s windows and an interval ~35 ms wide at p99: too wide to show
a goal of 10 ms. Runs made with `BENCH_DUMP=runN.json` leave each move's (seconds into the run,
latency) and the run's windows beside it (`runN.json.windows`); this puts every run's moves into
its own windows, numbers the pairs apart (a pair is never split across runs) and prints the same
report as one run does, over all pairs: each kind's p50/p99 and the difference of the p99s with
its 95% bootstrap interval over the pairs.

    .venv/bin/python -m bench.ws.pool [--flood-linger 2] run1.json run2.json ...

Pool only runs of a like machine: bench.ws.load prints a CPU probe before and after each run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.ws import windows


def load(dump: Path, first_pair: int) -> list[windows.Window]:
    """The run's windows, numbered from `first_pair`, each holding the moves that count for it."""
    spans = json.loads(Path(f"{dump}.windows").read_text())
    runs: list[windows.Window] = []
    for k, (start, end, flood) in enumerate(spans):
        runs.append(windows.Window(start, end, bool(flood), first_pair + k // 2))
    return runs


def pool(dumps: list[Path], linger: float) -> tuple[list[windows.Window], list[str]]:
    """All runs' windows with their moves, and a line per run."""
    pooled: list[windows.Window] = []
    lines = []
    for dump in dumps:
        ws = load(dump, first_pair=1 + max((w.pair for w in pooled), default=-1))
        timeline = [tuple(x) for x in json.loads(dump.read_text())]
        outside = windows.assign(ws, timeline, linger)
        lines.append(f"{dump}: {len(ws) // 2} pairs, {len(timeline) - outside} moves in windows, "
                     f"{outside} outside")
        pooled.extend(ws)
    return pooled, lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", nargs="+", type=Path, help="BENCH_DUMP files of bench.ws.load runs")
    parser.add_argument("--flood-linger", type=float, default=2.0,
                        help="seconds after the flood stops that count for it (as the runs used)")
    args = parser.parse_args(argv)
    pooled, lines = pool(args.dumps, args.flood_linger)
    for line in lines + windows.report(pooled):
        print(line)


if __name__ == "__main__":
    main()
