"""The systems the rating model is measured against, and the model itself, behind one small interface.

Each system sees a match as ``SimMatch`` (bench/ratings/sim.py): ``predict`` before, ``learn``
after, ``score`` for ranking a player or a pair. The peers see only who won; the model sees what
the stream's shape keeps (deals with card points, each deal's eyes, or the final score), read by
the ``predict`` command's own reader (``ratings.core.records``) and learnt through the one
interface the command uses (``Learner``: ``predict``, ``update``, ``state``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import trueskill
from openskill.models import BradleyTerryFull, PlackettLuce

from ratings.core.learner import Learner
from ratings.core.model import Match, ModelParams
from ratings.core.records import parse_match

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


def line(m: SimMatch, info: str = "points") -> dict[str, object]:
    """The match as a line of the ``predict`` command's input, keeping what the shape's ``info`` keeps.

    "points": each deal's eyes, outcome, pair on duty and card points; "eyes": each deal's eyes and
    nothing else (what a live table's result stores); "score": the final score, no deals.
    """
    obj: dict[str, object] = {
        "id": 0,
        "ns": list(m.ns),
        "ew": list(m.ew),
        "winner": m.winner,
        "eyes": {"NS": m.eyes[0], "EW": m.eyes[1]},
    }
    if info == "points":
        keys = ("NS", "EW", "outcome", "on_duty", "points")
        obj["deals"] = [{k: d[k] for k in keys} for d in m.deals]
    elif info == "eyes":
        obj["deals"] = [{"NS": d["NS"], "EW": d["EW"]} for d in m.deals]
    elif info != "score":
        raise ValueError(f"info is points, eyes or score, not {info!r}")
    return obj


def model_match(m: SimMatch, info: str = "points") -> Match:
    """The model's ``Match``, read by the ``predict`` command's own reader, at the simulated day."""
    _, match = parse_match(line(m, info))
    return replace(match, day=m.day)


class Bilka:
    """The site's model (``ratings.core.learner.Learner``), given what the shape's ``info`` keeps."""

    def __init__(self, params: ModelParams | None = None, info: str = "points") -> None:
        self.learner = Learner(params)
        self.info = info
        self._last: tuple[SimMatch, Match] | None = None

    def _match(self, m: SimMatch) -> Match:
        if self._last is None or self._last[0] is not m:
            self._last = (m, model_match(m, self.info))
        return self._last[1]

    def predict(self, m: SimMatch) -> float:
        return self.learner.predict(self._match(m))

    def learn(self, m: SimMatch) -> None:
        self.learner.update(self._match(m))

    def score(self, players: tuple[str, ...]) -> float:
        state = self.learner.state
        if len(players) == 2:
            return state.pair_display(players[0], players[1])[0]
        return state.rating(players[0]).mu
