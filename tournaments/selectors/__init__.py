"""Read-only queries for tournament pages: load rows, ask the format or the pure core, return view data.

- ``events``: a tournament, a club's events, entries and players; ``standings``: standings,
  crosstable, prize list, coming matchdays; ``brackets``: the bracket pages; ``rounds``: rounds,
  matches, seats, a player's matches; ``listing``: every club's events for visitors; ``exports``:
  the CSV/JSON rows; ``day``: the dashboard; ``byes``: the requested byes' card; ``pairings``: what
  unpairing or swapping in a round would touch.

Each selector runs a fixed number of SQL queries whatever the number of entries (tested).
"""

from .brackets import bracket, double_elim_view, groups_view
from .byes import ByeDesk, bye_desk
from .events import (
    active_count,
    club_events,
    club_tournaments,
    entries,
    is_registered,
    open_matches,
    own_entry,
    pair_entry,
    pair_entry_by_id,
    partner_choices,
    partner_requests,
    pending_entries,
    player_entry,
    players,
    substitute_choices,
    takes_entries,
    tournament_by_slug,
)
from .listing import filter_cities, filter_clubs, home_tournaments, tournament_list
from .pairings import UnpairPreview, editable, numbered_tables, swap_choices, unpair_preview
from .prizes import PrizeLine, details_rows, entry_prizes, prize_clubs, prize_list, prize_setup
from .rounds import match_detail, my_matches, round_detail, rounds_with_matches, seated_round
from .standings import coming_matchdays, crosstable, shown_standings, standings, tiebreak_order

__all__ = [
    "ByeDesk",
    "bye_desk",
    "UnpairPreview",
    "active_count",
    "takes_entries",
    "bracket",
    "club_events",
    "club_tournaments",
    "coming_matchdays",
    "crosstable",
    "double_elim_view",
    "editable",
    "entries",
    "filter_cities",
    "filter_clubs",
    "groups_view",
    "home_tournaments",
    "is_registered",
    "match_detail",
    "my_matches",
    "numbered_tables",
    "open_matches",
    "own_entry",
    "pair_entry",
    "pair_entry_by_id",
    "partner_choices",
    "partner_requests",
    "pending_entries",
    "player_entry",
    "players",
    "PrizeLine",
    "details_rows",
    "entry_prizes",
    "prize_setup",
    "prize_clubs",
    "prize_list",
    "round_detail",
    "rounds_with_matches",
    "seated_round",
    "standings",
    "shown_standings",
    "swap_choices",
    "substitute_choices",
    "tiebreak_order",
    "tournament_by_slug",
    "unpair_preview",
    "tournament_list",
]
