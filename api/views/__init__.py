"""The API's operations, one module per part of the site; ``api.urls`` names them from here."""

from .archive import ArchivedMatchDetail, ArchivedMatchList, ArchivedMatchRecord
from .clubs import ClubDetail, ClubList, PlayerDetail, PlayerList, RatingList
from .entries import (
    EntryApprove,
    EntryWithdraw,
    EventEntryApprove,
    EventEntryCheckIn,
    EventEntryReinstate,
    EventEntryWithdraw,
    TournamentEntries,
)
from .events import EntriesBulk, EventStart
from .results import MatchConfirm, MatchCorrect, MatchDispute, MatchForfeit, MatchResult, MatchSettle
from .rounds import MatchTable, RoundPairNext, RoundSwap, RoundUnpair
from .tournaments import MatchDetail, RoundList, StandingsView, TournamentDetail, TournamentList, not_found

__all__ = [
    "ArchivedMatchDetail",
    "ArchivedMatchList",
    "ArchivedMatchRecord",
    "ClubDetail",
    "ClubList",
    "EntryApprove",
    "EntryWithdraw",
    "EventEntryApprove",
    "EventEntryReinstate",
    "EventEntryWithdraw",
    "MatchConfirm",
    "MatchDetail",
    "MatchResult",
    "PlayerDetail",
    "PlayerList",
    "RatingList",
    "RoundList",
    "StandingsView",
    "TournamentDetail",
    "TournamentEntries",
    "TournamentList",
    "not_found",
    # running an event's rounds and settling its results
    "MatchCorrect",
    "MatchDispute",
    "MatchForfeit",
    "MatchSettle",
    "MatchTable",
    "RoundPairNext",
    "RoundSwap",
    "RoundUnpair",
    # Running an event with an organising key.
    "EntriesBulk",
    "EventEntryCheckIn",
    "EventStart",
]
