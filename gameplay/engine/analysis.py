"""The solver's answers about a bilka-record/1 record: bilka-solve/1 (one position) and
bilka-analysis/1 (every card of every played deal against best play).

The record is validated by replaying it (`record.read_record`), so the solver only ever sees
positions the scorer accepts; a redealt deal or a card beyond the deal is a RecordError.
"""

from __future__ import annotations

from typing import Any

from gameplay.engine.cards import PAIRS, SEATS, card_to_str
from gameplay.engine.deal import DealLog
from gameplay.engine.deal_position import Position
from gameplay.engine.errors import RecordError
from gameplay.engine.record import read_record
from gameplay.engine.rules import Rules
from gameplay.engine.solver import Solver

SOLVE_FORMAT = "bilka-solve/1"
ANALYSIS_FORMAT = "bilka-analysis/1"
TOTAL = 120  # every deck totals 120 points


def _pairs(ns: int) -> dict[str, int]:
    return {PAIRS[0]: ns, PAIRS[1]: TOTAL - ns}


def _next_seat(rules: Rules) -> tuple[int, int, int, int]:
    return (1, 2, 3, 0) if rules.direction == "clockwise" else (3, 0, 1, 2)


def start_position(rules: Rules, log: DealLog) -> Position:
    """A played deal before its first card."""
    return Position.start(log.hands, log.trump, log.leader, ace_discard_ban=rules.ace_discard_ban,
                          next_seat=_next_seat(rules))


def _played_deal(data: str | bytes | dict[str, Any], deal: int) -> tuple[Rules, DealLog]:
    state = read_record(data)
    if not 1 <= deal <= len(state.deals):
        raise RecordError(f"there is no deal {deal}: the record has {len(state.deals)}")
    log = state.deals[deal - 1]
    if log.redeal is not None:
        raise RecordError("the deal was redealt: no card was played", deal)
    return state.rules, log


def solve_record(data: str | bytes | dict[str, Any], deal: int, ply: int) -> dict[str, Any]:
    """bilka-solve/1: par and every legal card's value after the first `ply` cards of `deal`."""
    rules, log = _played_deal(data, deal)
    if not 0 <= ply <= len(log.plays):
        raise RecordError(f"ply {ply} is beyond the deal's {len(log.plays)} cards", deal)
    pos = start_position(rules, log)
    for card in log.plays[:ply]:
        pos = pos.play(card)
    if pos.over:
        raise RecordError(f"the deal is over after ply {ply}: nobody is to move", deal)
    solver = Solver(pos.trump, pos.next_seat)
    values = solver.card_values(pos)
    par = max(values.values()) if pos.to_move & 1 == 0 else min(values.values())
    return {
        "format": SOLVE_FORMAT,
        "deal": deal,
        "ply": ply,
        "to_move": SEATS[pos.to_move],
        "par": _pairs(par),
        "cards": {card_to_str(c): _pairs(v) for c, v in values.items()},
    }


def analyse_log(rules: Rules, log: DealLog) -> dict[str, Any]:
    """One played deal: par before the first card, and for each card played the best cards
    and the points it lost (for the pair that played it) against best play."""
    pos = start_position(rules, log)
    solver = Solver(pos.trump, pos.next_seat)
    par: int | None = None
    cards = []
    for ply, card in enumerate(log.plays):
        values = solver.card_values(pos)
        maximise = pos.to_move & 1 == 0
        best = max(values.values()) if maximise else min(values.values())
        if par is None:
            par = best
        cards.append({
            "ply": ply,
            "seat": SEATS[pos.to_move],
            "card": card_to_str(card),
            "best": [card_to_str(c) for c, v in values.items() if v == best],
            "lost": best - values[card] if maximise else values[card] - best,
            "par": _pairs(best),
        })
        pos = pos.play(card)
    if par is None:
        par = solver.value(pos)
    return {"par": _pairs(par), "cards": cards}


def analyse_record(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """bilka-analysis/1: every played deal of the record (redealt deals are skipped)."""
    state = read_record(data)
    deals = []
    for number, log in enumerate(state.deals, start=1):
        if log.redeal is not None:
            continue
        deals.append({"deal": number} | analyse_log(state.rules, log))
    return {"format": ANALYSIS_FORMAT, "deals": deals}
