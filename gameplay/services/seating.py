"""Opening a table and filling it: create, sit, call in bots, "play now"; the match starts when full."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine import MatchState, Rules, RulesError
from gameplay.engine.boards import BoardSet
from gameplay.engine.cards import SEATS, deck_cards, deck_mask
from gameplay.engine.deal import check_hands
from gameplay.engine.games import BILKA, AnyMatch, game_of, new_match, rules_from_json
from gameplay.engine.games import SEATS as GAME_SEATS
from gameplay.engine.record_games import write_game_record
from gameplay.engine.shuffle import CLIENT_SEED_MAX, GAME_SCHEMES, Shuffle, client_seed_problem
from gameplay.engine.table_games import BOT_LEVELS, table_seats
from gameplay.models import (
    REDEAL_SECONDS_MAX,
    REDEAL_SECONDS_MIN,
    BotLevel,
    Seat,
    Seating,
    Table,
    TableStatus,
    new_shuffle_seed,
)
from gameplay.selectors import board_set_of
from gameplay.services.changes import (
    TableError,
    append_event,
    lock_table,
    queue_next_task,
    seat_rows,
    set_move_clock,
)
from gameplay.tables import broadcast

_sysrand = secrets.SystemRandom()


def validate_rules(data: Any) -> dict[str, Any]:
    """The complete rules object (every parameter explicit); RulesError names the key at fault.

    Its `game` key chooses the game (`games.py`): Bilka's rules are written as before, with no
    `game` key; Kozyol's name their game."""
    try:
        return rules_from_json(data).to_json()
    except TypeError as exc:  # pragma: no cover - from_json checks keys first
        raise RulesError("rules", str(exc)) from None


def seat_count(table: Table) -> int:
    """How many seats the table's game has (four for Bilka and Kozyol, two for Bilka for two)."""
    return GAME_SEATS[game_of(table.rules)]


def game_seats(table: Table) -> tuple[int, ...]:
    """The table's seats (0..3) its game's players sit at: N and S for Bilka for two."""
    return table_seats(game_of(table.rules))


def check_game(game: str, *, rated: bool, boards: BoardSet | None) -> None:
    """What only Bilka's tables may be: dealt from a duplicate event's boards; TableError in the
    player's words otherwise. A Kozyol table may be rated: its matches count for Kozyol's own
    rating (docs/ratings.md)."""
    if game == BILKA:
        return
    if boards is not None:
        raise TableError(_("Duplicate boards are dealt for Bilka only."), "invalid")


def _player_name(user: Any) -> str:
    player = getattr(user, "player", None) if user is not None else None
    if player is not None and player.display_name:
        return player.display_name
    return user.get_username() if user is not None else _("Guest")


@transaction.atomic
def create_table(
    *,
    rules: dict[str, Any] | None,
    seating: str = Seating.RANDOM,
    spectators_see_hands_delayed: bool = False,
    redeal_seconds: int | None = None,
    user: Any = None,
    session_key: str = "",
    sit: bool = True,
    bots: bool = False,
    bot_level: str = BotLevel.BEGINNER,
    shuffle_prominent: bool = False,
    public: bool = True,
    casual: bool = True,
    rated: bool = False,
    boards: BoardSet | None = None,
) -> Table:
    """Open a table; the creator sits down at once unless `sit` is false; `bots` fills the rest
    with bots of `bot_level`.

    The table draws its secret shuffle seed now, so its commitment is shown while it waits and
    before anyone's client seed is final. `shuffle_prominent` shows the fair-shuffle panel open
    during the match (tournament tables). A table that is not `public` is seen by its seated
    players only (and, while it waits, by whoever holds its invitation link). A table that is not
`casual` (a tournament pairing's) is archived by its tournament, not when its match ends.

    `boards` (a duplicate event's set, its hands dealt) makes the table deal exactly those boards,
    in order, with no client seed, no shuffle seed and no redeal, and end after the last one."""
    full_rules = validate_rules(rules or {})
    game = game_of(full_rules)
    check_game(game, rated=rated, boards=boards)
    if bots:
        clean_bot_level(bot_level, game)
    if seating not in Seating.values:
        raise TableError(_("Unknown seating."), "invalid")
    if redeal_seconds is not None and not (
            isinstance(redeal_seconds, int) and REDEAL_SECONDS_MIN <= redeal_seconds <= REDEAL_SECONDS_MAX):
        raise TableError(_("The time to answer the redeal question must be %(low)s to %(high)s seconds.")
                         % {"low": REDEAL_SECONDS_MIN, "high": REDEAL_SECONDS_MAX}, "invalid")
    if user is not None and not user.is_authenticated:
        user = None
    table = Table.objects.create(
        rules=full_rules,
        seating=seating,
        spectators_see_hands_delayed=spectators_see_hands_delayed,
        **({} if redeal_seconds is None else {"redeal_seconds": redeal_seconds}),
        created_by=user,
        created_session="" if user is not None else session_key,
        shuffle_prominent=shuffle_prominent,
        casual=casual,
        rated=rated,
        public=public,
        **(_boards_fields(boards, full_rules) if boards is not None else {}),
    )
    if sit:
        _sit_locked(table, user=user, session_key=session_key)
    if bots:
        _fill_bots_locked(table, bot_level)
    broadcast.lobby_changed()
    return table


