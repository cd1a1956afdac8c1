"""Per-viewer views: the one place that decides what a seat or a spectator may see.

Every frame a client gets — an event, the first snapshot, a catch-up after a reconnect, the
JSON embedded in the table page, an answer to a move — is built here from the engine's
`observation(seat)` / `spectator_observation()`, which never hold another seat's unplayed card.
Cards appear only in the notation of RULES.md (`JC`, `TH`); card ints never leave the server.

A stored `TableEvent` keeps the parts apart (`public`, `private[seat]`, `spectator`), so building a
viewer's frame is a dictionary look-up, not a filter that could forget a field.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from gameplay.engine.cards import SEATS, card_to_str, hand_sort_key, mask_cards
from gameplay.engine.games import AnyMatch, game_of
from gameplay.engine.shuffle import GAME_SCHEMES, commitment_of
from gameplay.engine.table_games import table_seats, view_json
from gameplay.words import bot_name

SPECTATOR = None


def view_of(state: AnyMatch, seat: int | None, *, delayed_hands: bool = False) -> dict[str, Any]:
    """The game as `seat` (0..3) sees it, or a spectator (`seat` None), whatever the table's game."""
    view = view_json(state, seat)  # in the redeal phase nobody is "to move": all four answer at once
    view["can_redeal"] = "redeal" in view["legal"]
    view["review_tricks"] = state.rules.review_tricks
    direction = getattr(state.rules, "direction", "clockwise")  # Bilka for two: N and S in turn
    view["order"] = "".join(SEATS[s] for s in table_seats(state)) if len(table_seats(state)) == 2 else (
        "NESW" if direction == "clockwise" else "NWSE")
    if seat is None and delayed_hands:
        view["previous_hands"] = previous_hands(state)
    return view


def previous_hands(state: AnyMatch) -> dict[str, list[str]] | None:
    """The hands as dealt of the last finished deal (the one-deal delay of the spectator setting)."""
    finished = [d for d in state.deals if d.outcome is not None]
    if not finished:
        return None
    log = finished[-1]
    return {
        SEATS[seat]: [card_to_str(c) for c in sorted(mask_cards(log.hands[p]), key=hand_sort_key)]
        for p, seat in enumerate(table_seats(state))
    }


def event_parts(
    state: AnyMatch | None, *, delayed_hands: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(private, spectator) parts of an event: each seat's view and the spectators' view."""
    if state is None:
        return {}, {}
    private = {SEATS[s]: view_of(state, s) for s in table_seats(state)}
    return private, view_of(state, None, delayed_hands=delayed_hands)


def frame_for(event: Any, seat: int | None) -> dict[str, Any]:
    """The frame of one stored event for one viewer (a seat 0..3 or a spectator)."""
    frame: dict[str, Any] = {"type": "event", "n": event.number, "kind": event.kind, **event.public}
    if seat is None:
        frame["view"] = event.spectator or None
    else:
        frame["view"] = event.private.get(SEATS[seat])
    return frame


def seats_meta(table: Any, seats: list[Any]) -> list[dict[str, Any]]:
    """Who sits where, bots and their levels, connection and disconnection grace left: public."""
    total = grace_seconds()
    now = timezone.now()
    out = []
    for s in seats:
        used = s.grace_used
        if not s.connected and s.disconnected_at is not None and table.status == "playing":
            used += (now - s.disconnected_at).total_seconds()
        out.append({
            "seat": SEATS[s.seat],
            "name": bot_name(s.seat) if s.is_bot else s.name,
            "bot": s.is_bot,
            "level": s.bot_level if s.is_bot else None,
            "connected": s.connected,
            "grace_left": max(0, round(total - used)) if not s.is_bot else None,
        })
    return out


def table_meta(table: Any, seats: list[Any]) -> dict[str, Any]:
    deadline_in = None
    if table.move_deadline is not None and table.status == "playing":
        deadline_in = max(0.0, round((table.move_deadline - timezone.now()).total_seconds(), 1))
    return {
        "id": table.pk,
        "status": table.status,
        "seats": seats_meta(table, seats),
        "deadline_in": deadline_in,
        "move_seconds": move_seconds(table),
        "result": table.result,
        "shuffle": shuffle_meta(table, seats),
        # a duplicate event's table: the board numbers of its set (public; the hands never are)
        **({"boards": list(table.boards.get("boards") or [])} if getattr(table, "boards", None) else {}),
    }


def shuffle_meta(table: Any, seats: list[Any]) -> dict[str, Any] | None:
    """The fair shuffle as everyone may see it: the commitment and the client seeds from the start,
    the seed itself only once the table is finished (None for a table dealt before the scheme)."""
    seed = table.shuffle_seed
    if not seed or (table.status != "open" and not (table.record or {}).get("shuffle")):
        return None
    return {
        "scheme": GAME_SCHEMES[game_of(table.rules)],
        "commitment": commitment_of(bytes.fromhex(seed)),
        "client_seeds": {SEATS[s.seat]: s.client_seed for s in seats},
        "seed": seed if table.status == "finished" else None,
    }


def move_seconds(table: Any) -> float:
    """The time per move of this table in real seconds (tests scale it; the rules never change)."""
    rules = table.rules or {}
    return float(rules.get("move_seconds", 60)) * clock_scale()


def redeal_seconds(table: Any) -> float:
    """How long the redeal question of this table stays open, in real seconds."""
    return float(getattr(table, "redeal_seconds", 15) or 15) * clock_scale()


def grace_seconds() -> float:
    return float(getattr(settings, "GAMEPLAY_GRACE_SECONDS", 120)) * clock_scale()


def clock_scale() -> float:
    return float(getattr(settings, "GAMEPLAY_CLOCK_SCALE", 1.0))
