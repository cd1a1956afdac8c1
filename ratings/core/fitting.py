"""The model's parameters, learnt from the matches themselves rather than fixed constants.

Two steps, each from the matches seen so far only (``Learner`` calls them as its stream grows,
the site on a schedule):

1. **How a deal goes** (``fit_shape``): the deal shape of ``match_odds.DealShape`` (the pair on
   duty's edge, where a rout and Lucy begin, the share of eggs), the card points one unit of
   margin is worth, and ``tau``, the spread of the strength difference of the matches played.
   Each match's deals share one unknown difference ``d``, so a match is a small random-effects
   ordered-probit sample: with card points, the pooled *within-match* regression of the margin on
   the pair on duty gives the points' noise (the unit) and the edge, and the spread of the matches'
   mean margins beyond their noise gives ``tau`` (method of moments); with eyes only, the
   outcome frequencies give the cuts in units of ``sqrt(1 + tau^2)`` and ``tau`` is the one that
   maximises the matches' marginal likelihood (``d`` integrated out on a grid) — the same
   likelihood TrueSkill Through Time and Whole-History Rating put on a game, here on a deal.
   Eyes alone leave the pair on duty open on a deal worth two (a plain win against the pair on
   duty or a rout on duty): the cuts are then the likeliest for every deal as recorded, the open
   ones read as either, and ``tau`` is the final scores' (next). Where the deals cannot say
   (final scores only, or deals whose size is unknown; the deal shape then keeps its defaults),
   ``fit_spread`` gives ``tau`` the same way from each match's final score (the loser's eyes, or
   the winner alone), in the model's tables.
   The replayed log-loss of step 2 does not find it: a wider spread is a faster learner too, and
   on simulated eyes-only streams it preferred 0.4 whether the true spread was 0.1, 0.25 or 0.5.
2. **How strengths spread and move** (``Learner.refit``): a new player's spread, the drift of
   strength per day away and the pairs' own term are chosen by the *prequential* log-loss of the
   match results (Dawid 1984): the model replays the matches seen, predicting each before learning
   it, once per candidate, and keeps the best — the empirical-Bayes choice of Glicko-2's and
   Elo-MMR's hyperparameters by predictive likelihood. ``tau`` gives the starting point
   (a match's difference is four players' strengths: ``tau^2 = 4 sd^2 + 2 pair_sd^2``).
3. **Calibration** (``fit_temperature``): one factor on the logit of the match probability,
   fitted on the replay's own predictions, so the probabilities mean what they say even where the
   deals come from another mechanism than the model's (Platt scaling with one parameter).

Sensible priors for a club with few matches: below ``MIN_DEALS`` deals the shape keeps its
defaults, and every estimate of the shape is pulled toward the default by pseudo-deals; the
calibration waits for 50 matches.

About 490 lines, over the house's 400: the deal shape's readings (card points, outcomes with the
duty known, outcomes with it open) and the spread's share one outcome model (``_cell_p``), one
marginal likelihood and one search, and each reading is a few lines on top of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from statistics import NormalDist

from ratings.core.match_odds import DEFAULT_RULES, DealShape, ScoringKey, match_table, score_table
from ratings.core.model import EW, NS, Match, ModelParams

_N = NormalDist()
MIN_DEALS = 300  # deals before the deal shape is fitted rather than assumed
PRIOR_DEALS = 200.0  # pseudo-deals of the default shape mixed into each estimate
SPREAD_MATCHES = 150  # matches before their final scores alone give the strengths' spread
# Classes of a deal read as an outcome, from NS's side: the margin interval's ends, as cut names.
_CLASSES = {
    (NS, "win"): ("0", "r"), (NS, "rout"): ("r", "L"),
    (NS, "lucy"): ("L", "inf"), (NS, "any"): ("0", "inf"),
    (EW, "win"): ("-r", "0"), (EW, "rout"): ("-L", "-r"),
    (EW, "lucy"): ("-inf", "-L"), (EW, "any"): ("-inf", "0"),
}
# A deal worth two eyes with the pair on duty open: (OPEN, winner) in ``DealsOf.cells``, duty sign 0.
OPEN = "win-or-rout"


@dataclass
class DealsOf:
    """What one match's deals say, summed: points deals' sums, and outcome counts by duty and class."""

    n: int = 0  # deals with card points (not Lucy): margin x = NS points - 60
    s: float = 0.0  # sum of duty signs (+1 NS on duty, -1 EW, 0 unknown)
    ss: float = 0.0  # deals with a known duty
    x: float = 0.0
    xs: float = 0.0
    xx: float = 0.0
    cells: dict[tuple[int, tuple[str, str]], int] | None = None  # (duty sign, class) -> count
    eggs: int = 0
    deals: int = 0


def deals_of(match: Match) -> DealsOf | None:
    if not match.deals:
        return None
    cells: dict[tuple[int, tuple[str, str]], int] = {}
    out = DealsOf(cells=cells)
    for deal in match.deals:
        sign = 1 if deal.on_duty == NS else -1 if deal.on_duty == EW else 0
        out.deals += 1
        if deal.kind == "eggs" or deal.winner is None:
            out.eggs += 1
        if deal.points is not None and deal.kind != "lucy":
            x = deal.points[0] - 60
            out.n += 1
            out.s += sign
            out.ss += sign * sign
            out.x += x
            out.xs += x * sign
            out.xx += x * x
            continue
        if deal.kind == "eggs" or deal.winner is None:
            continue
        kind = deal.kind
        if kind == "win-or-rout":
            if not sign:  # a plain win of the pair not on duty or a rout of the pair on duty
                key = (0, (OPEN, deal.winner))
                cells[key] = cells.get(key, 0) + 1
                continue
            kind = "rout" if (sign > 0) == (deal.winner == NS) else "win"
        cls = _CLASSES.get((deal.winner, kind)) or _CLASSES[(deal.winner, "any")]
        key = (sign, cls)
        cells[key] = cells.get(key, 0) + 1
    return out


@dataclass(frozen=True)
class ShapeFit:
    shape: DealShape
    points_scale: float
    tau: float
    deals: int
    spread_from_deals: bool = True  # False: eyes with the pair on duty open; the final scores give it


def _cut_values(e: float, r: float, lucy: float) -> dict[str, float]:
    inf = math.inf
    return {"0": 0.0, "r": r, "L": lucy, "inf": inf, "-r": -r, "-L": -lucy, "-inf": -inf}


def _cut_for(freq: float, e: float, k: float, lo: float, hi: float) -> float:
    """The cut c with P(|margin| beyond c) = freq, the margin N(+-e, k^2) (a deal, d integrated out)."""
    def tail(c: float) -> float:
        return _N.cdf((e - c) / k) + _N.cdf((-e - c) / k)

    freq = min(max(freq, 1e-6), 0.999)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if tail(mid) > freq:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _normal_grid(points: int, reach: float) -> tuple[list[float], list[float]]:
    """``points`` nodes evenly from ``-reach`` to ``reach`` standard deviations and their weights
    under the standard normal, normalised: the grid a marginal likelihood integrates ``d`` on."""
    nodes = [(-reach + 2.0 * reach * i / (points - 1)) for i in range(points)]
    weights = [math.exp(-0.5 * z * z) for z in nodes]
    wsum = sum(weights)
    return nodes, [w / wsum for w in weights]


def _golden_max(f: Callable[[float], float], a: float, b: float, steps: int) -> float:
    """The ``x`` in [a, b] that maximises ``f`` (unimodal there): golden-section search."""
    g = (math.sqrt(5) - 1) / 2
    c1, c2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = f(c1), f(c2)
    for _ in range(steps):
        if f1 > f2:
            b, c2, f2 = c2, c1, f1
            c1 = b - g * (b - a)
            f1 = f(c1)
        else:
            a, c1, f1 = c1, c2, f2
            c2 = a + g * (b - a)
            f2 = f(c2)
    return 0.5 * (a + b)


def _best_tau(loglik: Callable[[float], float], steps: int) -> float:
    """The ``tau`` from 0.05 to 4 that maximises ``loglik``: golden-section search on log tau."""
    return math.exp(_golden_max(lambda t: loglik(math.exp(t)), math.log(0.05), math.log(4.0), steps))


def _shrink(value: float, default: float, n: float) -> float:
    return (value * n + default * PRIOR_DEALS) / (n + PRIOR_DEALS)


Cell = tuple[int, tuple[str, str]]  # a key of ``DealsOf.cells``: (duty sign, class)


def _cell_p(key: Cell, e: float, r: float, lucy: float, mean: float, k: float) -> float:
    """P(a deal falls in ``key``'s cell), NS's margin N(mean +- e, k^2) (+ e with NS on duty)."""
    cdf = _N.cdf
    sign, cls = key

    def within(m: float, lo: float, hi: float) -> float:
        below_hi = 1.0 if hi == math.inf else cdf((hi - m) / k)
        return below_hi - (0.0 if lo == -math.inf else cdf((lo - m) / k))

    on, off = mean + e, mean - e  # NS's mean margin with NS on duty, with EW on duty
    if cls[0] == OPEN:  # two eyes: a plain win against the pair on duty or a rout on duty
        if cls[1] == NS:
            return 0.5 * (within(off, 0.0, r) + within(on, r, lucy))
        return 0.5 * (within(on, -r, 0.0) + within(off, -lucy, -r))
    cuts = _cut_values(e, r, lucy)
    lo, hi = cuts[cls[0]], cuts[cls[1]]
    if sign:  # the pair on duty known
        return within(on if sign > 0 else off, lo, hi)
    return 0.5 * (within(on, lo, hi) + within(off, lo, hi))  # either pair held the jack of clubs


Pattern = tuple[tuple[Cell, int], ...]  # one match's outcome counts, cell by cell


def _patterns(summaries: list[DealsOf]) -> list[tuple[Pattern, int]]:
    """The matches' outcome counts, each pattern once with the number of matches that had it (the
    likelihood is read once for each: half as many in a stream of eyes)."""
    out: dict[Pattern, int] = {}
    for sm in summaries:
        key = tuple(sorted((sm.cells or {}).items()))
        out[key] = out.get(key, 0) + 1
    return list(out.items())


def _marginal_loglik(
    patterns: list[tuple[Pattern, int]], tau: float, e: float, r: float, lucy: float
) -> float:
    """Sum over matches of log of the integral over d ~ N(0, tau^2) of the outcome classes'
    probabilities; ``patterns``: the matches' outcome counts, each with how many matches had it."""
    nodes, weights = _normal_grid(17, 3.5)
    grid = len(nodes)
    # log P(class | d, duty) at every node, computed once for all matches.
    keys = {key for cells, _ in patterns for key, _ in cells}
    logp = {key: [math.log(max(_cell_p(key, e, r, lucy, tau * z, 1.0), 1e-300)) for z in nodes]
            for key in keys}
    total = 0.0
    for cells, times in patterns:
        acc = [0.0] * grid
        for key, count in cells:
            row = logp[key]
            for i in range(grid):
                acc[i] += count * row[i]
        top = max(acc)
        total += times * (top + math.log(sum(w * math.exp(a - top)
                                                  for w, a in zip(weights, acc, strict=True))))
    return total