def _boards_fields(boards: BoardSet, rules: dict[str, Any]) -> dict[str, Any]:
    """The table's columns for a board set: its public description and its secret hands."""
    if boards.dealt is None:
        raise ValueError("a table of boards needs the boards' hands")
    deck = Rules.from_json(rules).deck
    for hands in boards.dealt:  # the caller's mistake, not a player's: IllegalAction is raised
        check_hands(hands, deck, deck_mask(deck), len(deck_cards(deck)) // 4)
    return {"boards": boards.to_json(), "board_hands": [list(h) for h in boards.dealt],
            "shuffle_seed": ""}


def seat_for(table: Table, *, user: Any = None, session_key: str = "",
             seats: list[Seat] | None = None) -> int | None:
    """The seat (0..3) this person holds at the table, or None (a spectator)."""
    for s in seats if seats is not None else seat_rows(table):
        if s.is_bot:
            continue
        if user is not None and getattr(user, "is_authenticated", False):
            if s.user_id == user.pk:
                return s.seat
        elif session_key and not s.user_id and s.session_key == session_key:
            return s.seat
    return None


@transaction.atomic
def sit(*, table_id: int, user: Any = None, session_key: str = "", client_seed: str = "") -> int:
    """Take a seat at an open table (random or next free, by the table's seating); the seat number.

    `client_seed` is the player's own seed for the shuffle (checked by `clean_client_seed`); without
    one a random seed is filled in, which he may change while the table waits. The last player
    to sit starts the match, so his seed is final at once: the sit form takes it."""
    table = lock_table(table_id)
    seat = _sit_locked(table, user=user, session_key=session_key, client_seed=client_seed)
    broadcast.lobby_changed()
    return seat


def _sit_locked(table: Table, *, user: Any, session_key: str, client_seed: str = "") -> int:
    if user is not None and not user.is_authenticated:
        user = None
    if user is None and not session_key:
        raise TableError(_("Your browser must accept cookies to sit at a table."), "no_session")
    seats = seat_rows(table)
    mine = seat_for(table, user=user, session_key=session_key, seats=seats)
    if mine is not None:
        return mine
    if table.status != TableStatus.OPEN:
        raise TableError(_("This table has already started."), "started")
    free = sorted(set(game_seats(table)) - {s.seat for s in seats})
    if not free:
        raise TableError(_("This table is full."), "full")
    number = free[0] if table.seating == Seating.IN_ORDER else _sysrand.choice(free)
    seed = {"client_seed": clean_client_seed(client_seed)} if client_seed else {}
    Seat.objects.create(
        table=table, seat=number, user=user, session_key="" if user is not None else session_key,
        name=_player_name(user), **seed,
    )
    append_event(table, "sit", None, {"seat": SEATS[number]})
    if len(free) == 1:
        _start_locked(table)
    return number


@transaction.atomic
def fill_with_bots(*, table_id: int, user: Any = None, session_key: str = "",
                   levels: str | dict[int, str] = BotLevel.BEGINNER) -> None:
    """Seat a bot on every empty seat (a seated person asks) and start the match.

    `levels` is one level for every bot, or a level by seat number (0..3); a seat it leaves out
    gets the beginner."""
    table = lock_table(table_id)
    if seat_for(table, user=user, session_key=session_key) is None:
        raise TableError(_("Only a player at this table can call in bots."), "forbidden")
    if table.status != TableStatus.OPEN:
        raise TableError(_("This table has already started."), "started")
    _fill_bots_locked(table, levels)
    broadcast.lobby_changed()


def clean_bot_level(value: Any, game: str = BILKA) -> str:
    """A bot level (`BotLevel`) that plays `game`; TableError in the player's words if it is not one."""
    if value not in BotLevel.values or value not in BOT_LEVELS.get(game, ()):
        raise TableError(_("Unknown bot level."), "invalid")
    return str(value)


def _fill_bots_locked(table: Table, levels: str | dict[int, str] = BotLevel.BEGINNER) -> None:
    seats = seat_rows(table)
    if not any(not s.is_bot for s in seats):
        raise TableError(_("A table needs at least one person."), "invalid")
    taken = {s.seat for s in seats}
    game = game_of(table.rules)
    for number in game_seats(table):
        if number not in taken:
            level = levels if isinstance(levels, str) else levels.get(number, BotLevel.BEGINNER)
            Seat.objects.create(table=table, seat=number, is_bot=True, bot_level=clean_bot_level(level, game),
                                name=_("Bot %(seat)s") % {"seat": SEATS[number]})
    _start_locked(table)


def _start_locked(table: Table) -> None:
    seats = seat_rows(table)
    boards = board_set_of(table)
    if boards is not None:  # a duplicate event's boards: no shuffle, no client seed
        _start_playing(table, seats, MatchState(Rules.from_json(table.rules), rng=_sysrand, boards=boards,
                                                players={SEATS[s.seat]: s.name for s in seats}))
        return
    if not table.shuffle_seed:  # a table opened before provable shuffles: committed from the start
        table.shuffle_seed = new_shuffle_seed()
        Table.objects.filter(pk=table.pk).update(shuffle_seed=table.shuffle_seed)
    client_seeds = tuple(s.client_seed for s in seats)
    game = game_of(table.rules)
    if game == BILKA:
        shuffle = Shuffle(client_seeds, seed=bytes.fromhex(table.shuffle_seed))
        state: AnyMatch = MatchState(Rules.from_json(table.rules), rng=_sysrand,
                                     players={SEATS[s.seat]: s.name for s in seats}, shuffle=shuffle)
    else:  # dealt by the game's own scheme, so one seed never deals the same cards to two games
        shuffle = Shuffle(client_seeds, seed=bytes.fromhex(table.shuffle_seed), scheme=GAME_SCHEMES[game])
        state = new_match(rules_from_json(table.rules), rng=_sysrand,
                          players={SEATS[s.seat]: s.name for s in seats}, shuffle=shuffle)
    _start_playing(table, seats, state)


def _start_playing(table: Table, seats: list[Seat], state: AnyMatch) -> None:
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    # grace counts from the start of the match, not from a wait at the open table
    Seat.objects.filter(table=table, disconnected_at__isnull=False).update(disconnected_at=table.started_at)
    table.record = write_game_record(state)
    set_move_clock(table, state, seats)
    append_event(table, "start", state, {}, seats)
    queue_next_task(table, state, seats)


def clean_client_seed(value: Any) -> str:
    """A client seed as the player typed it, trimmed; TableError in his language if it is not one."""
    text = value.strip() if isinstance(value, str) else value
    if not isinstance(text, str) or not text:
        raise TableError(_("Type a client seed, or leave the random one."), "invalid")
    if len(text) > CLIENT_SEED_MAX:
        raise TableError(_("A client seed has at most %(n)s characters.") % {"n": CLIENT_SEED_MAX}, "invalid")
    if client_seed_problem(text):
        raise TableError(_("A client seed may use only Latin letters, digits, spaces and the signs "
                           "on an English keyboard."), "invalid")
    return text


@transaction.atomic
def set_client_seed(*, table_id: int, client_seed: Any, user: Any = None, session_key: str = "") -> str:
    """A seated player sets his own client seed while the table waits for players; the seed kept.

    Once the match starts the seeds are final (the first deal is dealt at the start)."""
    table = lock_table(table_id)
    seats = seat_rows(table)
    mine = seat_for(table, user=user, session_key=session_key, seats=seats)
    if mine is None:
        raise TableError(_("Only a player at this table can set a client seed."), "forbidden")
    if table.status != TableStatus.OPEN:
        raise TableError(_("The match has started: the client seeds are final."), "started")
    text = clean_client_seed(client_seed)
    Seat.objects.filter(table=table, seat=mine).update(client_seed=text)
    append_event(table, "client_seed", None, {"seat": SEATS[mine]})
    return text


@transaction.atomic
def play_now(*, user: Any = None, session_key: str = "", rules: dict[str, Any] | None = None,
             bot_level: str = BotLevel.BEGINNER) -> Table:
    """"Play now vs bots": a table with the person at S and bots of `bot_level` on the other seats
    (three at Bilka and Kozyol, one at N in Bilka for two), started at once."""
    clean_bot_level(bot_level, game_of(rules))
    if user is not None and not user.is_authenticated:
        user = None
    if user is None and not session_key:
        raise TableError(_("Your browser must accept cookies to sit at a table."), "no_session")
    table = Table.objects.create(
        rules=validate_rules(rules or {}), seating=Seating.IN_ORDER, created_by=user,
        created_session="" if user is not None else session_key,
    )
    Seat.objects.create(table=table, seat=2, user=user, session_key="" if user else session_key,
                        name=_player_name(user))
    _fill_bots_locked(table, bot_level)
    return table
