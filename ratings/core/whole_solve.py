"""The match factors of whole-history ratings (``ratings.core.whole``).

``match_slope`` gives a match factor's slope and curvature in ``d`` (the filter's formulas);
``LogWin`` is the log match probability of a result, made concave for the fit. The solve over
every strength is ``ratings.core.whole_newton``.
"""

from __future__ import annotations

import math

from ratings.core.likelihood import interval_slope, mixture_slope
from ratings.core.match_odds import GRID_LIMIT, GRID_STEP


def match_slope(
    terms: list[tuple[float, float, float]],
    by_winner: bool,
    y: float,
    log_win: LogWin,
    d: float,
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
