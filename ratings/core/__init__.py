"""The rating model (pure: no Django, no database): players' strengths learnt from the deals of each match.

``RatingState`` holds every player's (and every pair's) rating and uncertainty: ``predict(match)``
gives P(NS wins), ``update(match)`` learns and returns each player's change, ``preview`` says what
a win or a loss would move. ``guard.farming_weight`` discounts repeated casual matches between the
same four; ``records.parse_match`` reads the JSON form the ``predict`` command takes
(``python -m ratings.core predict``). How well it does against Elo, TrueSkill and OpenSkill
is measured by ``bench/ratings/harness.py``; its speed by ``bench/ratings/speed.py``.
"""

from ratings.core.guard import farming_weight, previous_meetings
from ratings.core.match_odds import DealShape, ScoringKey
from ratings.core.model import Deal, Delta, Match, ModelParams, Rating, RatingState

__all__ = [
    "Deal",
    "DealShape",
    "Delta",
    "Match",
    "ModelParams",
    "Rating",
    "RatingState",
    "ScoringKey",
    "farming_weight",
    "previous_meetings",
]
