"""The archive's rows: every played match (`matches`) and its double-dummy analysis (`analysis`),
the puzzles found in it (`puzzles`), and the fair-play reviews stored for organisers and staff
(`fairplay`)."""

from archive.models.analysis import MatchAnalysis, SeatAnalysis
from archive.models.fairplay import FairPlayReview, FairPlayRow, ReviewScope, ReviewStatus
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
    "SEAT_CHOICES", "ArchivedDeal", "ArchivedMatch", "ArchivedSeat", "FairPlayReview", "FairPlayRow",
    "MatchAnalysis", "MatchSource", "Puzzle", "PuzzleAttempt", "PuzzlePlayer", "ReviewScope", "ReviewStatus",
    "SeatAnalysis", "SeatKind",
]
