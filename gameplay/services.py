"""The only code that changes a table: open, sit, fill with bots, play, resign, clock, presence.

Each service is one transaction that locks the table row (`select_for_update`) and, as a second
guard that also holds on SQLite, advances `event_seq` by compare-and-set. It applies the engine,
appends numbered events, stores the record as it grows, and only on commit broadcasts the frames
and queues the bot and clock tasks (`gameplay.scheduling`).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import broadcast, rows, scheduling
from gameplay.engine import IllegalAction, MatchState, Rules, RulesError, read_record, write_record
from gameplay.engine.bot import choose_action
from gameplay.engine.cards import JACK_RANK, SEATS, SUIT_NAMES, card_from_str, card_to_str
from gameplay.engine.cards import PASS, REDEAL
from gameplay.engine.state import Phase
from gameplay.models import Seat, Seating, Table, TableEvent, TableStatus
from gameplay.protocol.frames import event_parts, grace_seconds, move_seconds, table_meta

logger = logging.getLogger(__name__)
_sysrand = secrets.SystemRandom()


class TableError(Exception):
    """A refusal with a message for the person who asked; nothing was changed."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class Conflict(Exception):
    """The compare-and-set on event_seq lost: another change committed first."""


@dataclass
class Outcome:
    """The answer to a move: accepted (with its event number) or refused (with a message)."""

    ok: bool
    event_number: int | None = None
    message: str = ""
    code: str = ""
    duplicate: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "n": self.event_number, "message": self.message, "code": self.code,
                "duplicate": self.duplicate}


# --------------------------------------------------------------------------- rules and state
def validate_rules(data: Any) -> dict[str, Any]:
    """The complete rules object (every parameter explicit); RulesError names the key at fault."""
    try:
        return Rules.from_json(data).to_json()
    except TypeError as exc:  # pragma: no cover - from_json checks keys first
        raise RulesError("rules", str(exc)) from None


def load_state(table: Table) -> MatchState | None:
    """The engine state of a table, rebuilt by replaying its record (None before the start)."""
    if not table.record:
        return None
    return read_record(table.record, rng=_sysrand)


# The states of tables this process moved last, by table id: ((event_seq, invite token), state). A
# hit saves replaying the record, which grows with the match (hundreds of plays by its end). The
# database still owns the state: an entry is used only under the table's row lock and only if its
# event number and the table's random invite token are the table's (a table id can come again, as
# in a test database that was emptied), it is taken out while a move works on it and put back
# (with the new number) only after that move commits, so a refused or rolled-back move leaves
# nothing behind.
_STATES: dict[int, tuple[tuple[int, str], MatchState]] = {}
_STATES_LOCK = threading.Lock()
STATE_CACHE_SIZE = 2000


def _take_state(table: Table) -> MatchState | None:
    """The state of a locked table: from this process's cache when it is current, else replayed."""
    with _STATES_LOCK:
        hit = _STATES.pop(table.pk, None)
    if hit is not None and hit[0] == (table.event_seq, table.invite_token):
        return hit[1]
    return load_state(table)


def _keep_on_commit(table: Table, state: MatchState) -> None:
    """Cache the state a move left once that move commits (a finished match is not kept)."""
    if state.phase != Phase.OVER:
        table_id, key = table.pk, (table.event_seq, table.invite_token)
        transaction.on_commit(lambda: _keep_state(table_id, key, state))


def _keep_state(table_id: int, key: tuple[int, str], state: MatchState) -> None:
    """After commit: remember `state` as the table's at `key` (oldest entries go first)."""
    with _STATES_LOCK:
        _STATES.pop(table_id, None)
        _STATES[table_id] = (key, state)
        while len(_STATES) > STATE_CACHE_SIZE:
            del _STATES[next(iter(_STATES))]


def seat_rows(table: Table) -> list[Seat]:
    return rows.seats_of(table)


