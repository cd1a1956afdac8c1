"""The systems the rating model is measured against, and the model itself, behind one small interface.

Each system sees a match as ``SimMatch`` (bench/ratings/sim.py): ``predict`` before, ``learn``
after, ``score`` for ranking a player or a pair. The peers see only who won; the model sees
the deals (``BilkaDeals``), or, as a check of what deals are worth, only the winner too.
"""

from __future__ import annotations

import math

import trueskill
from openskill.models import BradleyTerryFull, PlackettLuce

from ratings.core.learner import Learner
from ratings.core.model import Deal, Match, ModelParams

from .sim import SimMatch


class TeamElo:
    """Elo for pairs: a pair is the mean of its partners, logistic on 400; each partner moves by K(S - E)."""

    def __init__(self, k: float = 16.0) -> None:
        self.k = k
        self.r: dict[str, float] = {}

    def _diff(self, m: SimMatch) -> float:
        g = self.r.get
        return (g(m.ns[0], 1500) + g(m.ns[1], 1500) - g(m.ew[0], 1500) - g(m.ew[1], 1500)) / 2

    def predict(self, m: SimMatch) -> float:
        return 1.0 / (1.0 + 10 ** (-self._diff(m) / 400))

    def learn(self, m: SimMatch) -> None:
        e = self.predict(m)
        delta = self.k * ((1.0 if m.winner == "NS" else 0.0) - e)
        for p in m.ns:
            self.r[p] = self.r.get(p, 1500) + delta
        for p in m.ew:
            self.r[p] = self.r.get(p, 1500) - delta

    def score(self, players: tuple[str, ...]) -> float:
        return sum(self.r.get(p, 1500) for p in players)


class TrueSkill:
    """Microsoft's TrueSkill (package ``trueskill``), no draws; win probability from both pairs' Gaussians."""

    def __init__(self) -> None:
        self.env = trueskill.TrueSkill(draw_probability=0.0)
        self.r: dict[str, trueskill.Rating] = {}

    def _get(self, p: str) -> trueskill.Rating:
        if p not in self.r:
            self.r[p] = self.env.create_rating()
        return self.r[p]

    def predict(self, m: SimMatch) -> float:
        a = [self._get(p) for p in m.ns]
        b = [self._get(p) for p in m.ew]
        dmu = sum(r.mu for r in a) - sum(r.mu for r in b)
        s2 = sum(r.sigma**2 for r in a + b) + 4 * self.env.beta**2
        return self.env.cdf(dmu / math.sqrt(s2))

    def learn(self, m: SimMatch) -> None:
        a = [self._get(p) for p in m.ns]
        b = [self._get(p) for p in m.ew]
        ranks = [0, 1] if m.winner == "NS" else [1, 0]
        (na, nb) = self.env.rate([a, b], ranks=ranks)
        for p, r in zip(m.ns, na, strict=True):
            self.r[p] = r
        for p, r in zip(m.ew, nb, strict=True):
            self.r[p] = r

    def score(self, players: tuple[str, ...]) -> float:
        return sum(self._get(p).mu for p in players)


class OpenSkill:
    """OpenSkill's Weng-Lin models (package ``openskill``): Plackett-Luce or Bradley-Terry (full pairing)."""

    def __init__(self, model: str) -> None:
        self.model = PlackettLuce() if model == "PL" else BradleyTerryFull()
        self.r: dict[str, object] = {}

    def _get(self, p: str):  # type: ignore[no-untyped-def]
        if p not in self.r:
            self.r[p] = self.model.rating(name=p)
        return self.r[p]

    def predict(self, m: SimMatch) -> float:
        teams = [[self._get(p) for p in m.ns], [self._get(p) for p in m.ew]]
        return float(self.model.predict_win(teams)[0])  # type: ignore[arg-type]

    def learn(self, m: SimMatch) -> None:
        teams = [[self._get(p) for p in m.ns], [self._get(p) for p in m.ew]]
        ranks = [1, 2] if m.winner == "NS" else [2, 1]
        new = self.model.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        for team, names in zip(new, (m.ns, m.ew), strict=True):
            for r, p in zip(team, names, strict=True):
                self.r[p] = r

    def score(self, players: tuple[str, ...]) -> float:
        return sum(self._get(p).mu for p in players)  # type: ignore[attr-defined]


def model_match(m: SimMatch, with_deals: bool, with_points: bool = True) -> Match:
    deals = None
    if with_deals:
        deals = tuple(
            Deal(
                None if d["outcome"] == "eggs" else ("NS" if int(d["NS"]) > 0 else "EW"),  # type: ignore[call-overload]
                str(d["outcome"]),
                str(d["on_duty"]),
                tuple(d["points"]) if with_points else None,  # type: ignore[arg-type]
            )
            for d in m.deals
        )
    return Match(m.ns, m.ew, m.winner, deals, m.day, eyes=m.eyes)


class Bilka:
    """The site's model (ratings.core): from the deals, or from the winner only."""

    def __init__(
        self, params: ModelParams | None = None, with_deals: bool = True, with_points: bool = True
    ) -> None:
        self.learner = Learner(params)
        self.with_deals = with_deals
        self.with_points = with_points

    def predict(self, m: SimMatch) -> float:
        return self.learner.predict(model_match(m, self.with_deals, self.with_points))

    def learn(self, m: SimMatch) -> None:
        self.learner.update(model_match(m, self.with_deals, self.with_points))

    def score(self, players: tuple[str, ...]) -> float:
        state = self.learner.state
        if len(players) == 2:
            return state.pair_display(players[0], players[1])[0]
        return state.rating(players[0]).mu
