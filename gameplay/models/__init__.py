"""The game's rows: live tables (`tables`), the archive of played matches (`archive`) and its
double-dummy analysis (`analysis`)."""

from gameplay.models.analysis import MatchAnalysis, SeatAnalysis
from gameplay.models.archive import ArchivedDeal, ArchivedMatch, ArchivedSeat, MatchSource, SeatKind
from gameplay.models.tables import (
    REDEAL_SECONDS_MAX,
    REDEAL_SECONDS_MIN,
    SEAT_CHOICES,
    BotLevel,
    Seat,
    SeatConnection,
    Seating,
    Table,
    TableEvent,
    TableStatus,
    new_invite_token,
    new_shuffle_seed,
)

__all__ = [
    "REDEAL_SECONDS_MAX", "REDEAL_SECONDS_MIN", "SEAT_CHOICES",
    "ArchivedDeal", "ArchivedMatch", "ArchivedSeat", "BotLevel", "MatchAnalysis", "MatchSource",
    "SeatAnalysis", "Seat",
    "SeatConnection", "SeatKind",
    "Seating", "Table", "TableEvent", "TableStatus", "new_invite_token", "new_shuffle_seed",
]
