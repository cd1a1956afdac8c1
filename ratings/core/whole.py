"""Whole-history ratings (experimental): every player's strength fitted to all matches at once.

The filter of ``ratings.core.model`` learns each match once, in order; replayed after a late or
corrected result, an earlier loss can make later wins count more. Here, as in Whole-History
Rating (Rémi Coulom, "Whole-History Rating: A Bayesian Rating System for Players of
Time-Varying Strength", Computers and Games 2008), a player's strength is a random process
sampled at the days he played, and all trajectories are fitted at once (their posterior mode).

- **Strength over time.** Coulom uses a Wiener process started at the player's first game. Then
  a match placed before a player's first day loosens the prior of all his later days (a win
  added there can lower him). Here the process is Ornstein-Uhlenbeck with stationary law
  N(0, ``initial_sd``²): each day's prior is a newcomer's whatever his first day, steps of
  variance ``drift`` a day at first, growing no further than a newcomer's (the filter's cap);
  the mean returns towards 0 at rate ``drift / (2 initial_sd²)`` a day (about 6% a year).
- **Pairs.** A pair's own term is one constant per partnership, prior N(0, ``pair_sd``²); a pair
  that played one match only has its term integrated out of that match (exact for a normal
  factor), which spares a node for most pairs of rotating partners.
- **Matches.** Each match is a factor on ``d`` = NS partners' strengths on its day + NS pair
  term − the same for EW, with the filter's own log-likelihood (``RatingState._deal_terms``:
  card points as normal margins, other deals as margin intervals; ``RatingState.table``: the match
  probability of the result when deals are unknown or the match was not played out), times the
  match's weight. The log match probability is not concave (an upset is a normal win or a Lucy:
  two regimes), which gives a posterior several modes and lets a result move ratings the wrong
  way; the fit uses its least concave majorant (``whole_solve.LogWin``), which raises an upset's
  log-probability where the pairs are 0.6 to 2.4 units apart (by up to 0.7 near 1) and beyond 3.3.
- **Fit.** Newton steps on every strength at once: each solves the whole posterior's curvature
  by conjugate gradients, preconditioned with each owner's own tridiagonal block (his days, or
  a pair term: what Coulom's section 3.2 solves one player at a time, the others fixed), then
  the factors that are not quadratic are relinearised (``whole_newton``). Three to five steps of
  40-70 iterations in all; steps are damped if they stop shrinking. The fit stops when a step
  moves no strength by more than ``tol`` display points. (Until 2026-12-08 the fit swept one
  owner at a time, Coulom's way: 19-39 sweeps, the common level of all players and the split
  between partners who only ever played together solved apart because the sweeps crept there,
  and at a tolerance of 0.01 points it stopped up to 0.02-0.03 points short of the mode, where
  the conjugate gradients come within 0.0001. 16 times slower at 100,000 matches.)
- **Deviation.** The diagonal of the inverse of each player's tridiagonal Hessian (Coulom's, the
  others fixed), each match's curvature ``h`` entering as ``h / (1 + h v)``, ``v`` the other
  terms' variances: the others' uncertainty integrated out as independent normals (as in the
  filter, Glicko, TrueSkill), so a newcomer's deviation is not understated.

The model's factors are built in Python, match by match; the solve is numpy's.
"""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass

import numpy as np

from ratings.core.model import EW, NS, Match, ModelParams, RatingState, averaged_chance
from ratings.core.whole_newton import System
from ratings.core.whole_solve import LogWin, match_slope


@dataclass
class WholeFit:
    """A fitted history: each player's current (mean, variance, day) and each pair term's (mean, variance)."""

    params: ModelParams
    players: dict[str, tuple[float, float, float]]
    pairs: dict[tuple[str, str], tuple[float, float]]
    sweeps: int  # Newton steps taken
    state: RatingState
    days: dict[tuple[str, float], float]  # each player's strength on each day he played (a warm start's seed)
    iterations: int = 0  # conjugate-gradient iterations over all the Newton steps

    def current(self, player: str, day: float | None = None) -> tuple[float, float]:
        """(mu, var) of a player as of ``day`` (default: his last match); with time away the
        variance grows (``drift`` a day at first) towards a newcomer's, and the mean very slowly
        returns towards 0 (the same steps as between his days, ``fit_whole``)."""
        p = self.params
        p0 = p.initial_sd**2
        got = self.players.get(player)
        if got is None:
            return 0.0, p0
        mu, var, last = got
        if day is not None and day > last:
            a = math.exp(-p.drift / (2.0 * p0) * (day - last))
            mu, var = a * mu, a * a * var + p0 * (1.0 - a * a)
        return mu, var

    def predict(self, match: Match) -> float:
        """P(NS wins), as ``RatingState.predict``: the match probability averaged over the uncertainty."""
        d0 = v = 0.0
        pp0 = self.params.pair_sd**2
        for side, sign in ((match.ns, 1.0), (match.ew, -1.0)):
            for pid in side:
                mu, var = self.current(pid, match.day)
                d0 += sign * mu
                v += var
            mu, var = self.pairs.get(_key(*side), (0.0, pp0))
            d0 += sign * mu
            v += var
        return averaged_chance(self.state.table(match.rules), d0, v)


