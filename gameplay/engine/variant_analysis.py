"""The double-dummy analysis of Kozyol and Bilka-for-two deals, in the shape of Bilka's
bilka-analysis/1 (`analysis.py`): for each card played, the best cards and the points it lost (for
its side) against best play, and the deal's par.

Values are the solvers' objectives (`kozyol_solver.py`: card points, a catch counted as every card
to the catchers; `bilka2_solver.py`: card points, the stock's order known from the record, which is
the whole truth of a played deal). Sides are the pairs `NS`/`EW` in Kozyol and the players `N`/`S`
in Bilka for two, each side's values summing to 120.

The solvers are pure Python, so a deal is analysed from its first card only where that is quick:
Kozyol from the card at which at most `KOZYOL_FROM_CARDS` cards are left in the hands, Bilka for
two with `stock=after_trick` once at most `AFTER_TRICK_FROM_CARDS` are left in the hands and the
stock, with `stock=halves` from the first card. A deal's `from_ply` says where its analysis starts;
the cards before it are not in `cards` (as a seat's totals then count only the cards analysed).

    analyse_deal(rules, log)                       # one played deal
    analyse_game_record(record)                    # every played deal of a record
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from gameplay.engine.bilka2_rules import PLAYERS, Bilka2DealLog, Bilka2Rules
from gameplay.engine.bilka2_solver import Bilka2Position, Bilka2Solver
from gameplay.engine.cards import PAIRS, SEATS, card_to_str
from gameplay.engine.errors import RecordError
from gameplay.engine.kozyol_rules import KozyolDealLog, KozyolRules
from gameplay.engine.kozyol_solver import KozyolPosition, KozyolSolver
from gameplay.engine.record_games import read_game_record

ANALYSIS_FORMAT = "bilka-analysis/1"
TOTAL = 120
#: Kozyol is analysed from the card at which at most this many cards are left in the hands.
KOZYOL_FROM_CARDS = 24
#: Bilka for two with `stock=after_trick`: at most this many cards in the hands and the stock.
AFTER_TRICK_FROM_CARDS = 20


class _Position(Protocol):
    @property
    def to_move(self) -> int: ...


P = TypeVar("P", bound=_Position)
P_in = TypeVar("P_in", bound=_Position, contravariant=True)


class _Solver(Protocol[P_in]):
    """What `analyse_cards` asks of a game's solver (`KozyolSolver`, `Bilka2Solver`)."""

    def value(self, pos: P_in) -> int: ...
    def card_values(self, pos: P_in) -> dict[int, int]: ...


def _sides(value: int, names: tuple[str, str] | str) -> dict[str, int]:
    return {names[0]: value, names[1]: TOTAL - value}


def analyse_cards(solver: _Solver[P], pos: P, plays: list[int], start: int, *,
                  seat_names: str | tuple[str, ...],
                  side_of: Callable[[int], int], sides: tuple[str, str] | str,
                  play: Callable[[P, int], P]) -> dict[str, Any]:
    """The per-card analysis both games share: from `pos`, the position before card `start` of the
    deal, each card of `plays[start:]` against the best cards there (the solver's values are the
    first side's, so side 0 maximises), and the deal's par from `start`."""
    cards = []
    par = None
    for ply, card in enumerate(plays[start:], start=start):
        values = solver.card_values(pos)
        maximise = side_of(pos.to_move) == 0
        best = max(values.values()) if maximise else min(values.values())
        if par is None:
            par = best
        cards.append({
            "ply": ply, "seat": seat_names[pos.to_move], "card": card_to_str(card),
            "best": [card_to_str(c) for c, v in values.items() if v == best],
            "lost": best - values[card] if maximise else values[card] - best,
            "par": _sides(best, sides),
        })
        pos = play(pos, card)
    if par is None:
        par = solver.value(pos)
    return {"from_ply": start, "par": _sides(par, sides), "cards": cards}


