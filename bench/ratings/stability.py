"""How stable, how honest about its doubt, and how monotone the rating model is, on simulated streams.

    .venv/bin/python -m bench.ratings.stability [--seeds 0-2] [--flips 4] [--histories 300]

Three figures people will ask of the ratings, each from the model's interface only (``Learner``: ``predict``,
``update``, ``state.display``), on streams of ``sim.simulate`` (rotating partners and a league of
fixed pairs, 120 players x 80 matches, the tuning shapes' defaults):

(a) Flip one old result. A match in the first quarter of the stream is turned round (the other
    pair wins it, every deal mirrored: eyes, card points and the pair on duty swapped) and the
    whole stream is learnt again from scratch. For every player who did not play that match, the
    move of his current rating (display points, at the stream's last day) is set against the
    deviation his card shows then (before the flip): median, p99 and max of the moves, and the share
    of players whose move is within their deviation.

(b) Deviation calibration. At the cut (two thirds of the stream's matches), each player with at
    least 10 matches before and 10 after has a displayed rating ``r`` and deviation ``s`` (on the
    cut's day). His "later strength" ``t`` is the mean of his hidden strength over his matches
    after the cut. The hidden scale is not the display scale, so ``t`` is put on it by the one linear
    map that makes the ratings right on average: least squares of ``t`` on ``r`` over the players
    (``t = c + d r``; the display value of ``t`` is ``(t - c) / d``). For a calibrated Gaussian
    model that map is the model's own scale, and the share of players with ``|t_display - r| <= s``
    is about 68% (and 95% within ``2 s``). Both shares are printed. The later mean also holds the
    drift of the months after the cut, which the deviation shown on the cut's day does not claim;
    so the same shares are printed too against his strength at his first match after the cut (and
    a fixed pair's against its sum at its first match after the cut).

(c) Monotonicity. Over random small histories (8 players, 80 matches, rotating partners, deals by
    ``sim.play_match``; long enough that the Learner refits its parameters once, at 60), for a
    random player: add a match he loses at a random place, or turn one
    of his wins into a loss (mirrored as in (a)), or add a match he wins; learn both histories from
    scratch and compare his final rating. Counted: a loss that raises it, a win that lowers it
    (more than 1e-6 display points), with the largest such move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ratings.core.learner import Learner

from .harness import SHAPES, Shape, shapes_of, stream_of
from .peers import model_match
from .sim import SimMatch, play_match, simulate


def mirror(m: SimMatch) -> SimMatch:
    """The same match with the other result: the other pair wins it and every deal is turned round."""
    deals = [
        {
            "NS": d["EW"],
            "EW": d["NS"],
            "outcome": d["outcome"],
            "on_duty": "EW" if d["on_duty"] == "NS" else "NS",
            "points": [d["points"][1], d["points"][0]],  # type: ignore[index]
        }
        for d in m.deals
    ]
    return SimMatch(
        m.ns,
        m.ew,
        m.day,
        "EW" if m.winner == "NS" else "NS",
        (m.eyes[1], m.eyes[0]),
        deals,
        1 - m.p_true,
        m.fixed,
        m.strengths,
    )


def learn(matches: list[SimMatch], info: str = "points") -> Learner:
    learner = Learner()
    for m in matches:
        learner.update(model_match(m, info))
    return learner


def quantile(v: list[float], q: float) -> float:
    s = sorted(v)
    return s[min(len(s) - 1, int(q * len(s)))]


def flips(seeds: list[int], per_stream: int) -> None:
    print("(a) flip one result in the first quarter, relearn the stream; uninvolved players' moves")
    for field in ("rotating", "league"):
        moves: list[float] = []
        within = total = 0
        ratio: list[float] = []
        for seed in seeds:
            stream = simulate(field, seed, 120, 80)
            ms = stream.matches
            last = ms[-1].day
            base = learn(ms)
            players = sorted({p for m in ms for p in (*m.ns, *m.ew)})
            before = {p: base.state.display(p, last) for p in players}
            rng = random.Random(f"flip-{field}-{seed}")
            for _ in range(per_stream):
                i = rng.randrange(len(ms) // 4)
                flipped = learn([*ms[:i], mirror(ms[i]), *ms[i + 1 :]])
                involved = {*ms[i].ns, *ms[i].ew}
                for p in players:
                    if p in involved:
                        continue
                    move = abs(flipped.state.display(p, last)[0] - before[p][0])
                    moves.append(move)
                    ratio.append(move / before[p][1])
                    within += move <= before[p][1]
                    total += 1
        devs = [before[p][1] for p in before]
        print(
            f"  {field:8} {len(seeds) * per_stream} flips, {total} player-moves: "
            f"median {statistics.median(moves):.2f}, "
            f"p99 {quantile(moves, 0.99):.2f}, max {max(moves):.2f} display points; deviation shown "
            f"median {statistics.median(devs):.1f}; within their deviation {within / total:.1%}; "
            f"move/deviation p99 {quantile(ratio, 0.99):.3f}"
        )


def coverage(rows: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """Shares within 1 and 2 deviations, and the scale; rows of (rating, deviation, later truth)."""
    rs = [r for r, _, _ in rows]
    ts = [t for _, _, t in rows]
    mr, mt = statistics.fmean(rs), statistics.fmean(ts)
    d = sum((r - mr) * (t - mt) for r, t in zip(rs, ts, strict=True)) / sum((r - mr) ** 2 for r in rs)
    c = mt - d * mr
    z = [abs((t - c) / d - r) / dev for r, dev, t in rows]
    return sum(x <= 1 for x in z) / len(z), sum(x <= 2 for x in z) / len(z), 1 / d


def calibration(seeds: list[int], shapes: list[Shape] | None = None) -> None:
    """(b) on the harness's ``shapes`` (by default its tuning ones: ``simulate``'s defaults, 120 x 80),
    each stream learnt from what its shape lets the systems see."""
    print("(b) deviation calibration at 2/3 of the stream: later mean hidden strength vs rating ± deviation")
    for shape in shapes or [SHAPES[name] for name in ("rotating", "league", "mix")]:
        name = shape.name
        rows: list[tuple[float, float, float]] = []
        next_rows: list[tuple[float, float, float]] = []
        pair_rows: list[tuple[float, float, float]] = []
        pair_next: list[tuple[float, float, float]] = []
        for seed in seeds:
            stream = stream_of(shape, seed)
            ms = stream.matches
            cut = 2 * len(ms) // 3
            learner = learn(ms[:cut], shape.info)
            day = ms[cut - 1].day
            n_before: dict[tuple[str, ...], int] = {}
            for m in ms[:cut]:
                for u in (*[(p,) for p in (*m.ns, *m.ew)], m.ns, m.ew):
                    n_before[u] = n_before.get(u, 0) + 1
            later: dict[tuple[str, ...], list[float]] = {}
            for m in ms[cut:]:
                s = m.strengths
                for u, t in zip(
                    ((m.ns[0],), (m.ns[1],), (m.ew[0],), (m.ew[1],), m.ns, m.ew),
                    (*s, s[0] + s[1], s[2] + s[3]),
                    strict=True,
                ):
                    later.setdefault(u, []).append(t)
            for u, ts in later.items():
                if n_before.get(u, 0) < 10 or len(ts) < 10:
                    continue
                if len(u) == 1:
                    r, dev = learner.state.display(u[0], day)
                    rows.append((r, dev, statistics.fmean(ts)))
                    next_rows.append((r, dev, ts[0]))
                elif u in stream.chemistry or (u[1], u[0]) in stream.chemistry:
                    chem = stream.chemistry.get((u[0], u[1]), stream.chemistry.get((u[1], u[0]), 0.0))
                    r, dev = learner.state.pair_display(u[0], u[1])
                    pair_rows.append((r, dev, statistics.fmean(ts) + chem))
                    pair_next.append((r, dev, ts[0] + chem))
        devs = [dev for _, dev, _ in rows]
        one, two, scale = coverage(rows)
        print(
            f"  {name:16} {len(rows)} players: within 1 deviation {one:.1%} (goal ~68%), within 2 {two:.1%} "
            f"(~95%); deviation median {statistics.median(devs):.1f}; scale {scale:.0f} display points "
            f"per hidden unit"
        )
        one, two, _ = coverage(next_rows)
        print(f"  {name:16} the same players against their strength at their next match: within 1 deviation "
              f"{one:.1%}, within 2 {two:.1%}")
        if pair_rows:
            one, two, scale = coverage(pair_rows)
            devs = [dev for _, dev, _ in pair_rows]
            print(
                f"  {name:16} {len(pair_rows)} fixed pairs (partners' sum and the pair's own term): "
                f"within 1 deviation {one:.1%}, within 2 {two:.1%}; "
                f"deviation median {statistics.median(devs):.1f}"
            )
            one, two, _ = coverage(pair_next)
            print(f"  {name:16} the same pairs against their strength at their next match: "
                  f"within 1 deviation {one:.1%}, within 2 {two:.1%}")


def history(rng: random.Random, players: int = 8, matches: int = 80) -> list[SimMatch]:
    ids = [f"h{i}" for i in range(players)]
    strength = {p: rng.gauss(0.0, 0.25) for p in ids}
    out = []
    for k in range(matches):
        four = rng.sample(ids, 4)
        ns, ew = (four[0], four[1]), (four[2], four[3])
        diff = strength[ns[0]] + strength[ns[1]] - strength[ew[0]] - strength[ew[1]]
        winner, eyes, deals = play_match(rng, diff)
        out.append(SimMatch(ns, ew, float(k), winner, eyes, deals, 0.5, False))
    return out


def match_with(rng: random.Random, p: str, ids: list[str], day: float) -> SimMatch:
    """A new match of ``p`` with three others, even on paper; its deals as ``sim.play_match`` plays them."""
    o = rng.sample([q for q in ids if q != p], 3)
    winner, eyes, deals = play_match(rng, 0.0)
    return SimMatch((p, o[0]), (o[1], o[2]), day, winner, eyes, deals, 0.5, False)


def won_by(m: SimMatch, p: str) -> bool:
    return (p in m.ns) == (m.winner == "NS")


def monotonicity(n: int) -> None:
    print(f"(c) monotonicity over {n} random histories (8 players, 80 matches) per change")
    rng = random.Random("monotone")
    counts = {"add a loss": [0, 0.0], "win -> loss": [0, 0.0], "add a win": [0, 0.0]}
    for _ in range(n):
        ms = history(rng)
        ids = sorted({p for m in ms for p in (*m.ns, *m.ew)})
        p = rng.choice(ids)
        base = learn(ms).state.display(p)[0]
        for change in counts:
            if change == "win -> loss":
                wins = [i for i, m in enumerate(ms) if p in (*m.ns, *m.ew) and won_by(m, p)]
                if not wins:
                    continue
                i = rng.choice(wins)
                other = [*ms[:i], mirror(ms[i]), *ms[i + 1 :]]
            else:
                i = rng.randrange(len(ms) + 1)
                day = ms[i - 1].day if i else 0.0
                extra = match_with(rng, p, ids, day)
                if won_by(extra, p) != (change == "add a win"):
                    extra = mirror(extra)
                other = [*ms[:i], extra, *ms[i:]]
            after = learn(other).state.display(p)[0]
            wrong = after - base if change != "add a win" else base - after
            if wrong > 1e-6:
                counts[change][0] += 1
                counts[change][1] = max(counts[change][1], wrong)
    for change, (k, worst) in counts.items():
        what = "lowered" if change == "add a win" else "raised"
        print(
            f"  {change:12} {what} the player's rating in {k} of {n} histories; "
            f"largest {worst:.2f} display points"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", default="0-2")
    ap.add_argument("--flips", type=int, default=4, help="flipped results per stream")
    ap.add_argument("--histories", type=int, default=300)
    ap.add_argument("--calibration-shapes", default="",
                    help="only (b), on these harness shapes (e.g. held-out, with --seeds 100-119)")
    args = ap.parse_args()
    a, _, b = args.seeds.partition("-")
    seeds = list(range(int(a), int(b or a) + 1))
    t0 = time.perf_counter()
    if args.calibration_shapes:
        calibration(seeds, shapes_of(args.calibration_shapes))
        print(f"{time.perf_counter() - t0:.0f} s")
        return
    flips(seeds, args.flips)
    calibration(seeds)
    monotonicity(args.histories)
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
