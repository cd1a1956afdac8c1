"""The rating model: each player's strength and its uncertainty, learnt deal by deal.

Every player has a mean ``mu`` and a variance ``var`` of his strength, in log-odds of winning a
deal; a pair's strength is the sum of its partners' plus, for partners who have played together,
a small pair term of its own (``Pair``: what fixed partners are worth beyond their two ratings).
A match is a run of deals, each a small game between the two partnerships (its winner, whether
it was a rout or Lucy, who was on duty). The model takes the likelihood of all the match's deals
and makes one Gaussian (Laplace) step in the one direction the deals speak about, the difference
of the two pairs' strengths, like Glicko and Weng-Lin: a player moves by his share of the
match's total variance, so new and returning players (large variance) move fast. Variance grows
with time away (``ModelParams.drift`` per day) and shrinks with play. A match's win probability
comes from the deal strength by the real scoring (``match_odds``), averaged over the uncertainty.

A match known only by its final score is learnt from its winner alone, through the same match
probability. Plain floats and dicts throughout: an update costs a few microseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tournaments.ratings.match_odds import (
    DEFAULT_RULES,
    DealShape,
    MatchTable,
    ScoringKey,
    match_table,
    sigmoid,
)

NS, EW = "NS", "EW"
# Gauss-Hermite nodes and weights (probabilists', 5 points) for averaging over the uncertainty.
_GH = (
    (-2.856970013872806, 0.011257411327720691),
    (-1.3556261799742659, 0.2220759220056126),
    (0.0, 0.5333333333333333),
    (1.3556261799742659, 0.2220759220056126),
    (2.856970013872806, 0.011257411327720691),
)


@dataclass(frozen=True)
class ModelParams:
    """The model's constants, tuned by ``bench/ratings_harness.py`` on seeds it then leaves out."""

    initial_sd: float = 0.5  # a new player's uncertainty, deal log-odds
    pair_sd: float = 0.12  # prior spread of a pair's worth beyond its partners' ratings
    drift: float = 0.0001  # variance added per day away
    max_sd: float = 0.5  # uncertainty never grows beyond a new player's
    shape: DealShape = field(default_factory=DealShape)
    scale: float = 400.0 / math.log(10.0)  # display points per unit of deal log-odds
    base: float = 1500.0
    provisional_deviation: float = 90.0  # display deviation above which a rating is provisional


@dataclass
class Rating:
    """One player's (or one pair's) strength: mean and variance, and the day last rated."""

    mu: float = 0.0
    var: float = 0.0
    day: float | None = None
    matches: int = 0


@dataclass(frozen=True)
class Deal:
    """One played deal as the model reads it: its winner, kind, and the pair on duty when known."""

    winner: str | None  # NS, EW, or None for eggs
    kind: str = "win"  # win, rout, lucy, eggs
    on_duty: str | None = None


@dataclass(frozen=True)
class Match:
    """One finished match between pairs ``ns`` and ``ew``.

    ``deals`` is None for a match known only by its score; an empty tuple is a forfeit before the
    first card, which is not rated. ``ended`` is "normal", "resigned" or "timeout" (the loser is
    the pair that is not ``winner``). ``weight`` scales what the match teaches (the farming guard).
    """

    ns: tuple[str, str]
    ew: tuple[str, str]
    winner: str
    deals: tuple[Deal, ...] | None = None
    day: float | None = None
    rules: ScoringKey = DEFAULT_RULES
    ended: str = "normal"
    weight: float = 1.0


@dataclass(frozen=True)
class Delta:
    """What one match did to one player: rating and deviation on the display scale, before and after."""

    player: str
    before: float
    after: float
    deviation_before: float
    deviation_after: float

    @property
    def change(self) -> float:
        return self.after - self.before


def _pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if str(a) <= str(b) else (b, a)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > -30 else x


