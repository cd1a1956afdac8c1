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
    """The series so far from a tie's confirmed games, in playing order (a forfeit loses only its game)."""
    played = sorted((g for g in tie if g.status == MatchStatus.CONFIRMED), key=lambda g: g.game)
    scores = [(g.home_eyes, g.away_eyes) for g in played]
    outcome = series_outcome(scores, best_of)
    if outcome.winner is None and played and played[-1].ends_tie:
        # ended by a forfeit under the earlier rule (``Match.ends_tie``): decided as it was then
        side = "top" if scores[-1][0] > scores[-1][1] else "bottom"
        return SeriesOutcome(outcome.top_wins, outcome.bottom_wins, side, needs_decider=False)
    return outcome


def tie_winner(tie: Sequence[Match], best_of: int) -> int | None:
    """The pair (entry id) that won the tie, None while it is undecided. Every game of a tie has
    the same home (top) and away (bottom) pair."""
    if not tie:
        return None
    outcome = tie_outcome(tie, best_of)
    if outcome.winner is None:
        return None
    return tie[0].home_id if outcome.winner == "top" else tie[0].away_id


def tie_of(match: Match) -> list[Match]:
    """The games of the tie ``match`` is one of (same round, bracket, stage and slot), in order."""
    return list(
        Match.objects.filter(
            round_id=match.round_id, bracket=match.bracket, stage=match.stage, slot=match.slot, bye=False
        ).order_by("game")
    )


def tie_after_forfeit(tie: Sequence[Match], game: Match, *, winner_home: bool, best_of: int) -> SeriesOutcome:
    """Where the series would stand if ``game`` went 12:0 to one side (home when ``winner_home``):
    the confirm page of a forfeit says so before it is written. Raises ValueError when that would
    decide the tie before a game already played."""
    played = []
    for g in sorted(tie, key=lambda g: g.game):
        if g.pk == game.pk:
            played.append((12, 0) if winner_home else (0, 12))
        elif g.status == MatchStatus.CONFIRMED:
            played.append((g.home_eyes, g.away_eyes))
    return series_outcome(played, best_of)