def _likeliest_shape(
    cells: dict[Cell, float], k: float, start: tuple[float, float, float]
) -> tuple[float, float, float]:
    """(e, r, lucy) that make the pooled ``cells`` likeliest, each deal's margin N(+-e, k^2), by
    golden-section search on each in turn. With no deal read as Lucy's (eyes alone cannot tell
    one), Lucy stays where ``start`` puts her and the cells are read as deals that were not hers."""
    fit_lucy = any(cls in (("L", "inf"), ("-inf", "-L")) for _, cls in cells)

    def loglik(x: list[float]) -> float:
        e, r, lucy = x
        norm = 0.0
        if not fit_lucy:
            lucy_p = sum(_cell_p((0, cls), e, r, lucy, 0.0, k) for cls in (("L", "inf"), ("-inf", "-L")))
            norm = math.log(max(1.0 - lucy_p, 1e-300))
        return sum(c * (math.log(max(_cell_p(key, e, r, lucy, 0.0, k), 1e-300)) - norm)
                   for key, c in cells.items())

    lucy0 = min(max(start[2], 0.5), 11.9)
    # Two shapes can give the same shares of one, two and three eyes (a small edge with a late rout,
    # a large edge with an early one): the search starts from the shape held and finds the nearer.
    x = [start[0], min(start[1], lucy0 - 0.1), lucy0]
    for _ in range(10):
        before = list(x)
        for i in range(3 if fit_lucy else 2):
            a, b = ((0.0, 3.0 * k), (0.01, x[2] - 0.02), (x[1] + 0.02, 12.0))[i]

            def f(v: float, i: int = i) -> float:
                y = list(x)
                y[i] = v
                return loglik(y)

            x[i] = _golden_max(f, a, b, 26)
        if max(abs(u - v) for u, v in zip(x, before, strict=True)) < 1e-4:
            break
    return x[0], x[1], x[2]


