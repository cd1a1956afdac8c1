"""Seats and partnerships in the reader's language: the one place that names N, E, S, W, NS and EW.

The engine, the records and the URLs keep the letters of RULES.md (N, E, S, W; the pairs NS and
EW); a page shows them as the reader says them (Russian С, В, Ю, З; Kazakh С, Ш, О, Б; Ukrainian
Пн, Сх, Пд, Зх). Bots are named here too, at read time, so a table opened by a Russian speaker
shows "Bot E" to a Kazakh one in Kazakh. Template filters: `gameplay.templatetags.seats`.
"""

from __future__ import annotations

from django.utils.translation import pgettext

from gameplay.engine.cards import SEATS


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
    """A partnership ("NS" or "EW", also written "N/S", "E/W") in the reader's language."""
    code = str(pair).replace("/", "").upper()
    names = {"NS": pgettext("pair of seats", "NS"), "EW": pgettext("pair of seats", "EW")}
    return names.get(code, str(pair))


def bot_name(seat: int | str) -> str:
    """The beginner bot sitting at ``seat``, named in the reader's language."""
    return pgettext("bot at a seat", "Bot %(seat)s") % {"seat": seat_letter(seat)}


def seat_or_pair(code: str) -> str:
    """A seat letter or a pair code, whichever ``code`` is (the replay's winner may be either)."""
    return pair_name(code) if len(str(code).replace("/", "")) == 2 else seat_letter(code)
