"""The rows of tournaments: the event, its entries, rounds and matches, and the day's plans.

Every model is importable from here (``tournaments.models.Match``), which is also the path the
migrations cite for ``new_pin``.
"""

from .boards import Adjusted, BoardPar, BoardResult
from .byes import ByeRequest
from .day import ActionKind, DaySettings, Notification, PushSubscription, ScheduledAction
from .details import Gender, PlayerDetails
from .entries import (
    ACTIVE_STATUSES,
    WAITING_STATUSES,
    Entry,
    EntryStatus,
    IndividualEntry,
    Paid,
    RequestStatus,
    Substitution,
    WithdrawalRequest,
)
from .event import (
    BRACKET_FORMATS,
    CURRENCY_SIGNS,
    DUPLICATE_FORMATS,
    INDIVIDUAL_FORMATS,
    MAX_ROUND_LENGTH,
    BoardScale,
    ByeKind,
    Currency,
    Format,
    Movement,
    PlayMode,
    Seeding,
    Tournament,
    TournamentStatus,
    money_text,
)
from .hall import ANNOUNCEMENT_LENGTH, Announcement, HallView
from .rounds import (
    DealLine,
    Match,
    MatchStatus,
    ResultCorrection,
    Round,
    RoundStatus,
    Seat,
    SeatName,
    new_pin,
)

__all__ = [
    "Adjusted",
    "BoardPar",
    "BoardResult",
    "BoardScale",
    "Movement",
    "Gender",
    "PlayerDetails",
    "ANNOUNCEMENT_LENGTH",
    "MAX_ROUND_LENGTH",
    "Announcement",
    "HallView",
    "ACTIVE_STATUSES",
    "WAITING_STATUSES",
    "BRACKET_FORMATS",
    "DUPLICATE_FORMATS",
    "INDIVIDUAL_FORMATS",
    "ActionKind",
    "ByeKind",
    "ByeRequest",
    "DaySettings",
    "DealLine",
    "Entry",
    "EntryStatus",
    "Format",
    "IndividualEntry",
    "Match",
    "MatchStatus",
    "Notification",
    "PushSubscription",
    "PlayMode",
    "RequestStatus",
    "ResultCorrection",
    "Round",
    "RoundStatus",
    "ScheduledAction",
    "Seat",
    "SeatName",
    "Seeding",
    "Substitution",
    "Tournament",
    "TournamentStatus",
    "WithdrawalRequest",
    "new_pin",
    "CURRENCY_SIGNS",
    "Currency",
    "Paid",
    "money_text",
]
