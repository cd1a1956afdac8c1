"""A picture of one position of an archived match, for sharing a deal: the four hands, the trick
on the table, the trump and the pair on duty, and the deal's par where the analysis has it.

One layout (``layout``: texts at places, in a 1200 × 630 frame, the size link previews show) is
drawn twice: as SVG (text, so any reader's fonts show it) and as PNG with Pillow and the DejaVu Sans
shipped in ``archive/fonts`` (it has the suit signs and every Kazakh letter). The page's Open Graph
tags point at the PNG (``archive/views/pictures.py``); only a public match has them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from gameplay.engine.positions import Replay
from gameplay.words import SUIT_SYMBOL, pair_name, rank_words, seat_letter, suit_name

WIDTH, HEIGHT = 1200, 630
FONTS = Path(__file__).resolve().parent / "fonts"
FELT, INK, RED, LIGHT = "#1f6f4a", "#ffffff", "#ffb4a8", "#d6efe0"
SUIT_ORDER = "SHDC"
#: Where each seat's hand is written: its name's place and its anchor ("start", "middle", "end").
PLACES = {"N": (600, 70, "middle"), "S": (600, 450, "middle"), "W": (40, 250, "start"),
          "E": (1160, 250, "end")}
#: The trick's cards around the middle, by the seat that played each.
TRICK_AT = {"N": (600, 240), "S": (600, 420), "W": (490, 330), "E": (710, 330)}


@dataclass(frozen=True)
class Text:
    x: int
    y: int
    text: str
    size: int
    color: str = INK
    anchor: str = "start"  # start, middle, end
    bold: bool = False


def _hand_runs(cards: tuple[str, ...], ranks: dict[str, str]) -> list[tuple[str, str]]:
    """A hand as runs of (text, colour), suit by suit: "♠ Д 9 7", "♥ Т 10"."""
    runs = []
    for suit in SUIT_ORDER:
        of_suit = [c for c in cards if c[1] == suit]
        if of_suit:
            colour = RED if suit in "HD" else INK
            runs.append((SUIT_SYMBOL[suit] + " " + " ".join(ranks[c[0]] for c in of_suit), colour))
    return runs


def layout(replay: Replay, deal_index: int, card: int, *, names: dict[str, str], title: str,
           par: dict[str, int] | None) -> list[Text]:
    """What the picture says at (deal, card), in the active language."""
    ranks = rank_words()
    deal = replay.deals[deal_index]
    pos = replay.position(deal_index, card)
    out = [Text(40, 40, title, 26, LIGHT, bold=True)]
    facts = [_("Deal %(n)s, card %(k)s of %(plays)s") % {"n": deal.number, "k": pos.card, "plays": pos.plays}]
    if deal.trump:
        facts.append(f"{_('Trump')}: {SUIT_SYMBOL[deal.trump]} {suit_name(deal.trump)}")
    if deal.pair_on_duty:
        facts.append(_("On duty: %(pair)s") % {"pair": pair_name(deal.pair_on_duty)})
    out.append(Text(40, 610, " · ".join(facts), 22, LIGHT))
    if par is not None:
        out.append(Text(40, 72, _("Par with best play: NS %(ns)s · EW %(ew)s") % {
            "ns": par["NS"], "ew": par["EW"]}, 20, LIGHT))
    for seat, (x, y, anchor) in PLACES.items():
        label = f"{seat_letter(seat)} · {names.get(seat, seat)}"
        if pos.to_move == seat:
            label += " ◀"
        out.append(Text(x, y + 40, label, 24, LIGHT, anchor=anchor, bold=True))
        runs = _hand_runs(pos.hands[seat], ranks)
        line_y = y + 76
        if seat in "NS":  # one line of suits side by side, centred as a whole
            text = "   ".join(r for r, _c in runs)
            out.append(Text(x, line_y, text, 30, INK, anchor="middle", bold=True))
        else:  # a suit a line
            for run, colour in runs:
                out.append(Text(x, line_y, run, 30, colour, anchor=anchor, bold=True))
                line_y += 38
    for seat, code in pos.trick:
        x, y = TRICK_AT[seat]
        colour = RED if code[1] in "HD" else INK
        out.append(Text(x, y, f"{ranks[code[0]]}{SUIT_SYMBOL[code[1]]}", 44, colour, anchor="middle",
                        bold=True))
    return out


def svg(texts: list[Text]) -> str:
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Verdana, sans-serif">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{FELT}"/>']
    for t in texts:
        weight = ' font-weight="700"' if t.bold else ""
        parts.append(f'<text x="{t.x}" y="{t.y}" font-size="{t.size}" fill="{t.color}" '
                     f'text-anchor="{t.anchor}"{weight}>{escape(t.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


@cache
def _font(size: int, bold: bool) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def png(texts: list[Text]) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    anchors = {"start": "ls", "middle": "ms", "end": "rs"}  # on the baseline, as SVG's text
    for t in texts:
        draw.text((t.x, t.y), t.text, font=_font(t.size, t.bold), fill=t.color, anchor=anchors[t.anchor])
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