def fit_shape(matches: Sequence[Match], base: ModelParams, limit: int = 1500) -> ShapeFit | None:
    """The deal shape, the points' unit and the matches' spread ``tau`` from the latest ``limit``
    matches with deals; None when there are too few deals to say (the defaults stand)."""
    summaries = [s for s in (deals_of(m) for m in matches[-limit * 2:]) if s is not None][-limit:]
    deals = sum(s.deals for s in summaries)
    if deals < MIN_DEALS:
        return None
    shape0 = base.shape
    eggs = _shrink(sum(s.eggs for s in summaries) / deals, shape0.eggs, deals)
    rout_at = DEFAULT_RULES.rout_at
    points_deals = sum(s.n for s in summaries)
    if points_deals >= deals / 2:
        # Within-match regression of the margin on the duty sign; one slope for all matches.
        sxs = sss = 0.0
        for s in summaries:
            if s.n >= 2:
                sxs += s.xs - s.s * s.x / s.n
                sss += s.ss - s.s * s.s / s.n
        beta = sxs / sss if sss > 0 else 0.0
        rss = dof = 0.0
        for s in summaries:
            if s.n >= 2:
                sxx = s.xx - s.x * s.x / s.n
                sx_s = s.xs - s.s * s.x / s.n
                s_ss = s.ss - s.s * s.s / s.n
                rss += sxx - 2 * beta * sx_s + beta * beta * s_ss
                dof += s.n - 1
        sigma = math.sqrt(max(rss / max(dof - 1, 1.0), 1.0))
        sigma = _shrink(sigma, base.points_scale, points_deals)
        e = _shrink(beta / sigma, shape0.duty_edge, points_deals)
        # tau: the matches' mean margins spread beyond their own noise.
        dev = noise = 0.0
        count = 0
        for s in summaries:
            if s.n >= 1:
                mean = (s.x - beta * s.s) / s.n / sigma
                dev += mean * mean
                noise += 1.0 / s.n
                count += 1
        tau = math.sqrt(max((dev - noise) / max(count, 1), 0.0025))
        r = (rout_at - 60 - 0.5) / sigma
        lucy_seen = sum(c for s in summaries for (_, cls), c in (s.cells or {}).items()
                     if cls in (("L", "inf"), ("-inf", "-L")))
        played = deals - sum(s.eggs for s in summaries)
        k = math.sqrt(1.0 + tau * tau)
        lucy = _cut_for((lucy_seen + 0.5) / (played + 1.0), e, k, r + 0.1, 10.0)
        shape = DealShape(duty_edge=e, eggs=eggs, rout_cut=r, lucy_cut=lucy)
        return ShapeFit(shape, sigma, tau, deals)
    # Eyes only: frequencies by the pair on duty, then tau by the marginal likelihood.
    duty_wins = duty_known = rout_n = lucy_n = decided = unsized = open_n = 0.0
    pooled: dict[Cell, float] = {}  # the deals whose size is known, pooled (read where duty is open)
    for s in summaries:
        for (sign, cls), c in (s.cells or {}).items():
            decided += c
            if cls in (("0", "inf"), ("-inf", "0")):
                unsized += c
            else:
                pooled[(sign, cls)] = pooled.get((sign, cls), 0.0) + c
            if cls[0] == OPEN:
                open_n += c
                continue
            ns_won = cls[0] in ("0", "r", "L")
            if sign:
                duty_known += c
                duty_wins += c if (ns_won == (sign > 0)) else 0
            if cls in (("r", "L"), ("-L", "-r"), ("L", "inf"), ("-inf", "-L")):
                rout_n += c
            if cls in (("L", "inf"), ("-inf", "-L")):
                lucy_n += c
    if decided < MIN_DEALS:
        return None
    # A deal worth two eyes leaves the pair on duty open: a plain win of the pair not on duty or a
    # rout of the pair on duty. Which deals are open depends on their outcome, so the frequencies of
    # the others alone would be biased: with open deals the shape is the one that makes every cell
    # (open ones included) likeliest, d integrated out (the deal's margin N(+-e, 1 + tau^2)). Eyes
    # do not show Lucy (her deal ends the match): deals of unknown size are left out, and the
    # others read as deals that were not hers (``_likeliest_shape``).
    # Deals whose size is unknown altogether cannot be read so: the defaults stand.
    if duty_known + open_n < 0.95 * decided or unsized > 0.05 * decided:
        return None
    if open_n:
        # The shape at the spread the parameters hold (``fit_params`` then takes the spread from the
        # final scores, read with this shape: on eyes the deals' own marginal likelihood gave a
        # narrower spread that predicted worse where the deals came from bots, not from this model).
        tau0 = math.sqrt(4 * base.initial_sd**2 + 2 * base.pair_sd**2)
        e, r, lucy = _likeliest_shape(pooled, math.sqrt(1.0 + tau0 * tau0),
                                      (shape0.duty_edge, shape0.rout_cut, shape0.lucy_cut))
        shape = DealShape(duty_edge=e, eggs=eggs, rout_cut=r, lucy_cut=lucy)
        # Eyes tell the edge and the rout to a tenth at best: a refit that moves them less keeps the
        # shape held, and the tables built for it (``match_odds``: the match's, the final scores',
        # about a second each time the shape changes).
        if max(abs(e - shape0.duty_edge), abs(r - shape0.rout_cut)) < 0.1 and abs(eggs - shape0.eggs) < 0.005:
            shape = shape0
        return ShapeFit(shape, base.points_scale, tau0, deals, spread_from_deals=False)

    p_duty = (duty_wins + 1.0) / (duty_known + 2.0)

    def params_at(tau: float) -> tuple[float, float, float]:
        k = math.sqrt(1.0 + tau * tau)
        e = k * _N.inv_cdf(min(max(p_duty, 0.501), 0.999))
        r = _cut_for((rout_n + 0.5) / (decided + 1.0), e, k, 0.01, 10.0)
        lucy = _cut_for((lucy_n + 0.5) / (decided + 1.0), e, k, r + 0.05, 12.0)
        return e, r, lucy

    patterns = _patterns(summaries)
    best_tau = _best_tau(lambda tau: _marginal_loglik(patterns, tau, *params_at(tau)), 18)
    e, r, lucy = params_at(best_tau)
    shape = DealShape(duty_edge=e, eggs=eggs, rout_cut=r, lucy_cut=lucy)
    return ShapeFit(shape, base.points_scale, best_tau, deals)


