"""The flood's cost within one run of bench/ws/load.py: `--flood-windows W` turns it on and off.

Runs of the same code spread over 50-150 ms at p99 here (two cores shared by the load generator,
the server, its move worker, Celery and PostgreSQL), so two runs, one with the flood and one
without, cannot show a 10 ms difference. Within one run both kinds of moves share the server
process, its database and whatever else the machine is doing. After a warm-up (the first clock
tasks fire `--move-seconds` into the run: the steady state begins there), the run is cut into
windows of W seconds taken in pairs; in each pair one window floods and the other does not, the
order drawn by a seeded coin, so neither kind always comes first. A move counts for the window it
was sent in; the first `linger` seconds after the flood stops count for the flood (its sockets are
still being closed and its buckets refilled), so whatever the flood leaves behind is charged to it.

The report: each kind's p50/p99 (move -> all four seats) and the difference of the p99s, with a
95% interval from a bootstrap over the pairs (pairs drawn with replacement, 2,000 times): the
machine's drift within the run is counted as the uncertainty it is.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field


@dataclass
class Window:
    start: float
    end: float
    flood: bool
    pair: int
    latencies: list[float] = field(default_factory=list)


def windows(start: float, warmup: float, seconds: float, width: float, seed: int = 1) -> list[Window]:
    """Whole pairs of windows of `width` seconds from `start + warmup` to at most `start + seconds`."""
    rng = random.Random(seed)
    out: list[Window] = []
    at = start + warmup
    pair = 0
    while at + 2 * width <= start + seconds + 1e-9:
        first_floods = rng.random() < 0.5
        out.append(Window(at, at + width, first_floods, pair))
        out.append(Window(at + width, at + 2 * width, not first_floods, pair))
        at += 2 * width
        pair += 1
    return out


def flood_spans(ws: list[Window]) -> list[tuple[float, float]]:
    """The intervals the flood is on, adjacent windows joined."""
    spans: list[tuple[float, float]] = []
    for w in ws:
        if not w.flood:
            continue
        if spans and abs(spans[-1][1] - w.start) < 1e-9:
            spans[-1] = (spans[-1][0], w.end)
        else:
            spans.append((w.start, w.end))
    return spans


def window_of(ws: list[Window], sent: float, linger: float) -> Window | None:
    """The window a move sent at `sent` counts for: the one it was sent in, or the flood window
    before it within `linger` seconds of its end; None outside every window."""
    home = next((k for k, w in enumerate(ws) if w.start <= sent < w.end), None)
    if home is None:
        return None
    w = ws[home]
    if not w.flood and home > 0 and ws[home - 1].flood and sent - w.start < linger:
        return ws[home - 1]
    return w


def kind_of(ws: list[Window], sent: float, linger: float) -> bool | None:
    """Whether a move sent at `sent` counts for the flood (None: outside every window)."""
    w = window_of(ws, sent, linger)
    return None if w is None else w.flood


def assign(ws: list[Window], timeline: list[tuple[float, float]], linger: float) -> int:
    """Put each (sent at, latency) into the window it counts for; returns how many moves fell
    outside every window."""
    outside = 0
    for sent, latency in timeline:
        w = window_of(ws, sent, linger)
        if w is None:
            outside += 1
        else:
            w.latencies.append(latency)
    return outside


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def report(ws: list[Window], resamples: int = 2000) -> list[str]:
    """Lines: each pair's p99s, each kind's p50/p99 pooled, the difference and its 95% interval."""
    pairs: dict[int, dict[bool, list[float]]] = {}
    for w in ws:
        pairs.setdefault(w.pair, {False: [], True: []})[w.flood].extend(w.latencies)
    pairs = {k: v for k, v in pairs.items() if v[False] and v[True]}
    if not pairs:
        return ["flood windows: no pair with moves in both windows"]
    lines = ["flood windows, each pair's p99 without / with the flood (ms): " + ", ".join(
        f"{1000 * p99(v[False]):.0f}/{1000 * p99(v[True]):.0f}" for v in pairs.values())]
    pooled = {kind: [x for v in pairs.values() for x in v[kind]] for kind in (False, True)}
    for kind, label in ((False, "without the flood"), (True, "with the flood")):
        lat = pooled[kind]
        lines.append(f"move -> all 4 seats {label}: p50 {1000 * statistics.median(lat):.1f} ms, "
                     f"p99 {1000 * p99(lat):.1f} ms, max {1000 * max(lat):.1f} ms (n={len(lat)})")
    rng = random.Random(1)
    keys = list(pairs)
    diffs = []
    for _ in range(resamples):
        drawn = [pairs[rng.choice(keys)] for _ in keys]
        diffs.append(p99([x for v in drawn for x in v[True]]) - p99([x for v in drawn for x in v[False]]))
    diffs.sort()
    low, high = diffs[int(0.025 * len(diffs))], diffs[int(0.975 * len(diffs)) - 1]
    diff = p99(pooled[True]) - p99(pooled[False])
    lines.append(f"flood's cost at p99: {1000 * diff:+.1f} ms (95% interval over {len(keys)} pairs of "
                 f"windows {1000 * low:+.1f} .. {1000 * high:+.1f} ms)")
    return lines
