"""The numeric core of whole-history ratings (``ratings.core.whole``): match factors and Newton sweeps.

``match_slope`` gives a match factor's slope and curvature in ``d`` (the filter's formulas);
``LogWin`` is the log match probability of a result, made concave for the fit; ``sweep`` takes one
Newton step per owner (a player's days, or a pair term) on his tridiagonal Hessian, the others
fixed (Coulom 2008, section 3.2); ``shift_cost`` is an owner's prior cost of shifting all his
days; ``variances`` the diagonal of each owner's inverse Hessian. Plain lists, indexed by node.
"""

from __future__ import annotations

import math

from ratings.core.likelihood import interval_slope, mixture_slope
from ratings.core.match_odds import GRID_LIMIT, GRID_STEP


def match_slope(
    terms: list[tuple[float, float, float]], by_winner: bool, y: float, log_win: LogWin, d: float,
    mixed: list[tuple[float, float, float, float, float]] | None = None,
) -> tuple[float, float]:
    """Gradient and curvature (minus the second derivative) in ``d`` of the deals' intervals (and
    pairs of intervals, ``mixed``) and, when ``by_winner``, of the log match probability of the
    result; the intervals' by ``likelihood.interval_slope``, as ``RatingState._solve``."""
    g, h = interval_slope(terms, d)
    if mixed:
        gm, hm = mixture_slope(mixed, d)
        g += gm
        h += hm
    if by_winner:
        gr, hr = log_win.slope(y * d)
        g += y * gr
        h += hr
    return g, h


class LogWin:
    """log P(the first pair wins the match, or wins it by a given score) in ``d``, made exactly
    concave and smooth for the fit.

    The filter reads the match probability from a table on a grid of ``d`` (``match_odds``),
    linearly interpolated. Its log is not concave: between grid points it has a small convex kink
    at each, and the tabulated values themselves are not log-concave for 0.6 < |d| < 2.4 (the
    slope of the log rises, by up to half, as an upset gets less likely; a race to 12 eyes with
    routs, eggs and Lucy is not one normal margin) nor in the far tail (|d| > 3.3). With such
    factors the posterior can have several modes (the fit then depends on where it starts) and a
    result can move ratings the wrong way. Here the log of the table is replaced by its least
    concave majorant (it raises an upset's log-probability there, by up to 0.7 near |d| = 1), and
    its slope is averaged over one grid step either side, so the factor is concave with a
    continuous slope and the posterior keeps a single mode.
    """

    def __init__(self, values: tuple[float, ...]) -> None:
        """``values``: the probability on the grid of ``match_odds`` (a ``MatchTable``'s, or a
        ``ScoreTable``'s column for one final score)."""
        logs = [math.log(max(v, 1e-300)) for v in values]
        hull: list[int] = []
        for i, v in enumerate(logs):
            while len(hull) >= 2:
                a, b = hull[-2], hull[-1]
                if (logs[b] - logs[a]) * (i - a) <= (v - logs[a]) * (b - a):
                    hull.pop()
                else:
                    break
            hull.append(i)
        vals = list(logs)
        for a, b in zip(hull, hull[1:], strict=False):
            for i in range(a + 1, b):
                vals[i] = logs[a] + (logs[b] - logs[a]) * (i - a) / (b - a)
        self.vals = vals
        self.step = GRID_STEP

    def at(self, d: float) -> float:
        """The concave log, linear between grid points and beyond the grid's ends."""
        vals = self.vals
        x = (d + GRID_LIMIT) / self.step
        last = len(vals) - 1
        i = min(max(int(math.floor(x)), 0), last - 1)
        return vals[i] + (vals[i + 1] - vals[i]) * (x - i)

    def slope(self, d: float) -> tuple[float, float]:
        """The slope averaged over one grid step either side, and minus its derivative (>= 0)."""
        e = self.step
        up, mid, dn = self.at(d + e), self.at(d), self.at(d - e)
        return (up - dn) / (2 * e), max(0.0, -(up - 2 * mid + dn) / (e * e))


def shift_cost(
    own: list[int], x: list[float], prior: list[float], chain: list[float], pull: list[float]
) -> tuple[float, float]:
    """(A, B): the second and first derivative of an owner's prior cost in a shift of all his days."""
    n0 = own[0]
    a, b = prior[n0], prior[n0] * x[n0]
    for k in range(len(own) - 1):
        n = own[k]
        w, q = chain[n], 1.0 - pull[n]
        a += w * q * q
        b += w * q * (x[own[k + 1]] - pull[n] * x[n])
    return a, b