def fit_spread(matches: Sequence[Match], base: ModelParams, limit: int = 1500) -> float | None:
    """``tau``, the spread of the matches' strength differences, from their final scores alone (the
    loser's eyes of a match played out, else its winner): the marginal likelihood of the latest
    ``limit`` matches with ``d ~ N(0, tau^2)`` integrated out on a grid, each score's probability from
    the model's own tables (``match_odds``, the deal shape of ``base``). For when the deals cannot give
    ``tau`` (``fit_shape``: final scores only, or eyes whose pair on duty is open). None below
    ``SPREAD_MATCHES`` matches: too few to say."""
    counts: dict[tuple[ScoringKey, float, int], float] = {}  # each match by its weight (the farming guard's)
    seen = 0
    for m in matches[-limit:]:
        if m.deals is not None and not m.deals:
            continue
        y = 1.0 if m.winner == NS else -1.0
        loser = -1
        if m.eyes is not None and m.ended == "normal":
            loser = min(max(m.eyes[1] if m.winner == NS else m.eyes[0], 0), 11)
        key = (m.rules, y, loser)
        counts[key] = counts.get(key, 0.0) + m.weight
        seen += 1
    if seen < SPREAD_MATCHES:
        return None
    nodes, weights = _normal_grid(25, 4.0)
    shape = base.shape
    tables = {rules: (match_table(rules, shape), score_table(rules, shape)) for rules, _, _ in counts}

    def loglik(tau: float) -> float:
        total = 0.0
        for (rules, y, loser), n in counts.items():
            win, score = tables[rules]
            p = 0.0
            for z, w in zip(nodes, weights, strict=True):
                d = y * tau * z
                p += w * (win.at(d) if loser < 0 else score.at(d, loser))
            total += n * math.log(max(p, 1e-300))
        return total

    return _best_tau(loglik, 24)


