"""The beginner bot of `bot.py` adapted to Kozyol and to Bilka for two, from a `View` only.

The same habits: lead a plain ace, else a low plain card; follow low; give points to a partner
who is winning last; win a trick worth points as cheaply as possible; keep the high trumps for
tricks worth taking. In Kozyol it also keeps the queen of clubs back while it can (the шамок
catches it) and throws the шамок onto a trick holding an opponent's queen of clubs. It sees
exactly what a human at that seat sees.
"""

from __future__ import annotations

import random

from gameplay.engine.cards import DIAMONDS, PASS, REDEAL, VALUE
from gameplay.engine.kozyol_rules import QC, SHAMOK_STRENGTH
from gameplay.engine.variant_view import View


def choose_action(view: View, rng: random.Random) -> int:
    """The bot's action for the seat of `view` (which must have an action to take)."""
    legal = view.legal
    if not legal:
        raise ValueError("the observed seat has no action to take")
    if view.redeal_phase:
        trumps = sum(1 for c in view.hand if view.trumps >> c & 1)
        return REDEAL if REDEAL in legal and trumps <= 2 else PASS
    if len(legal) == 1:
        return legal[0]
    trumps = view.trumps

    def low(card: int) -> tuple[int, int, int, int]:
        row = view.strength[view.lead_key[card]]
        return (1 if card == QC and view.game == "kozyol" else 0, trumps >> card & 1, VALUE[card], row[card])

    trick = view.trick
    if not trick:
        plain = [c for c in legal if not trumps >> c & 1]
        aces = [c for c in plain if c % 9 == 8]
        if aces:
            return rng.choice(aces)
        if plain:
            return min(plain, key=low)
        return min(legal, key=low)
    row = view.strength[view.lead_key[trick[0]]]
    best_pos = max(range(len(trick)), key=lambda i: row[trick[i]])
    best = row[trick[best_pos]]
    seats_in_trick = 4 if view.partner is not None else 2
    last = len(trick) == seats_in_trick - 1
    partner_winning = view.partner is not None and view.trick_seats[best_pos] == view.partner
    points = sum(VALUE[c] for c in trick)
    if view.game == "kozyol" and QC in trick and not partner_winning:
        catchers = [c for c in legal if view.strength[DIAMONDS][c] == SHAMOK_STRENGTH]
        if catchers and view.trick_seats[trick.index(QC)] != view.partner:
            return catchers[0]
    if partner_winning:
        if last:
            gifts = [c for c in legal if not trumps >> c & 1] or list(legal)
            return max(gifts, key=lambda c: (VALUE[c], -row[c]))
        return min(legal, key=low)
    winners = [c for c in legal if row[c] > best]
    if winners and (last or points >= 10 or not trumps >> min(winners, key=lambda c: row[c]) & 1):
        if points >= 10 or not all(trumps >> c & 1 for c in winners):
            return min(winners, key=lambda c: (row[c], VALUE[c]))
    return min(legal, key=low)


class VariantBot:
    """Callable form: `VariantBot(rng)(view) -> action`."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()  # noqa: S311 - play choices, not secrets

    def __call__(self, view: View) -> int:
        return choose_action(view, self.rng)


__all__ = ["VariantBot", "choose_action"]
