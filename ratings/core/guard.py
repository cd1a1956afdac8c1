"""The farming guard: casual results between the same four players count less and less.

Rule: a rated casual match between four players who have already played ``n`` rated casual
matches together (the same four, however seated or paired) in the last ``WINDOW_DAYS`` days
counts with weight ``1 / (1 + n)``: the first counts fully, the second half, the third a third.
Tournament matches are not casual and always count fully. The weight scales what the match
teaches the model (``Match.weight``), so ten quick wins against the same friends move a rating
about as much as three honest ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

WINDOW_DAYS = 30


def farming_weight(previous_meetings: int) -> float:
    """Weight of a casual match after ``previous_meetings`` of the same four in the window: 1/(1+n)."""
    if previous_meetings < 0:
        raise ValueError("a count of matches is not negative")
    return 1.0 / (1.0 + previous_meetings)


def previous_meetings(
    four: Iterable[str],
    day: date,
    history: Iterable[tuple[date, Iterable[str]]],
    window_days: int = WINDOW_DAYS,
) -> int:
    """How many earlier casual matches in ``history`` (day, players) had exactly these four players
    within ``window_days`` before ``day``."""
    key = frozenset(four)
    start = day - timedelta(days=window_days)
    return sum(1 for d, players in history if start <= d <= day and frozenset(players) == key)
