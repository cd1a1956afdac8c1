"""The game's words in the reader's language: seats, pairs, bots and their levels, suits, how a
deal ended, the rules' parameters and presets. The one place that names them for every page (the
live tables, the archive, the tournaments' score sheets); the engine keeps the codes.

The engine, the records and the URLs keep the letters of RULES.md (N, E, S, W; the pairs NS and
EW); a page shows them as the reader says them (Russian С, В, Ю, З; Kazakh С, Ш, О, Б; Ukrainian
Пн, Сх, Пд, Зх). Bots are named here too, at read time, so a table opened by a Russian speaker
shows "Bot E" to a Kazakh one in Kazakh. Template filters: `gameplay.templatetags.table_words`.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from gameplay.engine.bilka2_rules import Bilka2Rules
from gameplay.engine.cards import SEATS
from gameplay.engine.games import BILKA, game_of, rules_from_json
from gameplay.engine.kozyol_rules import KozyolRules
from gameplay.engine.rules import PRESETS, Rules


def seat_letter(seat: int | str) -> str:
    """A seat (0–3 or "N", "E", "S", "W") as the short letter the reader knows."""
    code = SEATS[seat] if isinstance(seat, int) else str(seat)
    letters = {
        "N": pgettext("seat", "N"),
        "E": pgettext("seat", "E"),
        "S": pgettext("seat", "S"),
        "W": pgettext("seat", "W"),
    }
    return letters.get(code, code)


def pair_name(pair: str) -> str:
    """A partnership ("NS" or "EW", also written "N/S", "E/W") in the reader's language; in Bilka
    for two a side is a player ("N" or "S"), written as his seat."""
    code = str(pair).replace("/", "").upper()
    if code in ("N", "S"):  # Bilka for two: a side is one player, named by his seat
        return seat_letter(code)
    names = {"NS": pgettext("pair of seats", "NS"), "EW": pgettext("pair of seats", "EW")}
    return names.get(code, str(pair))


def bot_name(seat: int | str) -> str:
    """The beginner bot sitting at ``seat``, named in the reader's language."""
    return pgettext("bot at a seat", "Bot %(seat)s") % {"seat": seat_letter(seat)}


def seat_or_pair(code: str) -> str:
    """A seat letter or a pair code, whichever ``code`` is (the replay's winner may be either)."""
    return pair_name(code) if len(str(code).replace("/", "")) == 2 else seat_letter(code)


class BotLevel(models.TextChoices):
    """How well a bot seat plays (`gameplay.engine.bots`): the beginner answers at once, by rules of
    thumb; the strong bot samples the hidden hands and solves them, up to `settings.BOT_BUDGET`."""

    BEGINNER = "beginner", _("beginner")
    STRONG = "strong", _("strong")


def deal_outcome(code: str) -> str:
    """How a deal ended (the record's `outcome`), in the reader's language."""
    words = {
        "win": gettext("win"),
        "rout": gettext("rout"),
        "lucy": gettext("Lucy"),
        "eggs": gettext("eggs"),
        "redeal": gettext("redeal"),
        "catch": gettext("catch"),
        "unfinished": gettext("unfinished"),
    }
    return words.get(code, code)


#: A suit letter of RULES.md as the cards print it.
SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suit_name(code: str) -> str:
    """A suit letter of RULES.md (C, D, H, S) as the reader names the suit."""
    words = {"C": gettext("clubs"), "D": gettext("diamonds"), "H": gettext("hearts"), "S": gettext("spades")}
    return words.get(code, code)


def clockwise() -> str:
    """The direction of play, its seats in the reader's letters."""
    return gettext("Clockwise: %(order)s.") % {"order": " → ".join(seat_letter(s) for s in "NESW")}


#: A label and a one-line explanation for each parameter of RULES.md (the engine owns the values).
RULE_TEXT: dict[str, tuple[Any, Any]] = {
    "deck": (_("Deck"), _("32 cards (7 to ace), 36 (6 to ace), 32 without sevens, or 28 (8 to ace).")),
    "direction": (_("Direction of play"), lazy(clockwise, str)()),
    "first_lead": (_("First lead"), _("The holder of the jack of clubs, or the player after the dealer.")),
    "ace_discard_ban": (_("No discarding an ace of a suit not yet led"),
        _("A player who cannot follow may not throw away such an ace.")),
    "rout_at": (_("Rout at"), _("Points from which a win counts as a rout (one eye more).")),
    "lucy_by": (_("Lucy (bare) means"), _("All tricks taken, or all 120 points taken.")),
    "lucy": (_("A Lucy deal"), _("Wins the match at once, or resets the other pair's eyes to 0.")),
    "eggs": (_("After 60:60 (eggs)"), _("How much more the next decided deal is worth.")),
    "first_deal_two_eyes": (_("First deal opens two eyes"),
        _("The winner of the first played deal opens exactly 2 eyes.")),
    "redeal_below": (_("Redeal below (points)"),
        _("A hand with fewer points may ask for a redeal; 0 turns this off.")),
    "redeal_four_nines": (_("Redeal with four nines"), _("A hand with all four nines may ask for a redeal.")),
    "redeal_five_of_suit": (_("Redeal with five of a suit"),
        _("A hand with five or more cards of one suit may ask for a redeal.")),
    "three_redeals_eye": (_("Third redeal in a row costs an eye"), _("The other pair gets one eye.")),
    "move_seconds": (_("Seconds per move"),
        _("A player who does not move in time loses the match for his pair.")),
    "review_tricks": (_("Looking at the last trick"), _("Allowed, or not at all.")),
}