def anchor(
    state: RatingState, matches: list[Match], *, day: float | None = None, tol: float = 0.01
) -> WholeFit | None:
    """Every rating in ``state`` (a filter that has learnt ``matches`` in order) moved to its
    whole-history mean, the filter's variances kept: the state a full recompute is to leave (the
    plan in docs/ratings.md, "Across history").

    Each player's mean is his strength as the whole history has it on one ``day`` for all (by
    default the latest match's): a history with a loss added is to be compared with the one
    before on the same day. Read on different days, the prior's pull towards the middle between
    them (about 6% of the mean a year) can show a weak player higher after a loss added as his
    latest match (0.04 points, seen in the property test when each was read on his own last day).
    A pair term with a node of its own (a pair that played twice or more) takes its fitted mean.
    The form is dropped (the same as the mean again): the whole history has read every match in full. The
    variances stay the filter's, which cover where the whole history's own are too narrow
    (fixed partners). Matches of two players (Bilka for two) are not the estimator's: a state
    with none of four players is left as it is (None returned)."""
    ours = [m for m in matches if len({*m.ns, *m.ew}) == 4 and m.winner in (NS, EW)]
    if not ours:
        return None
    fit = fit_whole(ours, state.params, tol=tol)
    end = max(last for _, _, last in fit.players.values()) if day is None else day
    for pid in fit.players:
        r = state.players.get(pid)
        if r is not None:
            r.mu, r.form = fit.current(pid, end)[0], None
    for (a, b), (mu, _var) in fit.pairs.items():
        r = state.pairs.get(_key(a, b))  # the filter keys its pairs so too (ids are strings)
        if r is not None:
            r.mu, r.form = mu, None
    return fit


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def display(mu_var: tuple[float, float], params: ModelParams | None = None) -> tuple[float, float]:
    """(rating, deviation) on the display scale, e.g. (1500 + 400 mu, 400 sd)."""
    p = params or ModelParams()
    return p.base + p.scale * mu_var[0], p.scale * math.sqrt(mu_var[1])


def whole_history(
    matches: list[Match],
    params: ModelParams | None = None,
    sweeps: int = 500,
    *,
    day: float | None = None,
    tol: float = 0.01,
) -> dict[str, tuple[float, float]]:
    """Each player's current (mu, var), fitted to the whole history (as of ``day`` when given)."""
    fit = fit_whole(matches, params, sweeps, day=day, tol=tol)
    return {pid: fit.current(pid, day) for pid in fit.players}


def fit_whole(
    matches: list[Match],
    params: ModelParams | None = None,
    sweeps: int = 500,
    *,
    day: float | None = None,
    tol: float = 0.01,
    start: WholeFit | None = None,
) -> WholeFit:
    """The MAP trajectories of every player (and pair term) given all ``matches`` (up to ``day``).

    ``sweeps``: the most Newton steps taken. ``start``: an earlier fit whose current strengths
    seed the new one (a warm start after a correction). Forfeits before the first card
    (``deals == ()``) are not rated, as in the filter.
    """
    # Millions of small lists and tuples: the cyclic garbage collector would walk them again and
    # again while they are built (none of them forms a cycle), so it waits until the fit is done.
    was = gc.isenabled()
    gc.disable()
    try:
        return _fit(matches, params or ModelParams(), sweeps, day, tol, start)
    finally:
        if was:
            gc.enable()


