"""The replay's two graphs, drawn by the server as inline SVG: a deal's par card by card, and the
match's eyes deal by deal.

The par of a position is the points North–South end the deal with when both pairs play best from
it, with all hands known (bilka-analysis/1). It moves only when a card loses points: a card of NS
that lost 4 takes it down by 4, a card of EW that lost 4 takes it up by 4; after the deal's last
card it is the points NS took. Every point of either graph is a link to its position (the replay's
plain `?deal=&card=` address), so the graphs work without the script; `static/js/replay.js` asks
the server for them again (`?part=results`) as it steps.

No spoilers, as the rest of the viewer: the par graph shows the deal up to the position drawn and
the eye graph the deals the replay has finished, unless the reader asked for every result.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from gameplay.engine.positions import DealSummary
from gameplay.words import SUIT_SYMBOL, pair_name, seat_letter

TOTAL = 120  # every deck totals 120 points
GOAL = 12  # a match ends when a pair has 12 eyes; scores are shown capped there

#: The size of each graph's drawing (viewBox units); the page scales it to the panel's width.
PAR_SIZE = (360, 176)
PAR_PLOT = (36, 16, 348, 148)  # left, top, right, bottom
EYE_SIZE = (360, 150)
EYE_PLOT = (30, 12, 348, 122)


def pair_of(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def href(deal_index: int, card: int, *, results: bool = False) -> str:
    """The replay's own address of a position (the same as archive.replays' step links)."""
    return f"?deal={deal_index + 1}&card={card}" + ("&results=1" if results else "")


def par_points(deal: DealSummary, dd_deal: dict[str, Any]) -> list[dict[str, Any]]:
    """NS's par after each card of the deal, from 0 cards to the last; each point after the first
    names the card that led there, its seat and pair, and the points it lost for that pair."""
    ns = int(dd_deal["par"]["NS"])
    start = int(dd_deal.get("from_ply", 0))  # an analysis that starts later: its first point there
    points: list[dict[str, Any]] = [
        {"card": start, "ns": ns, "seat": None, "code": None, "pair": None, "lost": 0}]
    played = zip(deal.cards[start:], dd_deal["cards"][start:], strict=False)
    for k, ((seat, code), (_best, lost)) in enumerate(played, start=start + 1):
        pair = pair_of(seat)
        ns = ns - lost if pair == "NS" else ns + lost
        points.append({"card": k, "ns": ns, "seat": seat, "code": code, "pair": pair, "lost": int(lost)})
    return points


def _scale(value: float, lo: float, hi: float, out_lo: float, out_hi: float) -> float:
    return round(out_lo + (value - lo) * (out_hi - out_lo) / (hi - lo), 1) if hi != lo else out_lo


def par_graph(deal_index: int, deal: DealSummary, dd_deal: dict[str, Any], card: int, *, show_all: bool,
              results: bool, names: dict[str, str], ranks: dict[str, str]) -> dict[str, Any]:
    """The par graph of one deal at the position after `card` cards: what the template draws.

    Only the points up to `card` are drawn unless `show_all` (the reader asked for the results)."""
    points = par_points(deal, dd_deal)
    plays = points[-1]["card"]
    left, top, right, bottom = PAR_PLOT
    step = (right - left) / max(plays, 1)
    shown = points if show_all else [p for p in points if p["card"] <= card]
    drawn = []
    for p in shown:
        x = _scale(p["card"], 0, max(plays, 1), left, right)
        y = _scale(TOTAL - p["ns"], 0, TOTAL, top, bottom)
        words = f"{ranks[p['code'][0]]}{SUIT_SYMBOL[p['code'][1]]}" if p["code"] else ""
        if p["code"] is None and p["card"]:
            what = _("Before card %(k)s: par NS %(ns)s") % {"k": p["card"] + 1, "ns": p["ns"]}
        elif p["code"] is None:
            what = _("Before the first card: par NS %(ns)s") % {"ns": p["ns"]}
        else:
            what = _("Card %(k)s: %(name)s played %(card)s; par NS %(ns)s") % {
                "k": p["card"], "name": names[p["seat"]], "ns": p["ns"], "card": words}
            if p["lost"]:
                what += "; " + _("%(pair)s lost %(lost)s") % {"pair": pair_name(p["pair"]), "lost": p["lost"]}
        drawn.append({
            **p, "x": x, "y": y, "title": what, "href": href(deal_index, p["card"], results=results),
            "current": p["card"] == card, "pair_class": (p["pair"] or "").lower(),
            "card_words": words,
            "name": names[p["seat"]] if p["seat"] else "",
            "pair_name": pair_name(p["pair"]) if p["pair"] else "",
            "red": bool(p["code"]) and p["code"][1] in "HD",
            # the column a click lands in, and the lost points' label: below a fall, above a rise
            "col_x": round(x - step / 2, 1), "col_w": round(step, 1),
            "label_y": round(y + 14 if p["pair"] == "NS" else y - 7, 1),
        })
    tricks = []
    for t in range(0, (plays + 3) // 4):
        start = _scale(4 * t, 0, max(plays, 1), left, right)
        end = _scale(min(4 * t + 4, plays), 0, max(plays, 1), left, right)
        tricks.append({"x": start, "mid": round((start + end) / 2, 1), "label": t + 1})
    now = next((p for p in drawn if p["current"]), None)
    return {
        "width": PAR_SIZE[0], "height": PAR_SIZE[1], "plot": PAR_PLOT, "deal": deal.number,
        "points": drawn, "line": " ".join(f"{p['x']},{p['y']}" for p in drawn),
        "y_ticks": [{"value": v, "y": _scale(TOTAL - v, 0, TOTAL, top, bottom), "half": v == TOTAL // 2}
                    for v in (0, 30, 60, 90, 120)],
        "tricks": tricks, "left": left, "top": top, "right": right, "bottom": bottom,
        "tick_x": left - 5, "trick_y": bottom + 14, "now_top": top - 6, "plot_h": bottom - top,
        "pairs": {"NS": pair_name("NS"), "EW": pair_name("EW")},
        "now": now, "card": card, "plays": plays,
        "complete": len(drawn) == len(points),
    }


def eye_graph(deals: list[DealSummary], shown: int, deal_index: int, opened: list[bool], *,
              results: bool) -> dict[str, Any]:
    """The match's eyes after each shown deal, for those the replay has finished (`opened`);
    every deal a link to its first position."""
    left, top, right, bottom = EYE_PLOT
    count = max(shown, 1)

    def x_of(i: int) -> float:
        """Deal i (from 1) in the middle of its band; 0, the match's start, at the left edge."""
        return _scale(i - 0.5 if i else 0, 0, count, left, right)

    def y_of(eyes: int) -> float:
        return _scale(GOAL - min(eyes, GOAL), 0, GOAL, top, bottom)

    step = (right - left) / count
    start = {"x": x_of(0), "ns_y": y_of(0), "ew_y": y_of(0)}
    columns, line = [], {"NS": [f"{start['x']},{start['ns_y']}"], "EW": [f"{start['x']},{start['ew_y']}"]}
    every = 1 if shown <= 12 else (2 if shown <= 24 else 5)
    for i, deal in enumerate(deals[:shown]):
        x = x_of(i + 1)
        # Bilka for two's score is keyed by the players: N on the first line, S on the second
        keys = ("N", "S") if "N" in deal.score_after else ("NS", "EW")
        score = {pair: min(int(deal.score_after[key]), GOAL)
                 for pair, key in zip(("NS", "EW"), keys, strict=True)}
        open_ = opened[i]
        if open_:
            line["NS"].append(f"{x},{y_of(score['NS'])}")
            line["EW"].append(f"{x},{y_of(score['EW'])}")
            title = (_("Deal %(n)s: eyes after it N %(ns)s : S %(ew)s") if keys[0] == "N"
                     else _("Deal %(n)s: eyes after it NS %(ns)s : EW %(ew)s")) % {
                "n": deal.number, "ns": score["NS"], "ew": score["EW"]}
        else:
            title = _("Deal %(n)s") % {"n": deal.number}
        columns.append({
            "number": deal.number, "x": x, "open": open_, "ns": score["NS"], "ew": score["EW"],
            "ns_y": y_of(score["NS"]), "ew_y": y_of(score["EW"]), "title": title,
            "href": href(i, 0, results=results), "current": i == deal_index,
            "col_x": round(x - step / 2, 1), "col_w": round(step, 1),
            "label": deal.number % every == 0 or every == 1,
        })
    return {
        "width": EYE_SIZE[0], "height": EYE_SIZE[1], "plot": EYE_PLOT, "start": start,
        "left": left, "top": top, "right": right, "bottom": bottom, "tick_x": left - 5,
        "deal_y": bottom + 15, "plot_h": bottom - top,
        "pairs": {"NS": seat_letter("N"), "EW": seat_letter("S")} if deals and "N" in deals[0].score_after
        else {"NS": pair_name("NS"), "EW": pair_name("EW")},
        "columns": columns, "ns_line": " ".join(line["NS"]), "ew_line": " ".join(line["EW"]),
        "y_ticks": [{"value": v, "y": y_of(v), "goal": v == GOAL} for v in (0, 3, 6, 9, 12)],
        "any_open": any(c["open"] for c in columns),
    }
