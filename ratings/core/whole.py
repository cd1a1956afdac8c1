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
- **Fit.** Newton steps on one player (his days) at a time with the others fixed: his Hessian
  over his days is tridiagonal, solved in O(days) (Coulom, section 3.2; Thomas algorithm),
  swept over all players and pair terms; non-quadratic factors are relinearised each sweep.
  Two directions the data cannot see are solved exactly each sweep (Gauss-Seidel creeps there):
  the common level of all players, and the split between partners who only ever played
  together. Steps are damped if a sweep stops shrinking them. Sweeps stop when no strength
  moves by more than ``tol`` display points.
- **Deviation.** The diagonal of the inverse of each player's tridiagonal Hessian (Coulom's, the
  others fixed), each match's curvature ``h`` entering as ``h / (1 + h v)``, ``v`` the other
  terms' variances: the others' uncertainty integrated out as independent normals (as in the
  filter, Glicko, TrueSkill), so a newcomer's deviation is not understated.

Pure Python, plain lists; a quadratic factor (points only) is computed once.
"""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass

from ratings.core.model import EW, NS, Match, ModelParams, RatingState, averaged_chance
from ratings.core.whole_solve import LogWin, match_slope, shift_cost, sweep, variances


@dataclass
class WholeFit:
    """A fitted history: each player's current (mean, variance, day) and each pair term's (mean, variance)."""

    params: ModelParams
    players: dict[str, tuple[float, float, float]]
    pairs: dict[tuple[str, str], tuple[float, float]]
    sweeps: int
    state: RatingState
    days: dict[tuple[str, float], float]  # each player's strength on each day he played (a warm start's seed)

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

    ``start``: an earlier fit whose current strengths seed the new one (a warm start after a
    correction). Forfeits before the first card (``deals == ()``) are not rated, as in the filter.
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
    inc: list[list[int]] = []  # per node: match indices, encoded 2*m for +1 and 2*m+1 for -1
    base_g: list[float] = []
    base_h: list[float] = []
    quad: list[int] = []
    nonquad: list[tuple[int, list[tuple[float, float, float]], bool, float, LogWin, float,
                        list[tuple[float, float, float, float, float]]]] = []
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
    partners: dict[str, set[str]] = {}
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
                    inc.append([])
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
                inc[n].append(2 * mi + sgn)
                nodes.append(n)
            k = _key(*side)
            if use_pairs and once[k] == 1:
                soaked += pp0
            elif use_pairs:
                pnode = pair_node.get(k)
                if pnode is None:
                    pnode = pair_node[k] = len(x)
                    x.append(seed_pairs[k][0] if k in seed_pairs else 0.0)
                    inc.append([])
                    chain.append(0.0)
                    pull.append(1.0)
                    prior.append(1.0 / (p.pair_sd**2))
                    owner_nodes.append([pnode])
                    owner_days.append([])
                inc[pnode].append(2 * mi + sgn)
                nodes.append(pnode)
            if not sgn:
                ns_count = len(nodes)
        mnodes.append(tuple(nodes))
        msplit.append(ns_count)
        soak.append(soaked)
        for side in (m.ns, m.ew):  # the whole-history estimator rates Bilka's pairs only
            pa, pb = side[0], side[-1]
            partners.setdefault(pa, set()).add(pb)
            partners.setdefault(pb, set()).add(pa)
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
        else:
            quad.append(mi)
    player_owners = [owner_nodes[i] for i in owner_of.values()]
    fixed = [
        [
            owner_nodes[owner_of[a]],
            owner_nodes[owner_of[b]],
            *([[pair_node[(a, b)]]] if (a, b) in pair_node else []),
        ]
        for a, b in {_key(a, *bs) for a, bs in partners.items() if len(bs) == 1}
        if partners[a] == {b} and partners[b] == {a}
    ]
    # r[m]: the gradient of match m's log-likelihood in d at the current strengths, kept up to date
    # as strengths move (d moves by the step, r by -H * step); H[m]: its curvature, relinearised
    # once a sweep for the factors that are not quadratic.
    plus = [tuple(e >> 1 for e in es if not e & 1) for es in inc]
    minus = [tuple(e >> 1 for e in es if e & 1) for es in inc]
    hh = list(base_h)
    r = [0.0] * len(mnodes)
    lin_at = [math.nan] * len(mnodes)
    scale = p.scale
    done = 0
    omega, last_big = 1.0, math.inf
    for done in range(1, sweeps + 1):  # noqa: B007
        for mi, terms, by_winner, y, lw, wt, mixed in nonquad:
            at, cut = mnodes[mi], msplit[mi]
            dm = sum(x[n] for n in at[:cut]) - sum(x[n] for n in at[cut:])
            if abs(dm - lin_at[mi]) < 1e-5:
                continue
            g, curv = match_slope(terms, by_winner, y, lw, dm, mixed)
            curv = wt * curv + base_h[mi]
            kk = 1.0 / (1.0 + curv * soak[mi])
            hh[mi] = curv * kk
            r[mi] = (wt * g + base_g[mi] - base_h[mi] * dm) * kk
            lin_at[mi] = dm
        if done == 1:
            for mi in quad:
                at, cut = mnodes[mi], msplit[mi]
                kk = 1.0 / (1.0 + base_h[mi] * soak[mi])
                hh[mi] = base_h[mi] * kk
                r[mi] = (
                    base_g[mi] - base_h[mi] * (sum(x[n] for n in at[:cut]) - sum(x[n] for n in at[cut:]))
                ) * kk
        big = sweep(x, prior, chain, pull, owner_nodes, plus, minus, r, hh, omega)
        # Newton on a factor that flattens out one way (a Lucy deal's interval, the result alone)
        # can overshoot into a cycle: when a sweep's largest step stops shrinking, steps are damped.
        if big > 0.9 * last_big and done > 3:
            omega = max(0.05, 0.5 * omega)
        last_big = big
        # Partners who only ever played together (and their pair term) are seen only as a sum:
        # how it splits is the priors' call, solved exactly (the least prior cost for that sum).
        # (Each owner's prior cost of a shift c of all his days is A c^2 / 2 + B c.)
        for group in fixed:
            ab = [shift_cost(own, x, prior, chain, pull) for own in group]
            mu = sum(cb / ca for ca, cb in ab) / sum(1.0 / ca for ca, _ in ab)
            for own, (ca, cb) in zip(group, ab, strict=True):
                c = (mu - cb) / ca
                big = max(big, abs(c))
                for n in own:
                    x[n] += c
        # The data never pins the common level of all players (a shift of everyone leaves every d
        # alone): only the priors do, so Gauss-Seidel would creep there. Solve that direction exactly.
        if player_owners:
            ab = [shift_cost(own, x, prior, chain, pull) for own in player_owners]
            shift = -sum(b for _, b in ab) / sum(a for a, _ in ab)
            for own in player_owners:
                for n in own:
                    x[n] += shift
            big = max(big, abs(shift))
        if big * scale < tol:
            break
    var = variances(x, prior, chain, pull, owner_nodes, inc, hh, mnodes, soak)
    players = {pid: (x[n], var[n], last_day[pid]) for pid, (n, _) in last.items()}
    pairs = {k: (x[n], var[n]) for k, n in pair_node.items()}
    days_of: dict[tuple[str, float], float] = {
        (str(pid), t): x[n]
        for pid, i in owner_of.items()
        for n, t in zip(owner_nodes[i], owner_days[i], strict=True)
    }
    return WholeFit(p, players, pairs, done, state, days_of)


__all__ = ["EW", "NS", "LogWin", "WholeFit", "display", "fit_whole", "match_slope", "whole_history"]
