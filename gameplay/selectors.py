"""Reads of the live tables: lobby lists, a viewer's snapshot, catch-up after a reconnect."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db.models import Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from gameplay.engine.boards import BoardSet, read_board_set
from gameplay.engine.cards import SEATS
from gameplay.engine.games import SEATS as GAME_SEATS
from gameplay.engine.games import AnyMatch, game_of
from gameplay.engine.record_games import read_game_record
from gameplay.engine.table_games import deals_finished, table_seats
from gameplay.models import Seat, Table, TableEvent, TableStatus
from gameplay.protocol.frames import frame_for, table_meta, view_of
from gameplay.words import bot_name

#: A client that missed more events than this gets a fresh snapshot instead of the events.
CATCH_UP_LIMIT = 50
_sysrand = secrets.SystemRandom()


def load_state(table: Table) -> AnyMatch | None:
    """The engine state of a table, rebuilt by replaying its record (None before the start).

    The stored record holds only the public part of the shuffle while the match is played; the
    state gets the secret seed from the table, so it goes on dealing by the scheme."""
    if not table.record:
        return None
    state = read_game_record(record_with_seed(table) or {}, rng=_sysrand)
    boards = getattr(state, "boards", None)
    if boards is not None:
        boards.dealt = board_set_of(table).dealt  # type: ignore[union-attr]
    return state


def board_set_of(table: Table) -> BoardSet | None:
    """The board set a duplicate event's table plays, with its secret hands (None for other tables).

    Only the engine gets the hands; the record names the boards and the commitment alone."""
    if not table.boards:
        return None
    known = read_board_set(table.boards)
    dealt = tuple((int(h[0]), int(h[1]), int(h[2]), int(h[3])) for h in table.board_hands or [])
    return BoardSet(known.numbers, commitment=known.commitment, event=known.event, dealt=dealt or None)


def record_with_seed(table: Table) -> dict[str, Any] | None:
    """The table's record with its shuffle seed in it: for the engine, or for the end of the match.

    Never hand this to a viewer while the match is played (`finished_record` is the public one)."""
    record = table.record
    if not record or "shuffle" not in record or "seed" in record["shuffle"] or not table.shuffle_seed:
        return record
    return {**record, "shuffle": {**record["shuffle"], "seed": table.shuffle_seed}}


def seat_name(seat: Seat | None) -> str | None:
    """Who sits there as the reader should read it: a bot is named in the reader's language."""
    if seat is None:
        return None
    return bot_name(seat.seat) if seat.is_bot else seat.name


def seats_of(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("seat"))


def lobby_tables(limit: int = 50) -> list[dict[str, Any]]:
    """Public open tables (waiting for players) and the latest ones being played, newest first."""
    tables = list(
        Table.objects.filter(status__in=[TableStatus.OPEN, TableStatus.PLAYING], public=True)
        .prefetch_related("seats")
        .order_by("-created_at", "-id")[:limit]
    )
    out = []
    for t in tables:
        seats = {s.seat: s for s in t.seats.all()}
        out.append({
            "id": t.pk,
            "status": t.status,
            "url": t.get_absolute_url(),
            "seats": [
                {"seat": SEATS[n], "name": seat_name(seats.get(n)),
                 "bot": seats[n].is_bot if n in seats else False}
                for n in table_seats(game_of(t.rules))
            ],
            "game": game_of(t.rules),
            "free": GAME_SEATS[game_of(t.rules)] - len(seats),
            "deck": (t.rules or {}).get("deck", "32"),
            "move_seconds": (t.rules or {}).get("move_seconds", 60),
        })
    return out


#: A table where nothing happened for this long is not "playing now" (left open, or waiting on a
#: clock far away): the home page lists only tables a visitor would see move.
STILL_FOR = timedelta(minutes=15)


def live_tables(limit: int = 5) -> list[dict[str, Any]]:
    """Public tables being played now, the latest started first: what a visitor watches from the home
    page (not a table where nothing happened for ``STILL_FOR``)."""
    recent = timezone.now() - STILL_FOR
    tables = list(
        Table.objects.filter(status=TableStatus.PLAYING, public=True)
        .annotate(last_seen=Coalesce(Max("events__created_at"), "started_at", "created_at"))
        .filter(last_seen__gte=recent)
        .prefetch_related("seats")
        .order_by("-started_at", "-id")[:limit]
    )
    return [
        {
            "id": t.pk,
            "url": t.get_absolute_url(),
            "players": [seat_name(s) for s in sorted(t.seats.all(), key=lambda s: s.seat)],
            "bots": sum(1 for s in t.seats.all() if s.is_bot),
        }
        for t in tables
    ]


def visible_to(table: Table, seat: int | None, user_id: int | None = None) -> bool:
    """Whether a viewer holding `seat` (None: not seated), signed in as `user_id` (None: not signed
    in), may see the table and its live play.

    A private table is its seated players' alone, unless it bars only some users from watching
    (`Table.spectators_barred`, a duplicate event's table): then anyone signed in and not barred
    may watch too. Every refusal is answered as if the table did not exist, so nobody learns that
    it does."""
    if table.public or seat is not None:
        return True
    barred = table.spectators_barred
    return barred is not None and user_id is not None and user_id not in barred


def snapshot(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything one viewer needs to draw the table now, filtered for that viewer."""
    seats = seats_of(table)
    state = load_state(table)
    view = None
    if state is not None:
        view = view_of(state, seat, delayed_hands=table.spectators_see_hands_delayed)
    return {
        "type": "snapshot",
        "n": table.event_seq,
        "you": {"seat": SEATS[seat] if seat is not None else None},
        "table": table_meta(table, seats),
        "view": view,
    }


def catch_up(table: Table, seat: int | None, last: int) -> list[dict[str, Any]]:
    """The frames a viewer missed after event `last`, or one fresh snapshot if that is shorter."""
    if last < 0 or last > table.event_seq or table.event_seq - last > CATCH_UP_LIMIT:
        return [snapshot(table, seat)]
    events = TableEvent.objects.filter(table=table, number__gt=last).order_by("number")
    return [frame_for(e, seat) for e in events]


def replay_record(table: Table, seat: int | None) -> tuple[dict[str, Any], int | None] | None:
    """What the table's replay may show this viewer: (record, how many deals), or None for nothing.

    A finished match: all of it. A match being played: its finished deals, to its seated players,
    and to spectators only where the table shows them the hands one deal later; never the deal
    being played (`finished_deals_record`)."""
    if table.status == TableStatus.FINISHED:
        return (table.record, None) if table.record else None
    if table.status != TableStatus.PLAYING or not table.record:
        return None
    if seat is None and not table.spectators_see_hands_delayed:
        return None
    return finished_deals_record(table.record)


def finished_deals_record(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The record of a match in progress cut to its finished deals: the deal being played (whose
    hands the stored record holds) is left out whole, and so is the shuffle seed, in case it is there."""
    finished = deals_finished(read_game_record(record))
    cut: dict[str, Any] = {k: v for k, v in record.items()
                           if k not in ("deals", "penalties", "shuffle", "end")}
    cut["deals"] = list(record.get("deals", [])[:finished])
    penalties = [p for p in record.get("penalties", []) if p.get("after_deal", 0) <= finished]
    if penalties:
        cut["penalties"] = penalties
    if "shuffle" in record:
        cut["shuffle"] = {k: v for k, v in record["shuffle"].items() if k != "seed"}
    return cut, finished


def finished_record(table: Table) -> dict[str, Any] | None:
    """The full record (every hand) of a finished match; nothing while it is being played."""
    if table.status != TableStatus.FINISHED:
        return None
    return table.record
