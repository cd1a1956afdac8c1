"""Every change to tournaments, by what it changes. Views, admin, commands and tasks call these.

- ``events``: the tournament and its settings, and deleting one not started; ``entries``: pairs and
  players entering, approved, checked in, seeded; ``fees``: the entry fee each paid at the desk;
  ``seeded``: a list of them entered by a program;
  ``partners``: a pair's self-registration and the partner's consent;
  ``substitutes``: a pair's substitute for a round; ``players``: an individual event's;
  ``withdrawals``: leaving and coming back; ``leaving``: a player's ask to withdraw once the
  event runs, and its answer; ``byes``: a requested bye asked for a round not yet paired, or taken back;
- ``rounds``: the field fixed and each next round drawn by the format; ``pairings``: a round
  unpaired or changed by hand; ``results``: reported,
  confirmed, disputed, corrected, forfeited; ``live``: a live table's result taken as a match's;
  ``records``: the record of a match played elsewhere attached to its pairing; ``duplicate``: a
  duplicate event's board seed and each table's board results; ``board_par``: each board's par;
- ``plans`` and ``runner``: the day's plans written and run; ``day``: what they do; ``notices``
  (``pairing_notices``: each player's place in a round; ``push``: notices on phones).
- ``common`` (permission checks, lock order, audit row, tasks on commit) and ``progress`` (what
  follows any result) are what the others share.

The public services are importable from here (``services.pair_next_round``).
"""

from .board_par import PAR_TASK, compute_board_par, queue_board_pars
from .byes import ask_bye, withdraw_bye
from .common import on_commit_task, require_manager
from .duplicate import BoardEntry, enter_board_results
from .entries import (
    approve_entry,
    check_in_closed,
    check_in_entry,
    move_entry,
    register_entry,
)
from .events import create_tournament, delete_tournament, parse_rules, update_tournament
from .fees import record_payment
from .hall import pin_hall_view, post_announcement, withdraw_announcement
from .leaving import answer_withdrawal_request, ask_to_withdraw, pending_request
from .notices import tell_invited_member
from .pairing_notices import tell_round_places
from .pairings import PairingWarning, set_table_number, swap_in_round, unpair_round
from .partners import accept_partner, decline_partner, self_register
from .pasted_entries import BulkEntries, register_entries_bulk
from .pins import (
    PIN_ADDRESS_ALLOWANCE,
    PIN_DEVICE_ALLOWANCE,
    PIN_MATCH_ADDRESS_ALLOWANCE,
    PIN_SESSION_ALLOWANCE,
    PinSender,
    WrongPin,
    note_wrong_pin,
    pin_slowed,
)
from .players import (
    approve_player,
    check_in_player,
    register_player,
    register_players_bulk,
    self_register_player,
    substitute_player,
)
from .prize_details import save_player_details
from .push import forget_phone, push_notice, subscribe_phone
from .records import attach_record, check_record, prefilled_chairs
from .results import (
    auto_confirm_due,
    confirm_result,
    correct_result,
    dispute_result,
    enter_result,
    record_forfeit,
    record_no_show,
    require_reporter,
)
from .rounds import pair_next_round, set_round_options, start_tournament
from .seeded import Line as SeededLine
from .seeded import register_seeded
from .substitutes import substitute
from .withdrawals import (
    reinstatable_entries,
    reinstatable_players,
    reinstate_entry,
    reinstate_player,
    withdraw_entry,
    withdraw_player,
)

__all__ = [
    "BoardEntry",
    "PAR_TASK",
    "compute_board_par",
    "queue_board_pars",
    "enter_board_results",
    "ask_bye",
    "withdraw_bye",
    "record_payment",
    "on_commit_task",
    "tell_invited_member",
    "tell_round_places",
    "push_notice",
    "subscribe_phone",
    "forget_phone",
    "accept_partner",
    "decline_partner",
    "attach_record",
    "check_record",
    "prefilled_chairs",
    "PIN_ADDRESS_ALLOWANCE",
    "PIN_DEVICE_ALLOWANCE",
    "PIN_MATCH_ADDRESS_ALLOWANCE",
    "PIN_SESSION_ALLOWANCE",
    "PairingWarning",
    "PinSender",
    "BulkEntries",
    "WrongPin",
    "answer_withdrawal_request",
    "approve_entry",
    "approve_player",
    "ask_to_withdraw",
    "auto_confirm_due",
    "check_in_closed",
    "check_in_entry",
    "check_in_player",
    "confirm_result",
    "correct_result",
    "create_tournament",
    "delete_tournament",
    "require_manager",
    "save_player_details",
    "require_reporter",
    "dispute_result",
    "enter_result",
    "move_entry",
    "note_wrong_pin",
    "pin_slowed",
    "pair_next_round",
    "pending_request",
    "parse_rules",
    "record_forfeit",
    "record_no_show",
    "register_entries_bulk",
    "register_entry",
    "register_player",
    "register_seeded",
    "SeededLine",
    "register_players_bulk",
    "reinstatable_entries",
    "reinstatable_players",
    "reinstate_entry",
    "reinstate_player",
    "self_register",
    "self_register_player",
    "set_round_options",
    "pin_hall_view",
    "post_announcement",
    "withdraw_announcement",
    "start_tournament",
    "set_table_number",
    "substitute",
    "swap_in_round",
    "unpair_round",
    "substitute_player",
    "update_tournament",
    "withdraw_entry",
    "withdraw_player",
]
