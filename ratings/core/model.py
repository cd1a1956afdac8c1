"""The rating model: each player's strength and its uncertainty, learnt deal by deal.

Every player has a mean ``mu`` and a variance ``var`` of his strength, in units of a deal's
margin (``match_odds.DealShape``: one unit is a standard deviation of the luck of the cards). A
pair's strength is its partners' sum plus, for partners who have played together, a small pair
term of its own (``RatingState.pairs``: what fixed partners are worth beyond their two ratings).
A match is a run of deals, each a small game between the two partnerships: its card points when
known (the margin seen directly), else its winner and whether it was a rout or Lucy, with the
pair on duty's edge taken off. The model takes the likelihood of all the match's deals and makes
one Gaussian (Laplace) step in the one direction the deals speak about, the difference of the
two pairs' strengths, like Glicko and Weng-Lin: a player moves by his share of the match's total
variance, so new and returning players (large variance) move fast. Variance grows with time away
(``ModelParams.drift`` per day) and shrinks with play. A match's win probability comes from the
deal strength by the real scoring (``match_odds``), averaged over the uncertainty.

Each strength has two means with one variance: the rating, which a match never moves against its
result, and the form, which learns everything the match says and gives the chances (``update``).
A match known only by its final score is learnt from that score (the loser's eyes) through the
same tables. Plain floats and dicts: an update costs some tens of microseconds. About 500 lines:
one class whose prediction, learning step and preview share its private tables of deal intervals
and match odds; split, each part would reach into the others' internals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from gameplay.engine.scoring import WIN_SCORE
from ratings.core.likelihood import interval_slope, log_slope, mixture_slope
from ratings.core.match_odds import (
    DEFAULT_RULES,
    DealShape,
    MatchTable,
    ScoreTable,
    ScoringKey,
    match_table,
    score_table,
)

NS, EW = "NS", "EW"
#: A side of a match: a pair (Bilka, Kozyol) or one player (Bilka for two, where each plays for himself).
Side = tuple[str, str] | tuple[str]
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
    """The model's constants, tuned by ``bench/ratings/harness.py`` on seeds it then leaves out."""

    initial_sd: float = 0.3  # a new player's uncertainty, in deal-margin units
    pair_sd: float = 0.03  # prior spread of a pair's worth beyond its partners' ratings
    drift: float = 0.00003  # variance added per day away
    max_sd: float = 0.3  # uncertainty never grows beyond a new player's
    shape: DealShape = field(default_factory=DealShape)
    scale: float = 400.0  # display points per deal-margin unit
    base: float = 1500.0
    # Display deviation above which a rating is provisional: about the first five matches with deal sheets
    # (a new player starts at 400 * initial_sd = 120), more when only results are known.
    provisional_deviation: float = 70.0
    points_scale: float = 22.0  # card points a unit of deal margin is worth
    # A factor on the logit of a match probability, fitted so the probabilities mean what they say
    # (``ratings.core.fitting.fit_temperature``); 1 leaves the model's own.
    calibration: float = 1.0


@dataclass(slots=True)
class Rating:
    """One player's (or one pair's) strength: the rating's mean and variance, the day last rated,
    and the form: the model's best estimate of the same strength, which also reads the deals that
    point against a result (None: the same as ``mu``; see ``RatingState.update``)."""

    mu: float = 0.0
    var: float = 0.0
    day: float | None = None
    matches: int = 0
    form: float | None = None

    @property
    def estimate(self) -> float:
        """The form, or the rating's mean where no form is kept apart."""
        return self.mu if self.form is None else self.form


@dataclass(frozen=True)
class Deal:
    """One played deal as the model reads it: winner, kind, pair on duty and card points when known."""

    winner: str | None  # NS, EW, or None for eggs
    kind: str = "win"  # win, rout, lucy, eggs, any (unknown size), win-or-rout (``records._deal``)
    on_duty: str | None = None
    points: tuple[int, int] | None = None  # NS, EW card points