def _player_name(user: Any) -> str:
    player = getattr(user, "player", None) if user is not None else None
    if player is not None and player.display_name:
        return player.display_name
    return user.get_username() if user is not None else _("Guest")


# --------------------------------------------------------------------------- events
def _append_event(table: Table, kind: str, state: MatchState | None, public: dict[str, Any],
                  seats: list[Seat] | None = None, *, move_id: str = "", move_seat: int | None = None) -> TableEvent:
    """Number and store one event, advancing `event_seq` by compare-and-set, and broadcast it on commit.

    `move_id` / `move_seat`: the client's id of the move that made the event (its receipt)."""
    if seats is None:
        seats = seat_rows(table)
    number = table.event_seq + 1
    private, spectator = event_parts(state, delayed_hands=table.spectators_see_hands_delayed)
    public = {**public, "table": table_meta(table, seats)}
    if not rows.advance_table(table, number):
        raise Conflict
    table.event_seq = number
    event = rows.insert_event(TableEvent(
        table=table, number=number, kind=kind, public=public, private=private, spectator=spectator,
        move_id=move_id or "", move_seat=move_seat if move_id else None,
    ))
    transaction.on_commit(lambda: broadcast.send_event(event), robust=True)
    return event


def _after_change(table: Table, state: MatchState | None, seats: list[Seat]) -> None:
    """Set the clock of the seat to move and queue its task (a bot's move or the move clock)."""
    table.move_deadline = None
    if table.status != TableStatus.PLAYING or state is None or state.to_move is None:
        return
    mover = seats[state.to_move]
    if mover.is_bot:
        return
    table.move_deadline = timezone.now() + timedelta(seconds=move_seconds(table))


def _schedule(table: Table, state: MatchState | None, seats: list[Seat]) -> None:
    if table.status != TableStatus.PLAYING or state is None or state.to_move is None:
        return
    table_id, expected = table.pk, table.event_seq
    if seats[state.to_move].is_bot:
        transaction.on_commit(lambda: scheduling.queue_bot_move(table_id, expected), robust=True)
    else:
        seconds = move_seconds(table)
        transaction.on_commit(lambda: scheduling.queue_clock(table_id, expected, seconds), robust=True)


def _lock(table_id: int) -> Table:
    table = rows.lock_table(table_id)
    if table is None:
        raise TableError(_("This table does not exist."), "missing")
    return table


# --------------------------------------------------------------------------- opening and sitting
@transaction.atomic
def create_table(
    *,
    rules: dict[str, Any] | None,
    seating: str = Seating.RANDOM,
    spectators_see_hands_delayed: bool = False,
    user: Any = None,
    session_key: str = "",
    sit: bool = True,
    bots: bool = False,
) -> Table:
    """Open a table; the creator sits down at once unless `sit` is false; `bots` fills the rest."""
    full_rules = validate_rules(rules or {})
    if seating not in Seating.values:
        raise TableError(_("Unknown seating."), "invalid")
    if user is not None and not user.is_authenticated:
        user = None
    table = Table.objects.create(
        rules=full_rules,
        seating=seating,
        spectators_see_hands_delayed=spectators_see_hands_delayed,
        created_by=user,
        created_session="" if user is not None else session_key,
    )
    if sit:
        _sit_locked(table, user=user, session_key=session_key)
    if bots:
        _fill_bots_locked(table)
    broadcast.lobby_changed()
    return table


def seat_for(table: Table, *, user: Any = None, session_key: str = "", seats: list[Seat] | None = None) -> int | None:
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
def sit(*, table_id: int, user: Any = None, session_key: str = "") -> int:
    """Take a seat at an open table (random or next free, by the table's seating); the seat number."""
    table = _lock(table_id)
    seat = _sit_locked(table, user=user, session_key=session_key)
    broadcast.lobby_changed()
    return seat


