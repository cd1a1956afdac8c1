"""Match streams played out card by card by the engine's bots, written once to small files the harness reads.

    .venv/bin/python -m bench.ratings.botstreams            write bench/ratings/data/bots-*.jsonl.gz

The harness's other generators make each deal a normal margin, the very assumption of the
rating model. Here every deal is played by four of the engine's beginner bots
(``gameplay.engine.bot``), each with a player's own noise ``q``: at each card, with probability
``q``, a random legal card instead of the bot's. A player's hidden strength is his ``q`` (drawn
uniformly from 0 to ``Q_MAX``, fixed for the stream); partners rotate, four players drawn at
random for each match, seats at random. The deals carry what the real game gives (card points,
eyes, outcome, the pair on duty, Lucy and eggs as they fall), none of it shaped like the model.

The truth (for the oracle's log-loss and for Spearman) is not known exactly, so it is fitted on a
large separate simulation (``FIT_MATCHES`` matches of random lineups, seeds apart from the
streams'): a per-player logit ``g(q)``, piecewise linear in ``q`` with knots every 0.1 and
``g(0) = 0``, and ``P(NS wins) = 1 / (1 + exp(-(e + g(a) + g(b) - g(c) - g(d))))`` (``e``: an
edge of the NS seats, if the deal order gives one), fitted by maximum likelihood (Newton). It is
checked on lineups played many times over (``CHECK_LINEUPS`` x ``CHECK_REPEAT``): the fitted
probability against the share actually won, written to ``bots-truth.json`` with the knots. Each
stream's matches carry that fitted probability (``p``) and the header each player's ``q`` and ``g(q)``.

File: one JSON object a line, gzip. The first line is the header ``{"seed", "players": {id: q},
"strength": {id: g(q)}}``; each next line a match ``{"day", "ns", "ew", "winner", "eyes",
"deals": [[NS eyes, EW eyes, outcome, pair on duty, NS card points], ...], "p"}`` (redeals left out).
"""

from __future__ import annotations

import gzip
import json
import math
import random
import time
from pathlib import Path

from gameplay.engine.bot import choose_action
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.state import Phase

DATA = Path(__file__).resolve().parent / "data"
SEEDS = tuple(range(100, 120))
PLAYERS = 120
PER_PLAYER = 80
DAYS = 365
Q_MAX = 0.8
KNOTS = tuple(round(0.1 * i, 1) for i in range(9))  # 0.0 .. 0.8
FIT_MATCHES = 12000
CHECK_LINEUPS = 8
CHECK_REPEAT = 250
_RULES = Rules()


def play(rng: random.Random, noise: tuple[float, float, float, float]) -> MatchState:
    """One match by four beginner bots; seat s plays a random legal card with probability ``noise[s]``."""
    state = MatchState(_RULES, rng=rng)
    while state.phase != Phase.OVER:
        if state.phase == Phase.REDEAL:
            seat = state.redeal_pending[0]
            state.apply(choose_action(state.observation(seat), rng), seat)
            continue
        seat = state.to_move if state.to_move is not None else 0
        if rng.random() < noise[seat]:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(choose_action(state.observation(seat), rng))
    return state


def deals_of(state: MatchState) -> list[list[object]]:
    """Each played deal as [NS eyes, EW eyes, outcome, pair on duty, NS card points]; redeals left out."""
    out: list[list[object]] = []
    for d in state.deals:
        if d.outcome is None or d.outcome == "redeal":
            continue
        out.append([d.eyes[0], d.eyes[1], d.outcome, "NS" if d.pair_on_duty == 0 else "EW", d.points[0]])
    return out


def basis(q: float) -> list[float]:
    """Hat functions on the knots after 0: g(q) = sum(w_k * basis_k(q)), so g(0) = 0."""
    out = [0.0] * (len(KNOTS) - 1)
    x = min(max(q, 0.0), KNOTS[-1]) / 0.1
    i = min(int(x), len(KNOTS) - 2)
    f = x - i
    if i >= 1:
        out[i - 1] += 1 - f
    out[i] += f
    return out


def g_of(q: float, w: list[float]) -> float:
    return sum(b * v for b, v in zip(basis(q), w, strict=True))


def features(qs: tuple[float, float, float, float]) -> list[float]:
    """NS seats 0 and 2, EW seats 1 and 3: the logit is linear in these (the last: NS's seat edge, if any)."""
    b = [basis(q) for q in qs]
    return [b[0][k] + b[2][k] - b[1][k] - b[3][k] for k in range(len(KNOTS) - 1)] + [1.0]


