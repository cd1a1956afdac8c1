"""The archive's rows: every played match (`matches`) and its double-dummy analysis (`analysis`),
and the puzzles found in it (`puzzles`)."""

from archive.models.analysis import MatchAnalysis, SeatAnalysis
from archive.models.matches import (
    SEAT_CHOICES,
    ArchivedDeal,
    ArchivedMatch,
    ArchivedSeat,
    MatchSource,
    SeatKind,
)
from archive.models.puzzles import Puzzle, PuzzleAttempt, PuzzlePlayer

__all__ = [
    "SEAT_CHOICES", "ArchivedDeal", "ArchivedMatch", "ArchivedSeat", "MatchAnalysis", "MatchSource",
    "Puzzle", "PuzzleAttempt", "PuzzlePlayer", "SeatAnalysis", "SeatKind",
]