class RatingState:
    """Every player's and pair's rating; ``predict`` a match, ``update`` from it, ``preview`` both."""

    def __init__(self, params: ModelParams | None = None) -> None:
        self.params = params or ModelParams()
        self.players: dict[str, Rating] = {}
        self.pairs: dict[tuple[str, str], Rating] = {}
        self._tables: dict[ScoringKey, MatchTable] = {}

    # -- reading -------------------------------------------------------------------------------
    def table(self, rules: ScoringKey) -> MatchTable:
        t = self._tables.get(rules)
        if t is None:
            t = self._tables[rules] = match_table(rules, self.params.shape)
        return t

    def _var_now(self, r: Rating | None, day: float | None, prior: float, cap: float | None = None) -> float:
        """Variance on ``day``: it grows by ``drift`` a day away, never beyond ``cap`` (a new player's)."""
        if r is None:
            return prior
        v = r.var
        if day is not None and r.day is not None and day > r.day:
            v = min(
                v + self.params.drift * (day - r.day),
                cap if cap is not None else max(prior, self.params.max_sd**2),
            )
        return v

    def _parts(self, match: Match) -> tuple[list[Rating], list[float], list[float], float, float]:
        """The match's six ratings (four players, two pairs), their signs and current variances."""
        p = self.params
        p0, pp0 = p.initial_sd**2, p.pair_sd**2
        ratings, signs, variances = [], [], []
        d0 = 0.0
        for side, sign in ((match.ns, 1.0), (match.ew, -1.0)):
            for pid in side:
                r = self.players.get(pid)
                if r is None:
                    r = Rating(0.0, p0)
                ratings.append(r)
                signs.append(sign)
                variances.append(self._var_now(r, match.day, p0))
                d0 += sign * r.mu
            key = _pair_key(side[0], side[1])
            pr = self.pairs.get(key) or Rating(0.0, pp0)
            ratings.append(pr)
            signs.append(sign)
            variances.append(self._var_now(pr, match.day, pp0, pp0))
            d0 += sign * pr.mu
        return ratings, signs, variances, d0, sum(variances)

    def predict(self, match: Match) -> float:
        """P(NS wins the match): the match probability averaged over both pairs' uncertainty."""
        _, _, _, d0, v = self._parts(match)
        t = self.table(match.rules)
        s = math.sqrt(v)
        return sum(w * t.at(d0 + s * x) for x, w in _GH)

    def rating(self, player: str) -> Rating:
        return self.players.get(player) or Rating(0.0, self.params.initial_sd**2)

    def display(self, player: str, day: float | None = None) -> tuple[float, float]:
        """(rating, deviation) on the display scale, e.g. 1500 ± 60; deviation grows with absence."""
        r = self.players.get(player)
        v = self._var_now(r, day, self.params.initial_sd**2)
        mu = r.mu if r else 0.0
        return self.params.base + self.params.scale * mu, self.params.scale * math.sqrt(v)

    def is_provisional(self, player: str, day: float | None = None) -> bool:
        """A rating is provisional while its deviation is above ``provisional_deviation``."""
        return self.display(player, day)[1] > self.params.provisional_deviation

    def pair_display(self, a: str, b: str) -> tuple[float, float]:
        """A fixed pair's rating: both partners' strengths and the pair's own term, on the display scale.

        The base is twice the players' (a pair of two 1500 players is 3000), so the scale adds up.
        """
        ra, rb = self.rating(a), self.rating(b)
        pr = self.pairs.get(_pair_key(a, b)) or Rating(0.0, self.params.pair_sd**2)
        mu = ra.mu + rb.mu + pr.mu
        return 2 * self.params.base + self.params.scale * mu, self.params.scale * math.sqrt(
            ra.var + rb.var + pr.var
        )

    # -- learning ------------------------------------------------------------------------------
    def _deal_terms(self, deals: tuple[Deal, ...]) -> list[tuple[float, float, float]]:
        """Each decided deal as the margin interval it fell in (``DealShape``), shifted for the pair
        on duty, grouped with a count: (low, high, count)."""
        shape = self.params.shape
        edge = shape.duty_edge
        groups: dict[tuple[float, float], float] = {}
        for deal in deals:
            if deal.winner is None or deal.kind == "eggs":
                continue
            kind = deal.kind if deal.kind in ("win", "rout", "lucy") else "any"
            lo, hi = shape.bounds(0 if deal.winner == NS else 1, kind)
            off = 0.0 if deal.on_duty is None else (edge if deal.on_duty == NS else -edge)
            key = (lo - off, hi - off)
            groups[key] = groups.get(key, 0.0) + 1.0
        return [(lo, hi, n) for (lo, hi), n in groups.items()]

    def _solve(self, match: Match, d0: float, v: float) -> tuple[float, float]:
        """The most likely deal strength after the match and the likelihood's curvature there.

        Newton steps on log prior + log likelihood of the deals (each an interval of the ordered
        logistic margin), plus, when the match was not played out or its deals are unknown, the log
        of the match probability of its result.
        """
        terms = self._deal_terms(match.deals) if match.deals is not None else []
        by_winner = match.deals is None or match.ended != "normal"
        t = self.table(match.rules)
        y_match = 1.0 if match.winner == NS else -1.0
        wt = match.weight
        inf = math.inf
        d = d0
        h = 0.0
        for _ in range(5):
            g = 0.0
            h = 0.0
            for lo, hi, n in terms:
                # P = F(a) - F(b), a = d - lo, b = d - hi; F logistic, f = F(1-F), f' = f(1-2F).
                if lo == -inf:
                    fa, fpa, big_a = 0.0, 0.0, 1.0
                else:
                    big_a = sigmoid(d - lo)
                    fa = big_a * (1.0 - big_a)
                    fpa = fa * (1.0 - 2.0 * big_a)
                if hi == inf:
                    fb, fpb, big_b = 0.0, 0.0, 0.0
                else:
                    big_b = sigmoid(d - hi)
                    fb = big_b * (1.0 - big_b)
                    fpb = fb * (1.0 - 2.0 * big_b)
                pr = max(big_a - big_b, 1e-300)
                gi = (fa - fb) / pr
                g += n * gi
                h += n * (gi * gi - (fpa - fpb) / pr)
            if by_winner:
                eps = 0.01
                lp = math.log(max(1e-12, t.at(y_match * d)))
                lp_up = math.log(max(1e-12, t.at(y_match * (d + eps))))
                lp_dn = math.log(max(1e-12, t.at(y_match * (d - eps))))
                g += (lp_up - lp_dn) / (2 * eps)
                h += max(0.0, -(lp_up - 2 * lp + lp_dn) / (eps * eps))
            g *= wt
            h *= wt
            step = (g - (d - d0) / v) / (h + 1.0 / v)
            d += step
            if abs(step) < 1e-6:
                break
        return d, h

    def update(self, match: Match) -> dict[str, Delta]:
        """Learn from a finished match; returns each player's change (empty for an unrated forfeit).

        A resignation or a timeout is a lost match for the side that left: its deals so far count,
        and so does the match's result. A match whose ``deals`` is an empty tuple (forfeit before the
        first card) is not rated and changes nothing.
        """
        if match.deals is not None and not match.deals:
            return {}
        if match.winner not in (NS, EW):
            raise ValueError(f"a match is won by NS or EW, not {match.winner!r}")
        if len({*match.ns, *match.ew}) != 4:
            raise ValueError("a match has four different players")
        ratings, signs, variances, d0, v = self._parts(match)
        d, h = self._solve(match, d0, v)
        shift = (d - d0) / v
        shrink = h / (1.0 + v * h)
        before = {pid: self.display(pid, match.day) for pid in (*match.ns, *match.ew)}
        ids = (match.ns[0], match.ns[1], None, match.ew[0], match.ew[1], None)
        for i, (r, sign, var) in enumerate(zip(ratings, signs, variances, strict=True)):
            pid = ids[i]
            new = Rating(
                r.mu + sign * var * shift, max(var - var * var * shrink, 1e-6), match.day, r.matches + 1
            )
            if pid is not None:
                self.players[pid] = new
            else:
                side = match.ns if i == 2 else match.ew
                self.pairs[_pair_key(side[0], side[1])] = new
        out = {}
        for pid, (b, bd) in before.items():
            a, ad = self.display(pid, match.day)
            out[pid] = Delta(pid, b, a, bd, ad)
        return out

    def preview(
        self,
        ns: tuple[str, str],
        ew: tuple[str, str],
        *,
        day: float | None = None,
        rules: ScoringKey = DEFAULT_RULES,
    ) -> dict[str, tuple[float, float]]:
        """What a win and a loss would move each of the four (like +8/-8 before a game), in display points.

        Reckoned from the result alone; the deals of the real match can move a little more or less.
        """
        out: dict[str, tuple[float, float]] = {}
        for winner in (NS, EW):
            trial = RatingState(self.params)
            trial._tables = self._tables
            for pid in (*ns, *ew):
                if pid in self.players:
                    trial.players[pid] = self.players[pid]
            for side in (ns, ew):
                key = _pair_key(side[0], side[1])
                if key in self.pairs:
                    trial.pairs[key] = self.pairs[key]
            deltas = trial.update(Match(ns, ew, winner, None, day, rules))
            for pid, dl in deltas.items():
                won = (pid in ns) == (winner == NS)
                w, lo = out.get(pid, (0.0, 0.0))
                out[pid] = (dl.change, lo) if won else (w, dl.change)
        return out
