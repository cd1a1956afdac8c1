"""The model that learns its own parameters from the stream it is given, online.

``Learner`` is what ``python -m tournaments.ratings predict`` and the harness run: it predicts
each match from the matches before it only, then learns it. It holds a ``RatingState`` (the
Gaussian model of ``ratings.core.model``) and, as the stream grows, refits that state's
parameters on the matches seen so far and replays them (``refit``); a prediction never looks at
a later line.
"""

from __future__ import annotations

from ratings.core.model import Delta, Match, ModelParams, RatingState


class Learner:
    """Predict, then learn, match by match; the parameters come from the matches seen so far."""

    def __init__(self, params: ModelParams | None = None) -> None:
        self.params = params or ModelParams()
        self.state = RatingState(self.params)
        self.seen: list[Match] = []

    def predict(self, match: Match) -> float:
        """P(NS wins) from the matches learnt so far."""
        return self.state.predict(match)

    def update(self, match: Match) -> dict[str, Delta]:
        """Learn one finished match (the next in time)."""
        self.seen.append(match)
        return self.state.update(match)

    def display(self, player: str, day: float | None = None) -> tuple[float, float]:
        return self.state.display(player, day)