CHOICE_TEXT: dict[str, Any] = {
    "32": _("32 cards"), "36": _("36 cards"), "32-no-sevens": _("32 without sevens"), "28": _("28 cards"),
    "clockwise": _("clockwise"), "counterclockwise": _("counterclockwise"),
    "jack_holder": _("holder of the jack of clubs"), "after_dealer": _("player after the dealer"),
    "tricks": _("all tricks"), "points": _("all 120 points"),
    "win": _("wins the match"), "zero": _("others' eyes to zero"),
    "double": _("worth double (more after several)"), "four": _("4 eyes"), "plus_four": _("4 eyes more"),
    "last": _("the last trick may be looked at"), "none": _("no looking back"),
}

#: A name and the rules that make each preset different, as a player reads them.
PRESET_TEXT: dict[str, tuple[Any, Any]] = {
    "online": (_("Online platform"),
               _("The defaults of the online platform: rout from 90, Lucy by all tricks, eggs double, "
                 "the holder of the jack of clubs leads first.")),
    "classic": (_("Classic rules"),
                _("Rout from 91, Lucy by all 120 points, eggs plus four eyes, "
                  "the player after the dealer leads first.")),
}


#: Kozyol's own house rules (the others read as Bilka's, `RULE_TEXT`).
KOZYOL_RULE_TEXT = {
    "six_of_clubs": (_("6 of clubs (the shamok)"),
                     _("The six of clubs is the highest trump and catches the other pair's queen of clubs.")),
    "first_lead": (_("Who leads the first trick"),
                   _("The holder of the ace of diamonds, or the player after the dealer.")),
    "dealer_leads_plain": (_("The dealers lead a plain card"),
                           _("The dealing pair may lead a trump only when it holds no plain card.")),
    "first_catch_wins": (_("A catch in the first deal wins the match"), ""),
    "redeal_queens": (_("Redeal with the top queens"),
                      _("A hand with all four queens, or the shamok with the queens of clubs, spades and "
                        "hearts, may ask for a redeal.")),
}
KOZYOL_CHOICE_TEXT = {"ace_of_diamonds": _("the holder of the ace of diamonds")}

#: Bilka for two's own house rules (the others read as Bilka's, `RULE_TEXT`).
BILKA2_RULE_TEXT = {
    "stock": (_("The stock"), _("Dealt out when both hands are empty, or one card each after every trick, "
                                "the trick's winner first.")),
    "eyes": (_("Eyes for a win and a rout"), _("1 and 2 eyes, or 2 and 3.")),
    "move_seconds": (_("Seconds per move"), _("A player who does not move in time loses the match.")),
    "lucy": (_("A Lucy deal"), _("Wins the match at once, or resets the opponent's eyes to 0.")),
}
BILKA2_CHOICE_TEXT = {"halves": _("dealt when the hands are empty"),
                      "after_trick": _("drawn after every trick"),
                      "1-2": _("1 and 2 eyes"), "2-3": _("2 and 3 eyes")}


def rules_label(rules: dict[str, Any]) -> str:
    """A rule set as a player names it: its preset, and what differs from it (another game: its
    name, and what differs from its defaults)."""
    if game_of(rules) != BILKA:
        return _other_game_label(rules)
    full = Rules.from_json(rules).to_json()
    best_name, best_diff = "", None
    for name, preset in PRESETS.items():
        diff = {k: v for k, v in full.items() if preset.to_json().get(k) != v}
        if best_diff is None or len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    label = str(PRESET_TEXT[best_name][0])
    parts = []
    for key, value in sorted((best_diff or {}).items()):
        title = str(RULE_TEXT.get(key, (key, ""))[0])
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        else:
            shown = str(CHOICE_TEXT.get(value, value)) if isinstance(value, str) else str(value)
        parts.append(f"{title}: {shown}")
    return label + (" · " + "; ".join(parts) if parts else "")


def _other_game_label(rules: dict[str, Any]) -> str:
    parsed = rules_from_json(rules)
    full = parsed.to_json()
    two = isinstance(parsed, Bilka2Rules)
    defaults = Bilka2Rules().to_json() if two else KozyolRules().to_json()
    texts = {**RULE_TEXT, **(BILKA2_RULE_TEXT if two else KOZYOL_RULE_TEXT)}
    choices = {**CHOICE_TEXT, **(BILKA2_CHOICE_TEXT if two else KOZYOL_CHOICE_TEXT)}
    parts = []
    for key, value in sorted(full.items()):
        if key == "game" or defaults.get(key) == value:
            continue
        title = str(texts.get(key, (key, ""))[0])
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        else:
            shown = str(choices.get(value, value)) if isinstance(value, str) else str(value)
        parts.append(f"{title}: {shown}")
    name = gettext("Bilka for two") if two else gettext("Kozyol khvalyony")
    return name + (" · " + "; ".join(parts) if parts else "")


def rank_words() -> dict[str, str]:
    """Card ranks as the reader's packs print them (Russian В Д К Т); the record keeps `J Q K A`.
    The live table and the replay draw cards with them, beside the jack's mark (``J♣`` / ``В♣``)."""
    return {"6": "6", "7": "7", "8": "8", "9": "9", "T": "10",
            "J": pgettext("card rank", "J"), "Q": pgettext("card rank", "Q"),
            "K": pgettext("card rank", "K"), "A": pgettext("card rank", "A")}
