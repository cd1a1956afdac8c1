"""Best-of-N ties of the bracket formats: how many games a tie is played over, and who wins it.

A tie is the games (``Match`` rows, ``game`` 1, 2, ...) between the same two pairs at one place of
the bracket; every game is reported and confirmed like any match, and the tie is read here as one
series by ``core.knockout.series_outcome``. The organiser sets the length before the start: one
for every tie (``best_of``) and, if it differs, one for the final (``final_best_of``); a round's own
setting (``Round.best_of``) overrides both for that round.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.knockout import SeriesOutcome, series_outcome
from ..models import Match, MatchStatus, Tournament

SERIES_LENGTHS = (1, 3, 5)
"""The lengths an organiser may choose: odd, so that a series always ends on wins."""


def tie_length(tournament: Tournament, round_best_of: int | None, *, final: bool) -> int:
    """Games in a tie: the round's own setting, else the final's, else the event's."""
    if round_best_of:
        return round_best_of
    if final and tournament.final_best_of:
        return tournament.final_best_of
    return tournament.best_of or 1


def tie_outcome(tie: Sequence[Match], best_of: int) -> SeriesOutcome:
    """The series so far from a tie's confirmed games, in playing order (a forfeit ends it)."""
    played = sorted((g for g in tie if g.status == MatchStatus.CONFIRMED), key=lambda g: g.game)
    return series_outcome(
        [(g.home_eyes, g.away_eyes) for g in played], best_of, forfeits=[g.forfeit for g in played]
    )


def tie_winner(tie: Sequence[Match], best_of: int) -> int | None:
    """The pair (entry id) that won the tie, None while it is undecided. Every game of a tie has
    the same home (top) and away (bottom) pair."""
    if not tie:
        return None
    outcome = tie_outcome(tie, best_of)
    if outcome.winner is None:
        return None
    return tie[0].home_id if outcome.winner == "top" else tie[0].away_id