@dataclass(frozen=True)
class Match:
    """One finished match between pairs ``ns`` and ``ew``.

    ``deals`` is None for a match known only by its score; an empty tuple is a forfeit before the
    first card, which is not rated. ``ended`` is "normal", "resigned" or "timeout" (the loser is
    the pair that is not ``winner``). ``weight`` scales what the match teaches (the farming guard).
    """

    ns: Side
    ew: Side
    winner: str
    deals: tuple[Deal, ...] | None = None
    day: float | None = None
    rules: ScoringKey = DEFAULT_RULES
    ended: str = "normal"
    weight: float = 1.0
    eyes: tuple[int, int] | None = None  # final eyes (NS, EW), read when the deals are unknown


@dataclass(frozen=True, slots=True)
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


def averaged_chance(table: MatchTable, d: float, var: float) -> float:
    """P(the first side wins) when the strength difference is normal, mean ``d`` and variance
    ``var``: the match table averaged over it (Gauss-Hermite, 5 points)."""
    s = math.sqrt(var)
    return sum(w * table.at(d + s * x) for x, w in _GH)


def _pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if str(a) <= str(b) else (b, a)


class RatingState:
    """Every player's and pair's rating; ``predict`` a match, ``update`` from it, ``preview`` both."""

    def __init__(self, params: ModelParams | None = None) -> None:
        self.players: dict[str, Rating] = {}
        self.pairs: dict[tuple[str, str], Rating] = {}
        #: Each player's matches with his most frequent partner (see `display`).
        self.best_partner: dict[str, int] = {}
        self.set_params(params or ModelParams())

    def index_partners(self) -> None:
        """Work ``best_partner`` out again from the pairs held (after loading them from rows)."""
        best: dict[str, int] = {}
        for (a, b), r in self.pairs.items():
            for p in (a, b):
                if r.matches > best.get(p, 0):
                    best[p] = r.matches
        self.best_partner = best

    def partner_share(self, player: str) -> float:
        """The share of the player's matches played with his most frequent partner (0 to 1)."""
        r = self.players.get(player)
        if r is None or r.matches <= 0:
            return 0.0
        return min(1.0, self.best_partner.get(player, 0) / r.matches)

    def set_params(self, params: ModelParams) -> None:
        """Use these parameters from the next match on; the ratings learnt so far stay."""
        self.params = params
        self._tables: dict[ScoringKey, MatchTable] = {}
        self._scores: dict[ScoringKey, ScoreTable] = {}
        shape = params.shape
        # (winner, kind, pair on duty) -> the margin interval of that deal, shifted for the duty edge.
        self._bounds: dict[tuple[str | None, str, str | None], tuple[float, float]] = {}
        for winner in (NS, EW):
            for kind in ("win", "rout", "lucy", "any"):
                lo, hi = shape.bounds(0 if winner == NS else 1, kind)
                for duty, off in ((NS, shape.duty_edge), (EW, -shape.duty_edge), (None, 0.0)):
                    self._bounds[(winner, kind, duty)] = (lo - off, hi - off)

    # -- reading -------------------------------------------------------------------------------
    def table(self, rules: ScoringKey) -> MatchTable:
        t = self._tables.get(rules)
        if t is None:
            t = self._tables[rules] = match_table(rules, self.params.shape)
        return t

    def score_table(self, rules: ScoringKey) -> ScoreTable:
        t = self._scores.get(rules)
        if t is None:
            t = self._scores[rules] = score_table(rules, self.params.shape)
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

    def _parts(self, match: Match) -> tuple[list[Rating], list[float], float, float]:
        """The match's ratings (NS players, NS pair, EW players, EW pair; one player alone has no pair
        term), their variances on the match's day, the prior difference ``f0`` of the forms and the
        total variance."""
        p = self.params
        p0 = p.initial_sd * p.initial_sd
        pp0 = p.pair_sd * p.pair_sd
        cap = max(p0, p.max_sd * p.max_sd)
        drift = p.drift
        day = match.day
        players, pairs = self.players, self.pairs
        ratings: list[Rating] = []
        variances: list[float] = []
        f0 = 0.0
        for side, sign in ((match.ns, 1.0), (match.ew, -1.0)):
            parts: tuple[tuple[Rating | None, float, float], ...]
            if len(side) == 1:  # Bilka for two: a side is one player, with no pair term
                parts = ((players.get(side[0]), p0, cap),)
            else:
                a, b = side
                parts = (
                    (players.get(a), p0, cap),
                    (players.get(b), p0, cap),
                    (pairs.get((a, b) if a <= b else (b, a)), pp0, pp0),
                )
            for r, prior, top in parts:
                if r is None:
                    r = Rating(0.0, prior)
                    v = prior
                else:
                    v = r.var
                    if day is not None and r.day is not None and day > r.day:
                        v = min(v + drift * (day - r.day), top)
                    f0 += sign * r.estimate
                ratings.append(r)
                variances.append(v)
        return ratings, variances, f0, sum(variances)

    def predict(self, match: Match) -> float:
        """P(NS wins the match): the match probability averaged over both pairs' uncertainty, from
        the players' forms (their best estimates, ``update``)."""
        _, _, f0, v = self._parts(match)
        p = averaged_chance(self.table(match.rules), f0, v)
        c = self.params.calibration
        if c != 1.0 and 0.0 < p < 1.0:
            p = 1.0 / (1.0 + ((1.0 - p) / p) ** c)
        return p

    def rating(self, player: str) -> Rating:
        return self.players.get(player) or Rating(0.0, self.params.initial_sd**2)

    def display(self, player: str, day: float | None = None) -> tuple[float, float]:
        """(rating, deviation) on the display scale, e.g. 1500 ± 60; deviation grows with absence.
        It adds ``f² v0 (v0 + vc) / (2 v0 + vc)`` (``vc`` the pair term's prior, ``f`` the share of
        his matches with his most frequent partner: how a pair's strength splits between partners
        and pair term stays as uncertain as it began, docs/ratings.md) and the square of the
        rating's distance from the form (what the matches it did not count said)."""
        r = self.players.get(player)
        v0, vc = self.params.initial_sd**2, self.params.pair_sd**2
        v = self._var_now(r, day, v0)
        f = self.partner_share(player)
        v += f * f * v0 * (v0 + vc) / (2 * v0 + vc)
        mu = r.mu if r else 0.0
        if r is not None:
            v += (r.estimate - mu) ** 2
        return self.params.base + self.params.scale * mu, self.params.scale * math.sqrt(v)

    def own_deviation(self, player: str, day: float | None = None) -> float:
        """The filter's own deviation, on the display scale: how much it has learnt of the player,
        without what his results cannot tell from his partner's."""
        r = self.players.get(player)
        return self.params.scale * math.sqrt(self._var_now(r, day, self.params.initial_sd**2))

    def is_provisional(self, player: str, day: float | None = None) -> bool:
        """A rating is provisional while its own deviation is above ``provisional_deviation``."""
        return self.own_deviation(player, day) > self.params.provisional_deviation

    def pair_display(self, a: str, b: str) -> tuple[float, float]:
        """A fixed pair's rating: both partners' strengths and the pair's own term, on the display scale.

        The base is twice the players' (a pair of two 1500 players is 3000), so the scale adds up.
        Its deviation adds the square of the ratings' distance from the forms, as ``display`` does.
        """
        ra, rb = self.rating(a), self.rating(b)
        pr = self.pairs.get(_pair_key(a, b)) or Rating(0.0, self.params.pair_sd**2)
        mu = ra.mu + rb.mu + pr.mu
        apart = ra.estimate + rb.estimate + pr.estimate - mu
        return 2 * self.params.base + self.params.scale * mu, self.params.scale * math.sqrt(
            ra.var + rb.var + pr.var + apart * apart
        )

    # -- learning ------------------------------------------------------------------------------
    def _deal_terms(self, deals: tuple[Deal, ...] | None) -> tuple[
            list[tuple[float, float, float]], float, float, list[tuple[float, float, float, float, float]]]:
        """What the deals say about the deal strength ``d``.

        A deal with card points (not Lucy) is a margin seen directly, ``(NS points - 60) /
        points_scale`` less the duty edge: a normal observation of ``d`` with unit noise (eggs too:
        60:60 is a margin of 0). The others are the margin interval their outcome fell in
        (``DealShape``), shifted for the pair on duty; a win-or-rout deal with the pair on duty open
        is either of two intervals. Returns the intervals grouped with a count, the number and sum
        of the seen margins, and the pairs of intervals with a count.
        """
        bounds = self._bounds
        edge = self.params.shape.duty_edge
        inv = 1.0 / self.params.points_scale
        groups: dict[tuple[float, float], float] = {}
        mixed: dict[tuple[float, float, float, float], float] = {}
        seen = total = 0.0
        for deal in deals or ():
            pts = deal.points
            if pts is not None and deal.kind != "lucy":
                duty = deal.on_duty
                seen += 1.0
                total += (pts[0] - 60) * inv - (edge if duty == NS else -edge if duty == EW else 0.0)
                continue
            if deal.kind == "win-or-rout" and deal.winner is not None:
                w, other = deal.winner, EW if deal.winner == NS else NS
                if deal.on_duty is None:
                    two = (*bounds[(w, "win", other)], *bounds[(w, "rout", w)])
                    mixed[two] = mixed.get(two, 0.0) + 1.0
                    continue
                deal = replace(deal, kind="rout" if deal.on_duty == w else "win")
            key = bounds.get((deal.winner, deal.kind, deal.on_duty))
            if key is None:
                if deal.winner is None or deal.kind == "eggs":
                    continue
                key = bounds[(deal.winner, "any", deal.on_duty)]
            groups[key] = groups.get(key, 0.0) + 1.0
        pairs = [(*k, n) for k, n in mixed.items()]
        return [(lo, hi, n) for (lo, hi), n in groups.items()], seen, total, pairs

    def _solve(self, match: Match, d0: float, v: float) -> tuple[float, float]:
        """The most likely deal strength after the match and the likelihood's curvature there.

        Newton steps on log prior + log likelihood of the deals (each an interval of the ordered
        probit margin), plus, when the match was not played out or its deals are unknown, the log
        of the match probability of its result.
        """
        terms, seen, total, mixed = self._deal_terms(match.deals)
        by_winner = match.deals is None or match.ended != "normal"
        t = self.table(match.rules)
        y_match = 1.0 if match.winner == NS else -1.0
        # A match known by its final score alone (played out): the loser's eyes say how close it was.
        final = match.eyes if match.deals is None and match.ended == "normal" else None
        by_score = final is not None
        loser = 0
        if final is not None:
            loser = min(max(final[1] if match.winner == NS else final[0], 0), 11)
            st = self.score_table(match.rules)
            by_winner = False
        wt = match.weight
        d = d0
        h = 0.0
        for _ in range(5):
            g = total - seen * d
            h = seen
            gi, hi_ = interval_slope(terms, d)
            g += gi
            h += hi_
            if mixed:
                gi, hi_ = mixture_slope(mixed, d)
                g += gi
                h += hi_
            if by_score:
                gi, hi_ = log_slope(lambda z: st.at(z, loser), y_match, d)
                g += gi
                h += hi_
            if by_winner:
                gi, hi_ = log_slope(t.at, y_match, d)
                g += gi
                h += hi_
            g *= wt
            h *= wt
            step = (g - (d - d0) / v) / (h + 1.0 / v)
            d += step
            if -1e-5 < step < 1e-5:
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
        size = len(match.ns)
        if size not in (1, 2) or len(match.ew) != size or len({*match.ns, *match.ew}) != 2 * size:
            raise ValueError("a match has two sides of one or two players, all different")
        ratings, variances, f0, v = self._parts(match)
        # The form learns everything the match says: the most likely difference ``f`` after it and
        # the likelihood's curvature ``h`` there, each term's share by its variance.
        f, h = self._solve(match, f0, v)
        form_shift = (f - f0) / v
        shrink = h / (1.0 + v * h)
        scale, base = self.params.scale, self.params.base
        out: dict[str, Delta] = {}
        per_side = 3 if size == 2 else 1  # two players and their pair's term, or one player
        for i in range(2 * per_side):
            r, var = ratings[i], variances[i]
            side = match.ns if i < per_side else match.ew
            sign = 1.0 if i < per_side else -1.0
            form = r.estimate + sign * var * form_shift
            # The rating goes where the form goes, but a match never moves its losers' rating up nor
            # its winners' down: when the deals point the other way (a 9:12 loss with more card
            # points, a narrow win of the favourite), the rating stays where it was and only the
            # uncertainty shrinks; it meets the form again at the first match that lets it. People
            # read a rating's move as the verdict on the result. The form keeps what those deals
            # said: in a third of the matches of a stream with card points they point against the
            # result, and a model that drops them predicts worse (docs/ratings.md, "Rating and form").
            up = (sign > 0) == (match.winner == NS)
            mu = max(r.mu, form) if up else min(r.mu, form)
            new = Rating(mu, max(var - var * var * shrink, 1e-6), match.day, r.matches + 1,
                         None if form == mu else form)
            if i % per_side == 2:
                self.pairs[_pair_key(side[0], side[-1])] = new
                best = self.best_partner
                for p in side:
                    if new.matches > best.get(p, 0):
                        best[p] = new.matches
                continue
            pid = side[i % per_side]
            self.players[pid] = new
            out[pid] = Delta(
                pid,
                base + scale * r.mu,
                base + scale * new.mu,
                scale * math.sqrt(var),
                scale * math.sqrt(new.var),
            )
        return out

    def preview_result(
        self,
        ns: Side,
        ew: Side,
        winner: str,
        *,
        eyes: tuple[int, int] | None = None,
        day: float | None = None,
        rules: ScoringKey = DEFAULT_RULES,
        weight: float = 1.0,
    ) -> dict[str, float]:
        """What learning this result now would move each of the four, in display points: the very
        step ``update`` takes for a match known by its winner and, when given, its final ``eyes``."""
        trial = RatingState(self.params)
        trial._tables, trial._scores = self._tables, self._scores
        for pid in (*ns, *ew):
            if pid in self.players:
                trial.players[pid] = replace(self.players[pid])
        for side in (ns, ew):
            if len(side) < 2:
                continue
            key = _pair_key(side[0], side[-1])
            if key in self.pairs:
                trial.pairs[key] = replace(self.pairs[key])
        deltas = trial.update(Match(ns, ew, winner, None, day, rules, weight=weight, eyes=eyes))
        return {pid: dl.change for pid, dl in deltas.items()}

    def preview(
        self,
        ns: Side,
        ew: Side,
        *,
        day: float | None = None,
        rules: ScoringKey = DEFAULT_RULES,
        weight: float = 1.0,
    ) -> dict[str, tuple[float, float, float, float]]:
        """What a win and a loss would move each of the four (like +8/-8 before a game), in display points:
        ``(win, big win, loss, big loss)``, a win 12:11 and 12:0, a loss 11:12 and 0:12, exactly as
        learning that final score now would (``preview_result``); a score in between moves between.
        A match learnt from its deals moves by what they say, on the side of its result.
        ``weight`` is the match's as learning it would take it (the farming guard's, for a casual match).
        """
        out: dict[str, list[float]] = {}
        for winner in (NS, EW):
            for lost_eyes, slot in ((WIN_SCORE - 1, 0), (0, 1)):
                eyes = (WIN_SCORE, lost_eyes) if winner == NS else (lost_eyes, WIN_SCORE)
                moves = self.preview_result(ns, ew, winner, eyes=eyes, day=day, rules=rules, weight=weight)
                for pid, change in moves.items():
                    won = (pid in ns) == (winner == NS)
                    out.setdefault(pid, [0.0, 0.0, 0.0, 0.0])[slot + (0 if won else 2)] = change
        return {pid: (v[0], v[1], v[2], v[3]) for pid, v in out.items()}