def _fit(
    matches: list[Match], p: ModelParams, sweeps: int, day: float | None, tol: float, start: WholeFit | None
) -> WholeFit:
    state = RatingState(p)
    p0 = p.initial_sd**2
    use_pairs = p.pair_sd > 0
    # Nodes: one per (player, day he played) and one per pair term. node_prior: 1/variance of the
    # node's prior (first day of a player, or a pair term), 0 otherwise; chain[n]: 1/variance of the
    # step from node n to the same player's next node (0 for his last).
    x: list[float] = []
    prior: list[float] = []
    chain: list[float] = []
    pull: list[float] = []
    # Ornstein-Uhlenbeck steps: x' = a x + noise, a = exp(-theta days), noise variance p0 (1 - a^2),
    # so every day's prior is N(0, p0) whatever the player's first day was.
    theta = p.drift / (2.0 * p0)
    owner_nodes: list[list[int]] = []  # each owner's (player's or pair's) nodes in day order
    owner_days: list[list[float]] = []  # and their days (none for a pair term)
    last: dict[str, tuple[int, float]] = {}  # player -> (his latest node, its day)
    pair_node: dict[tuple[str, str], int] = {}
    owner_of: dict[object, int] = {}
    base_g: list[float] = []
    base_h: list[float] = []
    nonquad: list[
        tuple[
            int,
            list[tuple[float, float, float]],
            bool,
            float,
            LogWin,
            float,
            list[tuple[float, float, float, float, float]],
        ]
    ] = []
    mnodes: list[tuple[int, ...]] = []  # each match's nodes, NS's first (``msplit`` of them)
    msplit: list[int] = []
    seed = dict(start.players) if start else {}
    seed_days = start.days if start else {}
    seed_pairs = dict(start.pairs) if start else {}
    today = 0.0
    rows: list[tuple[float, int, Match]] = []
    for m in matches:
        today = m.day if m.day is not None else today
        if (m.deals is not None and not m.deals) or (day is not None and today > day):
            continue
        if m.winner not in (NS, EW) or len({*m.ns, *m.ew}) != 4:
            raise ValueError(f"a match has four different players and is won by NS or EW: {m}")
        rows.append((today, len(rows), m))
    rows.sort(key=lambda r: (r[0], r[1]))
    last_day: dict[str, float] = {}
    # A pair that played once has a term seen by one match only: it is integrated out of that
    # match (its prior variance added to the match's, exact for a normal factor) instead of
    # being a node of its own. Rotating partners make most pairs such.
    once: dict[tuple[str, str], int] = {}
    for _, _, m in rows:
        for side in (m.ns, m.ew):
            k = _key(*side)
            once[k] = once.get(k, 0) + 1
    pp0 = p.pair_sd**2
    soak: list[float] = []
    log_wins: dict[object, LogWin] = {}
    for t, _, m in rows:
        mi = len(mnodes)
        nodes: list[int] = []
        soaked = 0.0
        for side, sgn in ((m.ns, 0), (m.ew, 1)):
            for pid in side:
                got = last.get(pid)
                if got is not None and got[1] == t:
                    n = got[0]
                else:
                    n = len(x)
                    v = seed_days.get((pid, t))
                    if v is None:
                        v = x[got[0]] if got else (seed[pid][0] if pid in seed else 0.0)
                    x.append(v)
                    chain.append(0.0)
                    pull.append(1.0)
                    if got is None:
                        prior.append(1.0 / p0)
                        owner_of[pid] = len(owner_nodes)
                        owner_nodes.append([n])
                        owner_days.append([t])
                    else:
                        prior.append(0.0)
                        a = math.exp(-theta * (t - got[1]))
                        chain[got[0]] = 1.0 / max(p0 * (1.0 - a * a), 1e-12)
                        pull[got[0]] = a
                        owner_nodes[owner_of[pid]].append(n)
                        owner_days[owner_of[pid]].append(t)
                    last[pid] = (n, t)
                    last_day[pid] = t
                nodes.append(n)
            k = _key(*side)
            if use_pairs and once[k] == 1:
                soaked += pp0
            elif use_pairs:
                pnode = pair_node.get(k)
                if pnode is None:
                    pnode = pair_node[k] = len(x)
                    x.append(seed_pairs[k][0] if k in seed_pairs else 0.0)
                    chain.append(0.0)
                    pull.append(1.0)
                    prior.append(1.0 / (p.pair_sd**2))
                    owner_nodes.append([pnode])
                    owner_days.append([])
                nodes.append(pnode)
            if not sgn:
                ns_count = len(nodes)
        mnodes.append(tuple(nodes))
        msplit.append(ns_count)
        soak.append(soaked)
        wt = m.weight
        if m.deals is not None:
            terms, seen, total, mixed = state._deal_terms(m.deals)
        else:
            terms, seen, total, mixed = [], 0.0, 0.0, []
        by_winner = m.deals is None or m.ended != "normal"
        base_g.append(wt * total)
        base_h.append(wt * seen)
        if terms or mixed or by_winner:
            y = 1.0 if m.winner == NS else -1.0
            # Known by its final score alone (played out): the loser's eyes say how close it was,
            # as in the filter; else by its result (or its deals and who walked away).
            final = m.eyes if m.deals is None and m.ended == "normal" else None
            loser = -1 if final is None else min(max(final[1] if m.winner == NS else final[0], 0), 11)
            lw = log_wins.get((m.rules, loser))
            if lw is None:
                if loser < 0:
                    values = state.table(m.rules).values
                else:
                    values = tuple(row[loser] for row in state.score_table(m.rules).values)
                lw = log_wins[(m.rules, loser)] = LogWin(values)
            nonquad.append((mi, terms, by_winner, y, lw, wt, mixed))
    # One Newton step on every strength at once (``whole_newton``), the factors that are not
    # quadratic relinearised before each: r[m], the gradient of match m's log-likelihood in d at the
    # current strengths, and hh[m] its curvature (a quadratic factor's are its own, once).
    system = System(prior, chain, pull, owner_nodes, mnodes, msplit)
    xa = np.asarray(x, dtype=np.float64)
    base_g_a = np.asarray(base_g, dtype=np.float64)
    base_h_a = np.asarray(base_h, dtype=np.float64)
    soak_a = np.asarray(soak, dtype=np.float64)
    kk_q = 1.0 / (1.0 + base_h_a * soak_a)
    hh = base_h_a * kk_q
    quad_mask = np.ones(len(mnodes), dtype=bool)
    quad_mask[[item[0] for item in nonquad]] = False
    r = np.zeros(len(mnodes))
    scale = p.scale
    done = iterations = 0
    omega, last_big = 1.0, math.inf

    for done in range(1, sweeps + 1):  # noqa: B007
        dm_all = system.d_of(xa)
        r[quad_mask] = ((base_g_a - base_h_a * dm_all) * kk_q)[quad_mask]
        dl = dm_all.tolist()
        for mi, terms, by_winner, y, lw, wt, mixed in nonquad:
            dm = dl[mi]
            g, curv = match_slope(terms, by_winner, y, lw, dm, mixed)
            curv = wt * curv + base_h[mi]
            kk = 1.0 / (1.0 + curv * soak[mi])
            hh[mi] = curv * kk
            r[mi] = (wt * g + base_g[mi] - base_h[mi] * dm) * kk
        grad = system.spread(r) - system.prior_gradient(xa)
        # The preconditioned residual's norm is about how far the step still is from the exact
        # one: a thousandth of where it started, or a tenth of the tolerance, is close enough (the
        # next Newton step corrects what is left).
        step, its = system.step(grad, hh, rtol=1e-3, atol=0.1 * tol / scale)
        iterations += its
        big = float(np.max(np.abs(step))) if len(step) else 0.0
        # Newton on a factor that flattens out one way (a Lucy deal's interval, the result alone)
        # can overshoot into a cycle: when a step stops shrinking, steps are damped.
        if big > 0.9 * last_big and done > 3:
            omega = max(0.05, 0.5 * omega)
        last_big = big
        xa += omega * step
        if big * scale < tol:
            break
    var = system.variances(hh, soak_a).tolist()
    x = xa.tolist()
    players = {pid: (x[n], var[n], last_day[pid]) for pid, (n, _) in last.items()}
    pairs = {k: (x[n], var[n]) for k, n in pair_node.items()}
    days_of: dict[tuple[str, float], float] = {
        (str(pid), t): x[n]
        for pid, i in owner_of.items()
        for n, t in zip(owner_nodes[i], owner_days[i], strict=True)
    }
    return WholeFit(p, players, pairs, done, state, days_of, iterations)


__all__ = ["EW", "NS", "LogWin", "WholeFit", "anchor", "display", "fit_whole", "match_slope", "whole_history"]
