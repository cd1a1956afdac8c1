"""The only code that changes a table: open, sit, fill with bots, play, resign, clock, presence.

Each service is one transaction that locks the table row (`select_for_update`) and, as a second
guard that also holds on SQLite, advances `event_seq` by compare-and-set. It applies the engine,
appends numbered events, stores the record as it grows, and only on commit broadcasts the frames
and queues the bot and clock tasks (`gameplay.services.scheduling`).

One module per job, by what it changes: `seating` (open a table, sit, bots, start), `moves`,
`clocks` (what the bot and clock tasks do), `bot_thinking` (a strong bot decides without the lock),
`ending` (decided, resigned or called off),
`connections` (sockets and dead servers), `archiving` (a finished casual table goes to the archive);
`changes` holds what they share (lock, events, clock, next task, refusals), `rows` the SQL every
move runs, `scheduling` the bot and clock tasks it queues, and `state_cache` the states this
process moved last. Callers use the names below: `from gameplay import services`.
"""

from gameplay.engine import RulesError
from gameplay.selectors import load_state
from gameplay.services.bot_thinking import bot_play, bot_think
from gameplay.services.changes import Conflict, Outcome, TableError, seat_rows
from gameplay.services.clocks import bot_move, clock_expired, requeue_lost_tasks
from gameplay.services.connections import connection_changed, reap_dead_servers
from gameplay.services.ending import cancel, resign
from gameplay.services.moves import parse_action, play, public_action
from gameplay.services.seating import (
    clean_client_seed,
    create_table,
    fill_with_bots,
    play_now,
    seat_for,
    set_client_seed,
    sit,
    validate_rules,
)
from gameplay.services.watching import bar_spectators

__all__ = [
    "Conflict",
    "Outcome",
    "RulesError",
    "TableError",
    "bar_spectators",
    "bot_move",
    "cancel",
    "clean_client_seed",
    "clock_expired",
    "connection_changed",
    "create_table",
    "bot_play",
    "bot_think",
    "fill_with_bots",
    "load_state",
    "parse_action",
    "play",
    "play_now",
    "public_action",
    "reap_dead_servers",
    "requeue_lost_tasks",
    "resign",
    "seat_for",
    "seat_rows",
    "set_client_seed",
    "sit",
    "validate_rules",
]