def with_tau(params: ModelParams, tau: float, side: int = 2) -> ModelParams:
    """A new player's spread from the matches' ``tau``: four players and two pair terms,
    ``tau^2 = 4 sd^2 + 2 pair_sd^2``; with a side of one player (Bilka for two), ``tau^2 = 2 sd^2``."""
    if side == 1:
        var = max(tau * tau, 0.0002) / 2.0
    else:
        var = max(tau * tau - 2 * params.pair_sd * params.pair_sd, 0.0004) / 4.0
    return with_spread(params, math.sqrt(var))


def with_shape(params: ModelParams, fit: ShapeFit, side: int = 2) -> ModelParams:
    """The parameters with a fitted deal shape, and a new player's spread from the matches' ``tau``."""
    return replace(with_tau(params, fit.tau, side), shape=fit.shape, points_scale=fit.points_scale)


def with_spread(params: ModelParams, sd: float) -> ModelParams:
    """The parameters with a new player's spread ``sd`` (also the cap of a returning player's), provisional
    while the deviation is above the same share of a newcomer's as before."""
    share = params.provisional_deviation / (params.scale * params.initial_sd)
    return replace(params, initial_sd=sd, max_sd=sd, provisional_deviation=share * params.scale * sd)


def fit_temperature(preds: Sequence[tuple[float, int]]) -> float:
    """The factor on the logit of the predicted probability that minimises the log-loss (Newton)."""
    pts = [(math.log(p / (1 - p)), y) for p, y in preds if 1e-9 < p < 1 - 1e-9]
    if len(pts) < 50:
        return 1.0
    t = 1.0
    for _ in range(30):
        g = h = 0.0
        for z, y in pts:
            q = 1.0 / (1.0 + math.exp(-t * z))
            g += (q - y) * z
            h += q * (1 - q) * z * z
        if h <= 0:
            break
        step = g / h
        t -= step
        t = min(max(t, 0.3), 3.0)
        if abs(step) < 1e-6:
            break
    return t


def params_to_json(params: ModelParams) -> dict[str, object]:
    """The parameters as plain JSON (the deal shape nested), for the site to store."""
    out: dict[str, object] = asdict(params)
    return out


def params_from_json(data: dict[str, object]) -> ModelParams:
    """Parameters stored by ``params_to_json``; keys a later release does not know are ignored,
    missing ones keep their defaults."""
    names = {f.name for f in fields(ModelParams)}
    shape_names = {f.name for f in fields(DealShape)}
    values: dict[str, object] = {k: v for k, v in data.items() if k in names and k != "shape"}
    raw_shape = data.get("shape")
    if isinstance(raw_shape, dict):
        values["shape"] = DealShape(**{k: float(v) for k, v in raw_shape.items() if k in shape_names})
    return ModelParams(**values)  # type: ignore[arg-type]