def sweep(
    x: list[float],
    prior: list[float],
    chain: list[float],
    pull: list[float],
    owner_nodes: list[list[int]],
    plus: list[tuple[int, ...]],
    minus: list[tuple[int, ...]],
    r: list[float],
    hh: list[float],
    omega: float,
) -> float:
    """One Newton step for each owner in turn, the others fixed, taken ``omega`` of the way; returns
    the largest full step."""
    big = 0.0
    rg, hg = r.__getitem__, hh.__getitem__
    for own in owner_nodes:
        if len(own) == 1:
            n = own[0]
            pl, mn = plus[n], minus[n]
            pr = prior[n]
            s = (sum(map(rg, pl)) - sum(map(rg, mn)) - pr * x[n]) / (sum(map(hg, pl)) + sum(map(hg, mn)) + pr)
            if s > big:
                big = s
            elif -s > big:
                big = -s
            s *= omega
            x[n] += s
            for mi in pl:
                r[mi] -= hh[mi] * s
            for mi in mn:
                r[mi] += hh[mi] * s
            continue
        k_n = len(own)
        a = []
        g = []
        for n in own:
            pl, mn = plus[n], minus[n]
            pr = prior[n]
            a.append(sum(map(hg, pl)) + sum(map(hg, mn)) + pr)
            g.append(sum(map(rg, pl)) - sum(map(rg, mn)) - pr * x[n])
        ws = [chain[n] for n in own]
        us = [pull[n] for n in own]
        for k in range(k_n - 1):
            w, u = ws[k], us[k]
            e = w * (x[own[k + 1]] - u * x[own[k]])
            g[k] += u * e
            g[k + 1] -= e
            a[k] += w * u * u
            a[k + 1] += w
        # Thomas algorithm on the symmetric tridiagonal (a on the diagonal, -w u off it).
        cp = [0.0] * k_n
        piv = a[0]
        g[0] /= piv
        for k in range(1, k_n):
            c = -ws[k - 1] * us[k - 1]
            cp[k - 1] = c / piv
            piv = a[k] - c * cp[k - 1]
            g[k] = (g[k] - c * g[k - 1]) / piv
        for k in range(k_n - 2, -1, -1):
            g[k] -= cp[k] * g[k + 1]
        for k in range(k_n):
            s = g[k]
            if s > big:
                big = s
            elif -s > big:
                big = -s
            s *= omega
            n = own[k]
            x[n] += s
            for mi in plus[n]:
                r[mi] -= hh[mi] * s
            for mi in minus[n]:
                r[mi] += hh[mi] * s
    return big


def variances(
    x: list[float],
    prior: list[float],
    chain: list[float],
    pull: list[float],
    owner_nodes: list[list[int]],
    inc: list[list[int]],
    hh: list[float],
    mnodes: list[tuple[int, ...]],
    soak: list[float],
) -> list[float]:
    """Each node's variance: the diagonal of its owner's tridiagonal inverse Hessian, twice: first
    with the others fixed (Coulom), then with each match's curvature discounted by the others' variance."""
    var = [0.0] * len(x)
    total: list[float] | None = None
    for _ in range(2):
        old = var
        var = [0.0] * len(x)
        for own in owner_nodes:
            k_n = len(own)
            a = [0.0] * k_n
            for k, n in enumerate(own):
                hk = 0.0
                for e in inc[n]:
                    mi = e >> 1
                    h = hh[mi]
                    if total is not None:
                        h = h / (1.0 + h * (total[mi] - old[n]))
                    hk += h
                a[k] = hk + prior[n]
            for k in range(k_n - 1):
                w, u = chain[own[k]], pull[own[k]]
                a[k] += w * u * u
                a[k + 1] += w
            fwd = [0.0] * k_n
            bwd = [0.0] * k_n
            fwd[0] = a[0]
            for k in range(1, k_n):
                c = chain[own[k - 1]] * pull[own[k - 1]]
                fwd[k] = a[k] - c * c / fwd[k - 1]
            bwd[-1] = a[-1]
            for k in range(k_n - 2, -1, -1):
                c = chain[own[k]] * pull[own[k]]
                bwd[k] = a[k] - c * c / bwd[k + 1]
            for k, n in enumerate(own):
                var[n] = 1.0 / max(fwd[k] + bwd[k] - a[k], 1e-12)
        total = [sum(var[n] for n in ns) + v for ns, v in zip(mnodes, soak, strict=True)]
    return var