def fit(rows: list[tuple[list[float], int]], steps: int = 30) -> list[float]:
    """Maximum-likelihood logistic weights (no intercept) by Newton's method with a tiny ridge."""
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(steps):
        grad = [0.0] * n
        hess = [[1e-6 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            z = sum(a * b for a, b in zip(x, w, strict=True))
            p = 1.0 / (1.0 + math.exp(-z))
            r = y - p
            s = p * (1 - p)
            for i in range(n):
                grad[i] += r * x[i]
                if x[i]:
                    for j in range(n):
                        hess[i][j] += s * x[i] * x[j]
        step = solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(v) for v in step) < 1e-8:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def probability(qs: tuple[float, float, float, float], w: list[float]) -> float:
    z = sum(a * b for a, b in zip(features(qs), w, strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def fit_truth() -> dict[str, object]:
    rng = random.Random("bots-truth")
    rows = []
    for _ in range(FIT_MATCHES):
        qs = (rng.uniform(0, Q_MAX), rng.uniform(0, Q_MAX), rng.uniform(0, Q_MAX), rng.uniform(0, Q_MAX))
        rows.append((features(qs), 1 if play(rng, qs).winner == 0 else 0))
    w = fit(rows)
    check = []
    crng = random.Random("bots-check")
    for _ in range(CHECK_LINEUPS):
        qs = (crng.uniform(0, Q_MAX), crng.uniform(0, Q_MAX), crng.uniform(0, Q_MAX), crng.uniform(0, Q_MAX))
        won = sum(1 for _ in range(CHECK_REPEAT) if play(crng, qs).winner == 0) / CHECK_REPEAT
        p = probability(qs, w)
        se = math.sqrt(p * (1 - p) / CHECK_REPEAT)
        check.append(
            {"q": [round(q, 3) for q in qs], "fitted": round(p, 4), "won": won, "z": round((won - p) / se, 2)}
        )
    return {
        "knots": list(KNOTS),
        "g": [0.0, *w[:-1]],
        "ns_edge": w[-1],
        "fit_matches": FIT_MATCHES,
        "check": check,
    }


def stream(seed: int, w: list[float]) -> list[dict[str, object]]:
    rng = random.Random(f"bots-{seed}")
    ids = [f"b{i}" for i in range(PLAYERS)]
    q = {p: rng.uniform(0, Q_MAX) for p in ids}
    header: dict[str, object] = {
        "seed": seed,
        "players": {p: round(q[p], 4) for p in ids},
        "strength": {p: round(g_of(q[p], w[:-1]), 4) for p in ids},
    }
    lines = [header]
    days = sorted(rng.uniform(0, DAYS) for _ in range(PLAYERS * PER_PLAYER // 4))
    for day in days:
        four = rng.sample(ids, 4)
        noise = (q[four[0]], q[four[1]], q[four[2]], q[four[3]])
        state = play(rng, noise)
        lines.append(
            {
                "day": round(day, 3),
                "ns": [four[0], four[2]],
                "ew": [four[1], four[3]],
                "winner": "NS" if state.winner == 0 else "EW",
                "eyes": list(state.capped_score),
                "deals": deals_of(state),
                "p": round(probability(noise, w), 5),
            }
        )
    return lines


def load(seed: int) -> list[dict[str, object]]:
    """The header and the matches of one stream, as written."""
    with gzip.open(DATA / f"bots-{seed}.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def main() -> None:
    DATA.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    truth = fit_truth()
    w = [*[float(v) for v in truth["g"]][1:], float(truth["ns_edge"])]  # type: ignore[union-attr, arg-type]
    (DATA / "bots-truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"truth fitted in {time.perf_counter() - t0:.0f} s: g = {truth['g']}", flush=True)
    for c in truth["check"]:  # type: ignore[union-attr]
        print("  check", c, flush=True)
    for seed in SEEDS:
        lines = stream(seed, w)
        text = "".join(json.dumps(obj, separators=(",", ":")) + "\n" for obj in lines)
        with gzip.GzipFile(DATA / f"bots-{seed}.jsonl.gz", "wb", compresslevel=9, mtime=0) as f:
            f.write(text.encode())  # mtime 0: the same seed writes the same bytes
        print(f"seed {seed}: {len(lines) - 1} matches, {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