def _sit_locked(table: Table, *, user: Any, session_key: str) -> int:
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
    free = sorted(set(range(4)) - {s.seat for s in seats})
    if not free:
        raise TableError(_("This table is full."), "full")
    number = free[0] if table.seating == Seating.IN_ORDER else _sysrand.choice(free)
    Seat.objects.create(
        table=table, seat=number, user=user, session_key="" if user is not None else session_key,
        name=_player_name(user),
    )
    _append_event(table, "sit", None, {"seat": SEATS[number]})
    if len(free) == 1:
        _start_locked(table)
    return number


@transaction.atomic
def fill_with_bots(*, table_id: int, user: Any = None, session_key: str = "") -> None:
    """Seat the beginner bot on every empty seat (a seated person asks) and start the match."""
    table = _lock(table_id)
    if seat_for(table, user=user, session_key=session_key) is None:
        raise TableError(_("Only a player at this table can call in bots."), "forbidden")
    if table.status != TableStatus.OPEN:
        raise TableError(_("This table has already started."), "started")
    _fill_bots_locked(table)
    broadcast.lobby_changed()


def _fill_bots_locked(table: Table) -> None:
    seats = seat_rows(table)
    if not any(not s.is_bot for s in seats):
        raise TableError(_("A table needs at least one person."), "invalid")
    taken = {s.seat for s in seats}
    for number in range(4):
        if number not in taken:
            Seat.objects.create(table=table, seat=number, is_bot=True, name=_("Bot %(seat)s") % {"seat": SEATS[number]})
    _start_locked(table)


def _start_locked(table: Table) -> None:
    seats = seat_rows(table)
    state = MatchState(Rules.from_json(table.rules), rng=_sysrand, players={SEATS[s.seat]: s.name for s in seats})
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    # grace counts from the start of the match, not from a wait at the open table
    Seat.objects.filter(table=table, disconnected_at__isnull=False).update(disconnected_at=table.started_at)
    table.record = write_record(state)
    _after_change(table, state, seats)
    _append_event(table, "start", state, {}, seats)
    _schedule(table, state, seats)


@transaction.atomic
def play_now(*, user: Any = None, session_key: str = "", rules: dict[str, Any] | None = None) -> Table:
    """"Play now vs bots": a table with the person at S and three bots, started at once."""
    return _play_now(user, session_key, rules)


def _play_now(user: Any, session_key: str, rules: dict[str, Any] | None) -> Table:
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
    _fill_bots_locked(table)
    return table


# --------------------------------------------------------------------------- moves
def parse_action(text: Any) -> int:
    if text == "redeal":
        return REDEAL
    if text == "pass":
        return PASS
    try:
        return card_from_str(text)
    except ValueError:
        raise TableError(_("That is not a card."), "invalid") from None