def analyse_kozyol_deal(rules: KozyolRules, log: KozyolDealLog, *, first_played: bool = False,
                        from_cards: int = KOZYOL_FROM_CARDS) -> dict[str, Any]:
    """One played Kozyol deal (`first_played`: the match's first played deal, for
    `dealer_leads_plain`)."""
    if log.redeal is not None:
        raise RecordError("the deal was redealt: no card was played")
    pos = KozyolPosition.start(rules, log.hands, log.leader, dealer=log.dealer, first_played=first_played)
    total = sum(h.bit_count() for h in log.hands)
    start = max(0, total - from_cards)
    for card in log.plays[:start]:
        pos = pos.play(card)
    result = analyse_cards(KozyolSolver.for_position(pos), pos, log.plays, start, seat_names=SEATS,
                           side_of=lambda seat: seat & 1, sides=PAIRS, play=KozyolPosition.play)
    return result | {"catch": None if log.catch is None else SEATS[log.catch]}


def bilka2_start(rules: Bilka2Rules, log: Bilka2DealLog) -> Bilka2Position:
    """A played deal of Bilka for two before its first card, its stock in the order drawn."""
    return Bilka2Position.start(log.hands, log.stock, log.trump, log.leader,
                                after_trick=rules.stock == "after_trick", dealer=log.dealer,
                                ace_discard_ban=rules.ace_discard_ban)


def analyse_bilka2_deal(rules: Bilka2Rules, log: Bilka2DealLog, *,
                        from_cards: int = AFTER_TRICK_FROM_CARDS) -> dict[str, Any]:
    """One played deal of Bilka for two."""
    pos = bilka2_start(rules, log)
    start = 0
    if rules.stock == "after_trick":
        while start < len(log.plays) and \
                (pos.hands[0] | pos.hands[1]).bit_count() + len(pos.stock) > from_cards:
            pos = pos.play(log.plays[start])
            start += 1
    return analyse_cards(Bilka2Solver(pos), pos, log.plays, start, seat_names=PLAYERS,
                         side_of=lambda seat: seat, sides=PLAYERS, play=Bilka2Position.play)


def analyse_deal(rules: KozyolRules | Bilka2Rules, log: KozyolDealLog | Bilka2DealLog, *,
                 first_played: bool = False) -> dict[str, Any]:
    """One played deal of either game, its rules choosing the solver."""
    if isinstance(rules, KozyolRules) and isinstance(log, KozyolDealLog):
        return analyse_kozyol_deal(rules, log, first_played=first_played)
    if isinstance(rules, Bilka2Rules) and isinstance(log, Bilka2DealLog):
        return analyse_bilka2_deal(rules, log)
    raise TypeError("a Kozyol or Bilka-for-two deal with its own rules")


def analyse_game_record(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """bilka-analysis/1 of a Kozyol or Bilka-for-two record (`record_games.read_game_record`):
    every deal played to its end or stopped by a catch (redealt deals and a deal still in play
    are skipped), with the record's `game`."""
    state = read_game_record(data)
    rules = state.rules
    if not isinstance(rules, KozyolRules | Bilka2Rules):
        raise RecordError("a record of Bilka is analysed by analysis.analyse_record")
    deals = []
    first_played = True
    logs: list[KozyolDealLog | Bilka2DealLog] = list(state.deals)  # type: ignore[arg-type]
    for number, log in enumerate(logs, start=1):
        if log.outcome is None or log.outcome == "redeal":
            continue
        deals.append({"deal": number} | analyse_deal(rules, log, first_played=first_played))
        first_played = False
    return {"format": ANALYSIS_FORMAT, "game": rules.game, "deals": deals}


__all__ = ["ANALYSIS_FORMAT", "analyse_bilka2_deal", "analyse_cards", "analyse_deal", "analyse_game_record",
           "analyse_kozyol_deal", "bilka2_start"]
