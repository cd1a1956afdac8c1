"""Does a loss ever raise a rating? Counts, over random small histories, for the filter and whole-history.

    .venv/bin/python -m bench.ratings.whole_monotone [--examples 2000] [--kind rotating|fixed]

A history: 4-10 players, 5-40 matches on random days, random partners (``rotating``) or fixed
partnerships (``fixed``); each match known by card points, by the eyes of each deal, by its
final score or by its result only
(deals played by ``bench.ratings.sim.play_match`` from hidden strengths). Three changes for a
random player X: (a) a result-only loss of X added on a random day with random partner and
opponents; (b) one of X's won matches mirrored (the two pairs swap seats, so every deal and the
result now count against X); (c) a result-only win added. A change is a violation when X's current
rating moves the wrong way by more than ``EPS`` display points: the filter (``RatingState``
replayed in day order) against ``whole.whole_history``.

A mirrored match counts only when its evidence turns against X at every strength: the slope of the
log-likelihood ratio (mirrored over original) in X's side's strength is nowhere positive. A won
match whose deals say X's pair was the weaker (fewer card points) would, mirrored, say it was the
stronger: the model reads margins, so that is not "a loss" to it and is left out (and counted).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace

from ratings.core.model import Deal, Match, RatingState
from ratings.core.whole import LogWin, fit_whole, match_slope

from .sim import play_match

EPS = 0.01  # display points: whole-history is solved to 1e-4, the filter is exact
TOL = 1e-4
END = 120  # histories' days are 0..END; ratings are compared as of END
_STATE = RatingState()


def random_history(rng: random.Random, fixed: bool = False) -> list[Match]:
    """A small random history in day order (see the module's docstring)."""
    n = rng.randint(4, 10)
    ids = [f"p{i}" for i in range(n)]
    strength = {p: rng.gauss(0.0, 0.3) for p in ids}
    pairs = [(ids[i], ids[i + 1]) for i in range(0, n - 1, 2)]
    out = []
    days = sorted(rng.randint(0, END) for _ in range(rng.randint(5, 40)))
    for day in days:
        if fixed:
            a, b = rng.sample(pairs, 2)
        else:
            four = rng.sample(ids, 4)
            a, b = (four[0], four[1]), (four[2], four[3])
        diff = sum(strength[p] for p in a) - sum(strength[p] for p in b)
        out.append(played(rng, a, b, diff, float(day), rng.choice(("points", "eyes", "score", "result"))))
    return out


def played(
    rng: random.Random, ns: tuple[str, str], ew: tuple[str, str], diff: float, day: float, kind: str
) -> Match:
    """A match played out by the simulator; ``kind``: points, eyes (no card points), score (the final
    eyes only) or result only."""
    winner, eyes, raw = play_match(rng, diff)
    if kind in ("result", "score"):
        return Match(ns, ew, winner, None, day, eyes=eyes if kind == "score" else None)
    deals = tuple(
        Deal(
            None if d["outcome"] == "eggs" else ("NS" if int(d["NS"]) > 0 else "EW"),  # type: ignore[call-overload]
            str(d["outcome"]),
            str(d["on_duty"]),
            tuple(d["points"]) if kind == "points" else None,  # type: ignore[arg-type]
        )
        for d in raw
    )
    return Match(ns, ew, winner, deals, day)


def mirrored(m: Match) -> Match:
    """The same match with the pairs' seats swapped: every deal and the result go the other way."""
    return replace(m, ns=m.ew, ew=m.ns)


_LOG_WINS: dict[object, LogWin] = {}


def _log_win(m: Match) -> LogWin:
    """The result's factor as ``whole`` builds it: by the final score when only that is known."""
    final = m.eyes if m.deals is None and m.ended == "normal" else None
    loser = -1 if final is None else min(max(final[1] if m.winner == "NS" else final[0], 0), 11)
    if (m.rules, loser) not in _LOG_WINS:
        if loser < 0:
            values = _STATE.table(m.rules).values
        else:
            values = tuple(row[loser] for row in _STATE.score_table(m.rules).values)
        _LOG_WINS[(m.rules, loser)] = LogWin(values)
    return _LOG_WINS[(m.rules, loser)]


def slope(m: Match, d: float) -> float:
    """d/dd of the match's log-likelihood (``d``: NS minus EW strength), as the model reads it."""
    st = _STATE
    if m.deals is not None:
        terms, seen, total, mixed = st._deal_terms(m.deals)
    else:
        terms, seen, total, mixed = [], 0.0, 0.0, []
    g = total - seen * d
    by_winner = m.deals is None or m.ended != "normal"
    y = 1.0 if m.winner == "NS" else -1.0
    return m.weight * (g + match_slope(terms, by_winner, y, _log_win(m), d, mixed)[0])


def turns_against(m: Match, x: str) -> bool:
    """Mirroring ``m`` makes its evidence worse for ``x`` at every strength (likelihood-ratio order)."""
    sign = 1.0 if x in m.ns else -1.0
    mm = mirrored(m)
    for i in range(-40, 41):
        u = i * 0.1  # X's side minus the other
        if sign * slope(mm, -sign * u) * -1.0 - sign * slope(m, sign * u) > 1e-9:
            return False
    return True


def filter_rating(history: list[Match], x: str) -> float:
    st = RatingState()
    for m in sorted(history, key=lambda m: m.day or 0.0):
        st.update(m)
    return st.display(x)[0]


def whole_rating(history: list[Match], x: str) -> float:
    fit = fit_whole(history, tol=TOL, sweeps=2000)
    mu = fit.current(x, float(END))[0]
    return fit.params.base + fit.params.scale * mu


def changes(
    rng: random.Random, history: list[Match], fixed: bool = False
) -> list[tuple[str, str, list[Match]]]:
    """(label, X, changed history) for the three changes; (b) only when X has a qualifying win.

    ``fixed``: the added matches keep the history's partnerships (X with his partner against
    another pair of the history)."""
    ids = sorted({p for m in history for p in (*m.ns, *m.ew)})
    pairs = sorted({side for m in history for side in (m.ns, m.ew)})
    x = rng.choice(ids)
    out = []
    for label, lose in (("a", True), ("c", False)):
        if fixed:
            own = next(pr for pr in pairs if x in pr)
            partner = own[1] if own[0] == x else own[0]
            o1, o2 = rng.choice([pr for pr in pairs if pr != own])
        else:
            partner, o1, o2 = rng.sample([p for p in ids if p != x], 3)
        day = float(rng.randint(0, END))
        ns, ew = (x, partner), (o1, o2)
        if rng.random() < 0.5:
            ns, ew = ew, ns
        x_ns = x in ns
        winner = ("EW" if x_ns else "NS") if lose else ("NS" if x_ns else "EW")
        out.append((label, x, [*history, Match(ns, ew, winner, None, day)]))
    wins = [i for i, m in enumerate(history) if (x in m.ns) == (m.winner == "NS") and x in (*m.ns, *m.ew)]
    wins = [i for i in wins if turns_against(history[i], x)]
    if wins:
        i = rng.choice(wins)
        out.append(("b", x, [*history[:i], mirrored(history[i]), *history[i + 1 :]]))
    return out


def violation(label: str, before: float, after: float) -> float:
    """How far the rating moved the wrong way (positive: a violation)."""
    return after - before if label in ("a", "b") else before - after


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=2000)
    ap.add_argument("--kind", choices=("rotating", "fixed"), default="rotating")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    counts = {(s, lab): [0, 0] for s in ("filter", "whole") for lab in "abc"}
    worst: dict[str, tuple[float, int, str, list[Match], list[Match]]] = {}
    smallest: dict[str, tuple[int, float, str, str, list[Match], list[Match]]] = {}
    for ex in range(args.examples):
        rng = random.Random(f"{args.seed}-{ex}")
        history = random_history(rng, args.kind == "fixed")
        for label, x, changed in changes(rng, history, args.kind == "fixed"):
            for name, fn in (("filter", filter_rating), ("whole", whole_rating)):
                v = violation(label, fn(history, x), fn(changed, x))
                c = counts[(name, label)]
                c[1] += 1
                if v > EPS:
                    c[0] += 1
                    if v > worst.get(name, (0.0,))[0]:
                        worst[name] = (v, ex, label, history, changed)
                    if len(changed) < smallest.get(name, (10**9,))[0]:
                        smallest[name] = (len(changed), v, label, x, history, changed)
    print(f"{args.examples} histories ({args.kind} partners), violations > {EPS} display points:")
    for name in ("filter", "whole"):
        parts = [f"({lab}) {counts[(name, lab)][0]}/{counts[(name, lab)][1]}" for lab in "abc"]
        w = worst.get(name)
        print(
            f"  {name:6s} "
            + "  ".join(parts)
            + (f"  largest {w[0]:.2f} ({w[2]}, example {w[1]})" if w else "")
        )
    for name, (size, v, label, x, history, changed) in smallest.items():
        print(f"smallest {name} violation: change ({label}) of {x}, {v:.2f} points, {size} matches after:")
        extra = [m for m in changed if m not in history] + [m for m in history if m not in changed]
        for m in history:
            print(f"    {m.day:5.0f} {m.ns} v {m.ew} won by {m.winner} {_how(m)}")
        for m in extra:
            print(f"  changed: {m.day:5.0f} {m.ns} v {m.ew} won by {m.winner} {_how(m)}")


def _how(m: Match) -> str:
    if m.deals is None:
        return "(result only)" if m.eyes is None else f"(score {m.eyes[0]}:{m.eyes[1]})"
    return "(points)" if any(d.points for d in m.deals) else "(eyes only)"


if __name__ == "__main__":
    main()