def _why_refused(state: MatchState, seat: int, action: int) -> str:
    """A refusal in the player's language; it names only his own card and the led suit."""
    if state.phase == Phase.REDEAL:
        return _("First decide about a redeal: ask for one or pass.")
    if action in (REDEAL, PASS):
        return _("A redeal may only be asked for before the first card is played.")
    if not state.hands[seat] >> action & 1:
        return _("You do not hold %(card)s.") % {"card": card_to_str(action)}
    trick = state.trick
    if trick:
        lead = trick[0]
        if lead % 9 == JACK_RANK or lead // 9 == state.trump:
            return _("You must play a trump.")
        return _("You must follow suit (%(suit)s).") % {"suit": _suit_name(lead // 9)}
    return _("You may not discard that ace: its suit has not been led yet.")


def _suit_name(suit: int) -> str:
    names = {"clubs": _("clubs"), "diamonds": _("diamonds"), "hearts": _("hearts"), "spades": _("spades")}
    return names[SUIT_NAMES[suit]]


def play(
    *,
    table_id: int,
    seat: int,
    action: Any,
    expected_event: int | None,
    client_move_id: str | None = None,
) -> Outcome:
    """Play a card (`"JC"`) or decide a redeal (`"redeal"`, `"pass"`) for `seat` at a table.

    `expected_event` is the number of the last event the player saw: a move made against an
    older picture of the table is refused. A repeated `client_move_id` returns the first outcome
    and applies nothing.
    """
    try:
        with transaction.atomic():
            table = _lock(table_id)
            try:
                _check_move(table, seat, expected_event)
                state = _take_state(table)
                assert state is not None  # noqa: S101 - a playing table has a record
                if state.to_move != seat:
                    raise TableError(_("It is not your turn."), "not_your_turn")
            except TableError:
                # A resend of a move already applied lands here (the table has moved on): it is
                # answered from its receipt. Only refusals pay for the look-up.
                duplicate = _receipt(table, seat, client_move_id)
                if duplicate is not None:
                    return duplicate
                raise
            if expected_event is None:
                duplicate = _receipt(table, seat, client_move_id)
                if duplicate is not None:
                    return duplicate
            code = parse_action(action)
            event = _apply_locked(table, state, seat, code, move_id=client_move_id or "")
            _keep_on_commit(table, state)
            return Outcome(ok=True, event_number=event.number)
    except TableError as exc:
        return Outcome(ok=False, message=exc.message, code=exc.code)
    except (Conflict, IntegrityError):
        return Outcome(ok=False, message=_("The table has moved on; here is the current position."), code="stale")


def _check_move(table: Table, seat: Any, expected_event: int | None) -> None:
    if table.status == TableStatus.FINISHED:
        raise TableError(_("The match at this table is over."), "finished")
    if table.status != TableStatus.PLAYING:
        raise TableError(_("The match has not started yet."), "not_started")
    if expected_event is not None and expected_event != table.event_seq:
        raise TableError(_("The table has moved on; here is the current position."), "stale")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise TableError(_("You are not seated at this table."), "forbidden")


def _receipt(table: Table, seat: int, client_move_id: str | None) -> Outcome | None:
    """The first outcome of a move id already applied, or None."""
    if not client_move_id:
        return None
    receipt = TableEvent.objects.filter(table=table, move_id=client_move_id).values_list("move_seat", "number").first()
    if receipt is None:
        return None
    if receipt[0] != seat:
        raise TableError(_("That move id belongs to another seat."), "forbidden")
    return Outcome(ok=True, event_number=receipt[1], duplicate=True)


def _apply_locked(table: Table, state: MatchState, seat: int, action: int, *, move_id: str = "") -> TableEvent:
    deals_before = len(state.deals)
    finished_before = state.deals_finished
    trick_before = len(state.trick)
    leader_before = state.trick_leader
    try:
        state.apply(action, seat=seat)
    except IllegalAction:
        raise TableError(_why_refused(state, seat, action), "illegal") from None
    public: dict[str, Any] = {"seat": SEATS[seat], "action": _public_action(action)}
    if action == PASS:
        public["seat"] = None  # passing tells that the hand qualified for a redeal
    if action not in (REDEAL, PASS) and trick_before == 3:
        log = state.deals[finished_before] if state.deals_finished > finished_before else state.deals[-1]
        at = len(log.plays) - 4
        public["trick"] = {"leader": SEATS[leader_before], "cards": [card_to_str(c) for c in log.plays[at:]],
                           "winner": SEATS[log.trick_winners[-1]]}
    if state.deals_finished > finished_before:
        log = state.deals[finished_before]
        public["deal_end"] = {
            "outcome": log.outcome,
            "points": None if log.redeal is not None else {"NS": log.points[0], "EW": log.points[1]},
            "eyes": {"NS": log.eyes[0], "EW": log.eyes[1]},
            "new_deal": len(state.deals) > deals_before,
        }
    table.record = write_record(state)
    seats = seat_rows(table)
    if state.phase == Phase.OVER:
        return _finish_locked(table, state, seats, "eyes", public, move_id=move_id, move_seat=seat)
    _after_change(table, state, seats)
    event = _append_event(table, "move", state, public, seats, move_id=move_id, move_seat=seat)
    _schedule(table, state, seats)
    return event


def _public_action(action: int) -> str:
    return "redeal" if action == REDEAL else "pass" if action == PASS else card_to_str(action)


def _finish_locked(table: Table, state: MatchState, seats: list[Seat], reason: str,
                   public: dict[str, Any], *, move_id: str = "", move_seat: int | None = None) -> TableEvent:
    from config.notify import notify_user

    table.status = TableStatus.FINISHED
    table.finished_at = timezone.now()
    table.move_deadline = None
    table.record = write_record(state)
    winner = "NS" if state.winner == 0 else "EW"
    table.result = {
        "winner": winner,
        "reason": reason,
        "seat": SEATS[state.end[1]] if state.end else None,
        "score": {"NS": state.capped_score[0], "EW": state.capped_score[1]},
    }
    event = _append_event(table, "end", state, {**public, "result": table.result}, seats,
                          move_id=move_id, move_seat=move_seat)
    for s in seats:
        if s.user_id:
            notify_user(s.user_id, {"type": "table.finished", "table": table.pk, "result": table.result,
                                    "url": table.get_absolute_url()})
    transaction.on_commit(broadcast.lobby_changed, robust=True)
    return event


@transaction.atomic
def resign(*, table_id: int, seat: int) -> Outcome:
    """The player at `seat` gives up: his pair loses the match."""
    table = _lock(table_id)
    if table.status != TableStatus.PLAYING:
        return Outcome(ok=False, message=_("The match at this table is over."), code="finished")
    state = load_state(table)
    assert state is not None  # noqa: S101
    state.end_match("resign", seat)
    event = _finish_locked(table, state, seat_rows(table), "resign", {"seat": SEATS[seat]})
    return Outcome(ok=True, event_number=event.number)


# --------------------------------------------------------------------------- tasks' services
def _current_table(table_id: int, expected_event: int) -> Table | None:
    """The table, its row locked, if it is still playing at `expected_event`; else None.

    A task's check that it is not stale. Most clock tasks are (the move came), so the check is
    first made without a lock: locking the row would make that table's moves wait and cost
    PostgreSQL a transaction ID and a WAL flush. The event number only grows, so a table read as
    moved on stays so; one read as current is read again under the lock."""
    row = Table.objects.filter(pk=table_id).values_list("status", "event_seq").first()
    if row is None or row != (TableStatus.PLAYING, expected_event):
        return None
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or (table.status, table.event_seq) != (TableStatus.PLAYING, expected_event):
        return None
    return table


@transaction.atomic
def bot_move(*, table_id: int, expected_event: int, rng: random.Random | None = None) -> str:
    """Let the bot to move play, if the table is still where the task was queued; else nothing."""
    table = _current_table(table_id, expected_event)
    if table is None:
        return "stale"
    state = _take_state(table)
    if state is None or state.to_move is None:
        return "stale"
    seat = Seat.objects.filter(table=table, seat=state.to_move).first()
    if seat is None or not seat.is_bot:
        return "not_a_bot"
    action = choose_action(state.observation(state.to_move), rng or random.Random())  # noqa: S311 - a bot, not a secret
    try:
        _apply_locked(table, state, state.to_move, action)
    except Conflict:
        return "stale"
    _keep_on_commit(table, state)
    return "moved"


@transaction.atomic
def clock_expired(*, table_id: int, expected_event: int) -> str:
    """The move clock of the seat to move ran out: spend its disconnection grace, or forfeit."""
    table = _current_table(table_id, expected_event)
    if table is None:
        return "stale"
    if table.move_deadline is None:
        return "stale"
    now = timezone.now()
    left = (table.move_deadline - now).total_seconds()
    if left > 0.05:
        table_id_, seq = table.pk, table.event_seq
        transaction.on_commit(lambda: scheduling.queue_clock(table_id_, seq, left), robust=True)
        return "early"
    state = load_state(table)
    assert state is not None and state.to_move is not None  # noqa: S101
    seats = seat_rows(table)
    mover = seats[state.to_move]
    if not mover.connected and mover.disconnected_at is not None:
        used = mover.grace_used + (now - mover.disconnected_at).total_seconds()
        grace_left = grace_seconds() - used
        if grace_left > 0.05:
            Table.objects.filter(pk=table.pk).update(move_deadline=now + timedelta(seconds=grace_left))
            table_id_, seq = table.pk, table.event_seq
            transaction.on_commit(lambda: scheduling.queue_clock(table_id_, seq, grace_left), robust=True)
            transaction.on_commit(lambda: broadcast.send_presence(table_id_), robust=True)
            return "grace"
    state.end_match("timeout", state.to_move)
    _finish_locked(table, state, seats, "timeout", {"seat": SEATS[mover.seat]})
    return "timeout"


@transaction.atomic
def connection_changed(*, table_id: int, seat: int, delta: int = 0, channel_name: str = "",
                       server_id: str | None = None, dead_servers: tuple[str, ...] | list[str] = (),
                       skip_locked: bool = False) -> bool:
    """A socket of a seated player opened (+1) or closed (-1) in server process `server_id` (this
    one by default), and/or the sockets that dead server processes left behind are dropped
    (`dead_servers`, from `gameplay.presence.reap_dead_servers`): keep one `SeatConnection` row per
    socket (by its channel name), the count equal to the rows, the disconnection time and the grace.

    Idempotent: opening a recorded socket again only moves it to `server_id` (a process whose
    heartbeat lapsed records its sockets under a new id), closing one already dropped changes
    nothing, and nothing changed sends nothing. With `skip_locked`, a seat another
    transaction holds is left for the next try. Returns whether the seat changed.
    """
    from gameplay.models import SeatConnection
    from gameplay.presence import SERVER_ID

    # the seat row only: Seat's default ordering joins the table, whose lock would make the reaper
    # skip every seat of a table while one of them (or a move) is being done
    row = (Seat.objects.select_for_update(skip_locked=skip_locked, of=("self",))
           .filter(table_id=table_id, seat=seat, is_bot=False).order_by("pk").first())
    if row is None:
        return False
    server_id = server_id or SERVER_ID
    links = SeatConnection.objects.filter(seat=row)
    if delta > 0 and channel_name and links.filter(channel_name=channel_name).exists():
        links.filter(channel_name=channel_name).exclude(server_id=server_id).update(server_id=server_id)
    elif delta > 0:
        SeatConnection.objects.create(seat=row, server_id=server_id,
                                      channel_name=channel_name or f"direct-{secrets.token_hex(8)}")
    elif delta < 0 and channel_name:
        links.filter(channel_name=channel_name).delete()
    elif delta < 0:
        oldest = links.filter(server_id=server_id).order_by("opened_at", "id").values("pk")[:1]
        SeatConnection.objects.filter(pk__in=oldest).delete()
    if dead_servers:
        links.filter(server_id__in=list(dead_servers)).delete()
    now = timezone.now()
    before = row.connections
    row.connections = links.count()
    if row.connections == before:
        return False
    playing = Table.objects.filter(pk=table_id, status=TableStatus.PLAYING).exists()
    if before == 0 and row.connections > 0 and row.disconnected_at is not None and playing:
        row.grace_used = min(grace_seconds(), row.grace_used + (now - row.disconnected_at).total_seconds())
    if row.connections > 0:
        row.disconnected_at = None
    elif before > 0 and row.connections == 0:
        row.disconnected_at = now
    row.save(update_fields=["connections", "grace_used", "disconnected_at"])
    transaction.on_commit(lambda: broadcast.send_presence(table_id), robust=True)
    return True
