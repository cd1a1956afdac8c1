"""Tournament formats: one class per format behind one interface (``base.TournamentFormat``).

``format_of(tournament)`` gives the format object of an event; services draw its rounds through
it and selectors read its standings and places. A new format is one module here with its class
listed in ``FORMATS``, and its tests.
"""

from __future__ import annotations

from ..models import Tournament
from .base import Game, RoundPlan, StandingLine, Standings, TournamentFormat, matchday_deadline, results_of
from .double_elim import DoubleElimination
from .duplicate import Duplicate
from .groups_playoff import GroupsThenPlayoff
from .individual_duplicate import IndividualDuplicate
from .individual_movement import IndividualMovement
from .individual_swiss import IndividualSwiss
from .round_robin import RoundRobin
from .single_elim import SingleElimination
from .swiss import Swiss

FORMATS: dict[str, type[TournamentFormat]] = {
    f.code: f
    for f in (
        RoundRobin,
        Swiss,
        SingleElimination,
        DoubleElimination,
        GroupsThenPlayoff,
        IndividualMovement,
        IndividualSwiss,
        Duplicate,
        IndividualDuplicate,
    )
}


def format_of(tournament: Tournament) -> TournamentFormat:
    """The format object of ``tournament`` (a new one each call: it reads the tournament as it is)."""
    return FORMATS[tournament.format](tournament)


def default_tiebreaks(fmt: str) -> list[str]:
    """The tiebreak order an event of format ``fmt`` gets when the organiser names none."""
    return [t.value for t in FORMATS[fmt].default_tiebreaks]


__all__ = [
    "FORMATS",
    "Game",
    "RoundPlan",
    "StandingLine",
    "Standings",
    "TournamentFormat",
    "default_tiebreaks",
    "format_of",
    "matchday_deadline",
    "results_of",
]
