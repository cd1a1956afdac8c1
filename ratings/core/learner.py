"""The model that learns its own parameters from the stream it is given, online.

``Learner`` is what ``python -m tournaments.ratings predict`` and the harness run: it predicts
each match from the matches before it only, then learns it. It holds a ``RatingState`` (the
Gaussian model of ``ratings.core.model``) and, as the stream grows (after 60 matches, then each
time their number has grown by a quarter; past ``REPLAY_LIMIT``, each time it has doubled),
refits that state's parameters on the matches seen so far (``ratings.core.fitting``: the deal
shape from the deals, the matches' spread, then the drift and the pairs' own term by the replayed
matches' predictive log-loss, then the calibration) and,
while the stream is short enough to replay (``REPLAY_LIMIT``), rebuilds the ratings with them.
A prediction never looks at a later line: refits happen after a match is learnt, from the
matches learnt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from ratings.core.fitting import fit_shape, fit_spread, fit_temperature, with_shape, with_tau
from ratings.core.model import NS, Delta, Match, ModelParams, RatingState

FIRST_REFIT = 60
REFIT_GROWTH = 1.25  # refit each time the matches seen have grown by a quarter
REPLAY_LIMIT = 12_000  # matches replayed per candidate; beyond, the latest ones from a fresh state
DRIFTS = (0.0, 0.00001, 0.00003, 0.0001, 0.0003, 0.001)
PAIR_SDS = (0.02, 0.08, 0.2)


def replay(
    matches: Sequence[Match], params: ModelParams, burn: float = 0.3
) -> tuple[RatingState, float, list[tuple[float, int]]]:
    """Predict then learn each match in order: the final state, the mean log-loss of the matches
    after the first ``burn`` share, and those predictions with their results."""
    state = RatingState(params)
    start = int(len(matches) * burn)
    loss = 0.0
    preds: list[tuple[float, int]] = []
    for i, m in enumerate(matches):
        if i >= start:
            p = min(1 - 1e-9, max(1e-9, state.predict(m)))
            y = 1 if m.winner == NS else 0
            loss -= math.log(p if y else 1 - p)
            preds.append((p, y))
        state.update(m)
    return state, loss / max(1, len(preds)), preds


def fit_params(matches: Sequence[Match], start: ModelParams) -> tuple[ModelParams, RatingState | None]:
    """Parameters for these matches (oldest first), starting from ``start``; with the state the best
    candidate's replay left when it replayed every match (None when only the latest were replayed)."""
    base = replace(start, calibration=1.0)
    side = len(matches[-1].ns) if matches else 2  # players a side: 1 in Bilka for two
    shape = fit_shape(matches, base)
    tau: float | None
    if shape is not None and shape.spread_from_deals:
        base = with_shape(base, shape, side)
        tau = shape.tau
    else:
        # The deals cannot give the strengths' spread (none; or eyes alone, which give the shape):
        # the final scores give it (``fit_spread``), read with that shape.
        if shape is not None:
            base = replace(base, shape=shape.shape)
        tau = fit_spread(matches, base)
        if tau is not None:
            base = with_tau(base, tau, side)
    window = matches[-REPLAY_LIMIT:]
    tried: dict[ModelParams, tuple[float, RatingState, list[tuple[float, int]]]] = {}

    def score(p: ModelParams) -> float:
        if p not in tried:
            state, loss, preds = replay(window, p)
            tried[p] = (loss, state, preds)
        return tried[p][0]

    best = base
    score(best)
    for drift in DRIFTS:
        trial = replace(best, drift=drift)
        if score(trial) < score(best):
            best = trial
    for pair_sd in PAIR_SDS:
        # The matches' spread is what the data gave: a larger pair term takes its share of it
        # from the players' (``with_tau``), instead of widening it.
        trial = replace(best, pair_sd=pair_sd)
        if tau is not None:
            trial = with_tau(trial, tau, side)
        if score(trial) < score(best):
            best = trial
    _, state, preds = tried[best]
    best = replace(best, calibration=fit_temperature(preds))
    if len(window) < len(matches):
        return best, None
    state.set_params(best)
    return best, state


class Learner:
    """Predict, then learn, match by match; the parameters come from the matches seen so far."""

    def __init__(self, params: ModelParams | None = None, *, refit: bool = True) -> None:
        self.params = params or ModelParams()
        self.state = RatingState(self.params)
        self.seen: list[Match] = []
        self.refits = refit
        self.next_refit = FIRST_REFIT

    def predict(self, match: Match) -> float:
        """P(NS wins) from the matches learnt so far."""
        return self.state.predict(match)

    def update(self, match: Match) -> dict[str, Delta]:
        """Learn one finished match (the next in time); refit when the stream has grown by a quarter."""
        self.seen.append(match)
        out = self.state.update(match)
        if self.refits and len(self.seen) >= self.next_refit:
            self.refit()
            # Past a replay window the parameters are settled: refit as the stream doubles.
            n = len(self.seen)
            self.next_refit = int((REFIT_GROWTH if n < REPLAY_LIMIT else 2.0) * n)
        return out

    def refit(self) -> None:
        """Fit the parameters on every match seen; rebuild the ratings with them when they were replayed
        whole, else carry the ratings on and apply the new parameters from the next match."""
        params, state = fit_params(self.seen, self.params)
        self.params = params
        if state is not None:
            self.state = state
        else:
            self.state.set_params(params)

    def display(self, player: str, day: float | None = None) -> tuple[float, float]:
        return self.state.display(player, day)
