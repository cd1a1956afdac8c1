"""The replay's double-dummy panel: par of each deal, and each card against best play.

`archive.services.analysis` stores a match's bilka-analysis/1; the replay shows, for the position
it draws, the deal's par and how far each pair ended from it, the last card played with the best
cards and the points it lost, and the best cards of the player to move — all "with all hands
known". The server draws it for the address's position; `static/js/replay.js` redraws it from
the same data as it steps.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay.engine.positions import Position, Replay
from gameplay.words import SUIT_SYMBOL

#: The card points of a deal, whatever the game.
TOTAL = 120
#: What the replay says of a match's analysis.
PENDING, DONE, FAILED = "pending", "done", "failed"

#: The panel's sentences, written by the server here and by replay.js (`panel_texts`).
TEXTS = {
    "dd_redealt": gettext_lazy("A redealt deal has no best play."),
    "dd_par": gettext_lazy("Par with best play: NS %(ns)s · EW %(ew)s"),
    "dd_par_from": gettext_lazy("Par with best play from card %(k)s: NS %(ns)s · EW %(ew)s"),
    "dd_against": gettext_lazy("The deal ended NS %(ns)s · EW %(ew)s: against par NS %(dns)s · EW %(dew)s"),
    "dd_best_card": gettext_lazy("%(name)s played %(card)s: a best card."),
    "dd_lost": gettext_lazy("%(name)s played %(card)s: best was %(best)s; %(lost)s points lost."),
    "dd_best_now": gettext_lazy("Best for %(name)s now: %(cards)s"),
}


def analysis_data(replay: Replay, result: dict[str, Any] | None, shown: int) -> list[dict[str, Any] | None]:
    """Per shown deal (None for a redeal): its par, its final points and each card's best cards
    and points lost, in the order played."""
    by_number = {d["deal"]: d for d in (result or {}).get("deals", [])}
    deals: list[dict[str, Any] | None] = []
    for deal in replay.deals[:shown]:
        found = by_number.get(deal.number)
        if found is None:
            deals.append(None)
            continue
        # Kozyol's and Bilka for two's analyses may start later than the first card (`from_ply`):
        # the cards before it have no entry (None), and the par is the one from there
        skipped: list[list[Any] | None] = [None] * int(found.get("from_ply", 0))
        deals.append({"par": found["par"], "final": _final(deal.points, found) if deal.finished else None,
                      "from_ply": int(found.get("from_ply", 0)),
                      "cards": skipped + [[c["best"], c["lost"]] for c in found["cards"]]})
    return deals


def _final(points: dict[str, int], found: dict[str, Any]) -> dict[str, int]:
    """The deal's final points as the solver counts them: a Kozyol deal stopped by a catch gives
    the catchers every card still out (the other pair keeps what it took)."""
    catch = found.get("catch")
    if not catch or set(points) != {"NS", "EW"}:
        return dict(points)
    catchers, others = ("NS", "EW") if catch in "NS" else ("EW", "NS")
    return {catchers: TOTAL - points[others], others: points[others]}


def card_words(code: str, ranks: dict[str, str]) -> str:
    return f"{ranks[code[0]]}{SUIT_SYMBOL[code[1]]}"


def panel(state: str, deals: list[dict[str, Any] | None], deal_index: int, pos: Position,
          names: dict[str, str], played: list[tuple[str, str]], ranks: dict[str, str]) -> dict[str, str]:
    """The panel's lines for one position (the same as replay.js writes)."""
    if state != DONE:
        return {"state": state}
    deal = deals[deal_index]
    if deal is None:
        return {"state": state, "par": str(TEXTS["dd_redealt"])}
    lines = {"state": state, "par": par_line(deal["par"], deal.get("from_ply", 0))}
    if deal["final"] is not None:
        lines["against"] = against_line(deal["par"], deal["final"])
    cards = deal["cards"]
    if pos.card and pos.card <= len(cards) and cards[pos.card - 1] is not None:
        seat, code = played[pos.card - 1]
        best, lost = cards[pos.card - 1]
        lines["last"] = last_line(names[seat], card_words(code, ranks),
                                  [card_words(c, ranks) for c in best], lost)
    if pos.to_move and pos.card < len(cards) and cards[pos.card] is not None:
        best, _lost = cards[pos.card]
        lines["best_now"] = str(TEXTS["dd_best_now"]) % {
            "name": names[pos.to_move], "cards": ", ".join(card_words(c, ranks) for c in best)}
    return lines


def par_line(par: dict[str, int], from_ply: int = 0) -> str:
    """The deal's par; an analysis that starts later than the first card says from which card."""
    if from_ply:
        return str(TEXTS["dd_par_from"]) % {"k": from_ply + 1, "ns": par["NS"], "ew": par["EW"]}
    return str(TEXTS["dd_par"]) % {"ns": par["NS"], "ew": par["EW"]}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


def _gap(par: dict[str, int], final: dict[str, int]) -> dict[str, str]:
    """How far each pair ended from par, signed."""
    return {"dns": _signed(final["NS"] - par["NS"]), "dew": _signed(final["EW"] - par["EW"])}


def against_line(par: dict[str, int], final: dict[str, int]) -> str:
    return str(TEXTS["dd_against"]) % {"ns": final["NS"], "ew": final["EW"], **_gap(par, final)}


def row_line(deal: dict[str, Any] | None) -> str:
    """The deal list's line: par, and how far each pair ended from it (a deal played to the end)."""
    if deal is None:
        return ""
    par = deal["par"]
    if deal["final"] is None:
        return par_line(par, deal.get("from_ply", 0))
    if deal.get("from_ply"):
        return _("Par from card %(k)s NS %(ns)s · EW %(ew)s; against it NS %(dns)s · EW %(dew)s") % {
            "k": deal["from_ply"] + 1, "ns": par["NS"], "ew": par["EW"], **_gap(par, deal["final"])}
    return _("Par NS %(ns)s · EW %(ew)s; against it NS %(dns)s · EW %(dew)s") % {
        "ns": par["NS"], "ew": par["EW"], **_gap(par, deal["final"])}


def last_line(name: str, card: str, best: list[str], lost: int) -> str:
    if lost == 0:
        return str(TEXTS["dd_best_card"]) % {"name": name, "card": card}
    return str(TEXTS["dd_lost"]) % {"name": name, "card": card, "best": ", ".join(best), "lost": lost}


def panel_texts() -> dict[str, str]:
    """The words replay.js writes the panel with, in the reader's language."""
    return {key: str(text) for key, text in TEXTS.items()}
