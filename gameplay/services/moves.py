"""Playing a card or deciding a redeal at a live table: checked, applied, answered once per move id."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from gameplay.engine import IllegalAction, Phase
from gameplay.engine.cards import (
    DIAMONDS,
    JACK_RANK,
    PASS,
    REDEAL,
    SEATS,
    SUIT_NAMES,
    card_from_str,
    card_to_str,
)
from gameplay.engine.games import AnyMatch
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.kozyol_rules import ladder_of
from gameplay.engine.record_games import write_game_record
from gameplay.engine.table_games import deals_finished, engine_player, mover, sides, table_seat, table_seats
from gameplay.models import Table, TableEvent, TableStatus
from gameplay.services.changes import (
    Conflict,
    Outcome,
    TableError,
    append_event,
    lock_table,
    queue_next_task,
    seat_rows,
    set_move_clock,
)
from gameplay.services.ending import finish_locked
from gameplay.services.state_cache import keep_on_commit, take_state


def parse_action(text: Any) -> int:
    if text == "redeal":
        return REDEAL
    if text == "pass":
        return PASS
    try:
        return card_from_str(text)
    except ValueError:
        raise TableError(_("That is not a card."), "invalid") from None


def _why_refused(state: AnyMatch, seat: int, action: int) -> str:
    """A refusal in the player's language; it names only his own card and the led suit."""
    if state.phase == Phase.REDEAL:
        if action == REDEAL and seat in state.redeal_pending:
            return _("Your hand does not allow a redeal.")
        if seat not in state.redeal_pending:
            return _("You have already answered; waiting for the others.")
        return _("First answer: play this hand or ask for a redeal.")
    if action in (REDEAL, PASS):
        return _("A redeal may only be asked for before the first card is played.")
    if not state.hands[engine_player(state, seat)] >> action & 1:
        return _("You do not hold %(card)s.") % {"card": card_to_str(action)}
    if isinstance(state, KozyolMatchState):
        return _why_refused_kozyol(state, seat, action)
    trick = state.trick
    if trick:
        lead = trick[0]
        if lead % 9 == JACK_RANK or lead // 9 == state.trump:
            return _("You must play a trump.")
        return _("You must follow suit (%(suit)s).") % {"suit": _suit_name(lead // 9)}
    return _("You may not discard that ace: its suit has not been led yet.")


def _why_refused_kozyol(state: KozyolMatchState, seat: int, action: int) -> str:
    """Kozyol's refusals of a card he holds: the шамок, queens, jacks and diamonds are all trumps."""
    trick = state.trick
    if not trick:
        return _("Your pair deals: lead a plain card while you hold one.")
    ladder = ladder_of(state.rules)
    lead = ladder.lead_key[trick[0]]
    if state.hands[seat] & ladder.follow[lead]:
        if lead == DIAMONDS:
            return _("You must play a trump.")
        return _("You must follow suit (%(suit)s).") % {"suit": _suit_name(lead)}
    return _("You may not discard that ace: its suit has not been led yet.")


def _suit_name(suit: int) -> str:
    names = {"clubs": _("clubs"), "diamonds": _("diamonds"), "hearts": _("hearts"), "spades": _("spades")}
    return names[SUIT_NAMES[suit]]


def play(
    *,
    table_id: int,
    seat: int,
    action: Any,
    expected_event: int,
    client_move_id: str | None = None,
) -> Outcome:
    """Play a card (`"JC"`) or decide a redeal (`"redeal"`, `"pass"`) for `seat` at a table.

    `expected_event` is the number of the last event the player saw: a move made against an
    older picture of the table is refused, and so is one without that number. An answer to the
    redeal question may carry the number of the event that put it, or of any event since (the
    other seats' answers), so four answers in any order are all accepted. A repeated
    `client_move_id` returns the first outcome and applies nothing.
    """
    try:
        with transaction.atomic():
            table = lock_table(table_id)
            try:
                _check_move(table, seat, expected_event)
                state = take_state(table)
                assert state is not None  # noqa: S101 - a playing table has a record
                if state.phase != Phase.REDEAL and mover(state) != seat:
                    raise TableError(_("It is not your turn."), "not_your_turn")
                if state.phase == Phase.REDEAL and seat not in state.redeal_pending:
                    raise TableError(_("You have already answered; waiting for the others."), "answered")
            except TableError:
                # A resend of a move already applied lands here (the table has moved on): it is
                # answered from its receipt. Only refusals pay for the look-up.
                duplicate = _receipt(table, seat, client_move_id)
                if duplicate is not None:
                    return duplicate
                raise
            code = parse_action(action)
            event = apply_locked(table, state, seat, code, move_id=client_move_id or "")
            keep_on_commit(table, state)
            return Outcome(ok=True, event_number=event.number)
    except TableError as exc:
        return Outcome(ok=False, message=exc.message, code=exc.code)
    except (Conflict, IntegrityError):
        return Outcome(ok=False, message=_("The table has moved on; here is the current position."),
                       code="stale")


def _check_move(table: Table, seat: Any, expected_event: Any) -> None:
    if isinstance(expected_event, bool) or not isinstance(expected_event, int):
        raise TableError(_("A move carries the number of the last event seen."), "invalid")
    if table.status == TableStatus.FINISHED:
        raise TableError(_("The match at this table is over."), "finished")
    if table.status != TableStatus.PLAYING:
        raise TableError(_("The match has not started yet."), "not_started")
    opened = table.decision_event
    current = expected_event == table.event_seq or (
        opened is not None and opened <= expected_event <= table.event_seq)
    if not current:
        raise TableError(_("The table has moved on; here is the current position."), "stale")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise TableError(_("You are not seated at this table."), "forbidden")


def _receipt(table: Table, seat: int, client_move_id: str | None) -> Outcome | None:
    """The first outcome of a move id already applied, or None."""
    if not client_move_id:
        return None
    receipt = (TableEvent.objects.filter(table=table, move_id=client_move_id)
               .values_list("move_seat", "number").first())
    if receipt is None:
        return None
    if receipt[0] != seat:
        raise TableError(_("That move id belongs to another seat."), "forbidden")
    return Outcome(ok=True, event_number=receipt[1], duplicate=True)


def apply_locked(table: Table, state: AnyMatch, seat: int, action: int, *, move_id: str = "") -> TableEvent:
    """Apply `action` of `seat` to the locked table's state and append its event (the last one
    ends the match); TableError in the player's words if the rules do not allow it."""
    deals_before = len(state.deals)
    finished_before = deals_finished(state)
    trick_before = len(state.trick)
    leader_before = state.trick_leader
    per_trick = len(table_seats(state))
    try:
        state.apply(action, seat=engine_player(state, seat))
    except IllegalAction:
        raise TableError(_why_refused(state, seat, action), "illegal") from None
    # Every seat answers the redeal question, so who answered "play" tells nothing of his hand.
    public: dict[str, Any] = {"seat": SEATS[seat], "action": public_action(action)}
    if action not in (REDEAL, PASS) and trick_before == per_trick - 1:
        log = state.deals[finished_before] if deals_finished(state) > finished_before else state.deals[-1]
        at = len(log.plays) - per_trick
        public["trick"] = {"leader": SEATS[table_seat(state, leader_before)],
                           "cards": [card_to_str(c) for c in log.plays[at:]],
                           "winner": SEATS[table_seat(state, log.trick_winners[-1])]}
    if deals_finished(state) > finished_before:
        log = state.deals[finished_before]
        first, second = sides(state)
        public["deal_end"] = {
            "outcome": log.outcome,
            "points": None if getattr(log, "redeal", None) is not None else {first: log.points[0],
                                                                             second: log.points[1]},
            "eyes": {first: log.eyes[0], second: log.eyes[1]},
            "new_deal": len(state.deals) > deals_before,
        }
        catch = getattr(log, "catch", None)  # Kozyol's: the шамок caught the queen of clubs
        if catch is not None:
            public["deal_end"]["catch"] = SEATS[catch]
    table.record = write_game_record(state)
    seats = seat_rows(table)
    if state.phase == Phase.OVER:
        return finish_locked(table, state, seats, "eyes", public, move_id=move_id, move_seat=seat)
    set_move_clock(table, state, seats, opened=len(state.deals) > deals_before)
    event = append_event(table, "move", state, public, seats, move_id=move_id, move_seat=seat)
    queue_next_task(table, state, seats)
    return event


def public_action(action: int) -> str:
    """An action as every viewer's event names it: a card (`JC`), `redeal` or `pass`."""
    return "redeal" if action == REDEAL else "pass" if action == PASS else card_to_str(action)
