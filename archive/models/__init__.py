"""The archive's rows: every played match (`matches`) and its double-dummy analysis (`analysis`)."""

from archive.models.analysis import MatchAnalysis, SeatAnalysis
from archive.models.matches import (
    SEAT_CHOICES,
    ArchivedDeal,
    ArchivedMatch,
    ArchivedSeat,
    MatchSource,
    SeatKind,
)

__all__ = [
    "SEAT_CHOICES", "ArchivedDeal", "ArchivedMatch", "ArchivedSeat", "MatchAnalysis", "MatchSource",
    "SeatAnalysis", "SeatKind",
]
