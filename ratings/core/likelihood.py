"""The slopes of a match's log-likelihood in the strength difference ``d``, for the model's Newton
steps (``ratings.core.model``) and the whole-history fit (``ratings.core.whole_solve``)."""

from __future__ import annotations

import math
from collections.abc import Callable

_R2 = 1.0 / math.sqrt(2.0)
_RPI = 1.0 / math.sqrt(2.0 * math.pi)


def interval_slope(terms: list[tuple[float, float, float]], d: float) -> tuple[float, float]:
    """Gradient and curvature (minus the second derivative) in ``d`` of the log-likelihood of deals
    whose margin fell in intervals: ``(lo, hi, count)``, the margin ``d`` plus standard normal noise.
    P = F(a) - F(b), a = d - lo, b = d - hi; F the normal CDF, f its density, f' = -x f."""
    inf = math.inf
    exp, erfc = math.exp, math.erfc
    g = h = 0.0
    for lo, hi, n in terms:
        if lo == -inf:
            fa = fpa = 0.0
            big_a = 1.0
        else:
            x = d - lo
            big_a = 0.5 * erfc(-x * _R2)
            fa = _RPI * exp(-0.5 * x * x)
            fpa = -x * fa
        if hi == inf:
            fb = fpb = big_b = 0.0
        else:
            x = d - hi
            big_b = 0.5 * erfc(-x * _R2)
            fb = _RPI * exp(-0.5 * x * x)
            fpb = -x * fb
        pr = big_a - big_b
        if pr < 1e-300:
            pr = 1e-300
        gi = (fa - fb) / pr
        g += n * gi
        h += n * (gi * gi - (fpa - fpb) / pr)
    return g, h


def mixture_slope(mixtures: list[tuple[float, float, float, float, float]], d: float) -> tuple[float, float]:
    """Gradient and curvature in ``d`` of the log-likelihood of deals whose margin fell in one of two
    intervals, each as likely a priori: ``(lo1, hi1, lo2, hi2, count)``, the margin ``d`` plus standard
    normal noise (a deal whose eyes leave open which pair was on duty, and so the size of its win).
    P = (F(a1) - F(b1) + F(a2) - F(b2)) / 2; the halves cancel in P'/P and P''/P."""
    inf = math.inf
    exp, erfc = math.exp, math.erfc
    g = h = 0.0
    for lo1, hi1, lo2, hi2, n in mixtures:
        pr = d1 = d2 = 0.0
        for lo, hi in ((lo1, hi1), (lo2, hi2)):
            if lo != -inf:
                x = d - lo
                f = _RPI * exp(-0.5 * x * x)
                pr += 0.5 * erfc(-x * _R2)
                d1 += f
                d2 -= x * f
            else:
                pr += 1.0
            if hi != inf:
                x = d - hi
                f = _RPI * exp(-0.5 * x * x)
                pr -= 0.5 * erfc(-x * _R2)
                d1 -= f
                d2 += x * f
        if pr < 1e-300:
            pr = 1e-300
        gi = d1 / pr
        g += n * gi
        h += n * (gi * gi - d2 / pr)
    return g, h


def log_slope(prob: Callable[[float], float], y: float, d: float) -> tuple[float, float]:
    """Gradient and curvature (never negative) of log prob(y d) in ``d``, by central differences."""
    eps = 0.01
    lp = math.log(max(1e-12, prob(y * d)))
    lp_up = math.log(max(1e-12, prob(y * (d + eps))))
    lp_dn = math.log(max(1e-12, prob(y * (d - eps))))
    return (lp_up - lp_dn) / (2 * eps), max(0.0, -(lp_up - 2 * lp + lp_dn) / (eps * eps))
