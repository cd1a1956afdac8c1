"""The rules of the game and the site's help, as two public pages (`/rules/`, `/help/`).

The rules page explains every house rule of the open-a-table form in a section of its own
(`#rule-<name>`); the form links each option there. `RULE_GUIDE` holds those explanations, one
for each parameter of the engine's `Rules`, so a new parameter without one is noticed by the tests.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from gameplay.engine import rules as engine_rules
from gameplay.engine.rules import PRESETS
from gameplay.models import REDEAL_SECONDS_MAX, REDEAL_SECONDS_MIN, Table
from gameplay.protocol.frames import grace_seconds
from gameplay.words import CHOICE_TEXT, PRESET_TEXT, RULE_TEXT


def redeal_seconds_default() -> int:
    """The redeal question's time when the table's opener leaves it as it is."""
    return int(Table._meta.get_field("redeal_seconds").default)


#: What each house rule changes, in plain words: the longer text of its section on /rules/.
RULE_GUIDE: dict[str, Any] = {
    "deck": _(
        "How many cards are dealt. With 32 cards (seven to ace) each player gets 8 cards and a "
        "deal has 8 tricks. 36 cards add the sixes: 9 cards each, 9 tricks. 32 without sevens "
        "play six, eight to ace: 8 cards each. 28 cards (eight to ace) give 7 cards each. "
        "Every deck holds 120 points, so the scoring stays the same."
    ),
    "direction": _(
        "The order in which the players play: clockwise (North, East, South, West) or "
        'counterclockwise (North, West, South, East). "The next player" always means '
        "the next one in this order, also when suits are given out in the first deal."
    ),
    "first_lead": _(
        "Who plays the first card of a deal: the player who holds the jack of clubs, or "
        "the player after the dealer. After that the winner of each trick leads the next."
    ),
    "ace_discard_ban": _(
        "When it is on, a player who cannot follow suit may not throw away the ace of a "
        "plain suit that has not been led yet in this deal, unless he holds nothing "
        "else. The ace of the trump suit is a trump and is never banned."
    ),
    "rout_at": _(
        "How many points make a rout, worth one eye more than a plain win. With 90 a pair "
        "that takes 90 points or more routs; with 91 (the classic rule) the losers must "
        "take fewer than 30."
    ),
    "lucy_by": _(
        "What counts as a Lucy: a pair that took every trick of the deal (a trick of no "
        "points taken by the other pair spoils it), or a pair that took all 120 points."
    ),
    "lucy": _(
        "What a Lucy does: the pair that made it wins the match at once (its score becomes 12); "
        "or the other pair's eyes go back to 0, the deal counts as a rout and the match goes on."
    ),
    "eggs": _(
        "A 60 : 60 deal opens no eyes and makes the next decided deal worth more. Worth double: "
        "that deal's eyes are multiplied (by 2 after one eggs deal, by 3 after two in a row). 4 eyes: "
        "its winner opens 4 eyes for each eggs deal instead of the usual value. 4 eyes more: its "
        "winner opens the usual eyes plus 4 for each eggs deal."
    ),
    "first_deal_two_eyes": _(
        "When it is on, the winner of the first played deal of a match opens "
        "exactly 2 eyes, whoever was on duty. If that deal is eggs or a Lucy, the "
        "rule does not apply."
    ),
    "redeal_below": _(
        "A hand worth fewer points than this (jacks count 2) may ask for a redeal. "
        "14 is the usual value, 13 is played too; 0 turns this test off."
    ),
    "redeal_four_nines": _(
        "When it is on, a hand with all four nines may ask for a redeal, whatever its points."
    ),
    "redeal_five_of_suit": _(
        "When it is on, a hand with five or more cards of one suit may ask for a "
        "redeal. Jacks are trumps, not cards of their suit, so they do not count."
    ),
    "three_redeals_eye": _(
        "When it is on, the third redeal in a row costs the dealing pair one eye, "
        "which goes to the other pair, and the count starts again."
    ),
    "move_seconds": _(
        "The time for each move, from one minute to an hour. A player who does not move "
        "in time loses the match for his pair."
    ),
    "review_tricks": _(
        "Whether the last completed trick may be looked at during the play, or every "
        "trick is turned face down as soon as it is taken."
    ),
}


def _default(value: Any) -> Any:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return CHOICE_TEXT.get(value, value) if isinstance(value, str) else value


def _values(p: engine_rules.Parameter) -> str:
    if p.kind == "range":
        return _("from %(low)s to %(high)s") % {"low": p.low, "high": p.high}
    if p.kind == "bool":
        return f"{_('on')}, {_('off')}"
    return ", ".join(str(CHOICE_TEXT.get(v, v)) if isinstance(v, str) else str(v) for v in p.choices)


def house_rules() -> list[dict[str, Any]]:
    """Every parameter the engine has and the guide explains, in the order of the form."""
    return [
        {
            "name": p.name,
            "anchor": f"rule-{p.name}",
            "label": RULE_TEXT.get(p.name, (p.name, ""))[0],
            "text": RULE_GUIDE[p.name],
            "values": _values(p),
            "default": _default(p.default),
        }
        for p in engine_rules.parameters()
        if p.name in RULE_GUIDE
    ]


def presets() -> list[dict[str, Any]]:
    return [{"name": name, "label": PRESET_TEXT[name][0], "text": PRESET_TEXT[name][1]} for name in PRESETS]


@require_GET
def rules_page(request: HttpRequest) -> HttpResponse:
    """``/rules/``: the game step by step, with the cards drawn as the table draws them."""
    return render(
        request,
        "gameplay/rules.html",
        {
            "house_rules": house_rules(),
            "presets": presets(),
            "redeal_seconds": redeal_seconds_default(),
        },
    )


@require_GET
def kozyol_rules_page(request: HttpRequest) -> HttpResponse:
    """``/rules/kozyol/``: Kozyol khvalyony for four, after docs/other-games.md."""
    return render(request, "gameplay/rules_kozyol.html")


@require_GET
def bilka2_rules_page(request: HttpRequest) -> HttpResponse:
    """``/rules/bilka-2/``: Bilka for two, with its stock, after docs/other-games.md."""
    return render(request, "gameplay/rules_bilka2.html")


@require_GET
def help_page(request: HttpRequest) -> HttpResponse:
    """``/help/``: how to use the site's tables, bots, clocks, tournaments, archive and ratings."""
    return render(
        request,
        "gameplay/help.html",
        {
            "redeal_seconds": redeal_seconds_default(),
            "redeal_min": REDEAL_SECONDS_MIN,
            "redeal_max": REDEAL_SECONDS_MAX,
            "move_seconds": engine_rules.Rules().move_seconds,
            "grace_minutes": round(grace_seconds() / 60),
        },
    )
