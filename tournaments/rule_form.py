"""The rule fields of the tournament form, one per rule parameter of the event's game
(``gameplay.engine.games.parameters``: Bilka's, or Kozyol khvalyony's), each showing its default.

The game is chosen by a link (``?game=kozyol``) that draws the form again for it, so it works
without JavaScript, as the live tables' form; the form carries it in a hidden field.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.engine import games
from gameplay.engine.games import BILKA
from gameplay.engine.kozyol_rules import GAME as KOZYOL
from gameplay.words import KOZYOL_CHOICE_TEXT, KOZYOL_RULE_TEXT

#: The games a tournament may play, as the form offers them.
GAME_CHOICES = [(BILKA, _("Bilka")), (KOZYOL, _("Kozyol khvalyony"))]

RULE_LABELS = {
    "deck": _("Deck"),
    "direction": _("Direction of play"),
    "first_lead": _("First lead"),
    "ace_discard_ban": _("No discarding an ace of a suit not yet led"),
    "rout_at": _("Extra eye from (points)"),
    "lucy_by": _("“Lucy” means"),
    "lucy": _("What “Lucy” does"),
    "eggs": _("After 60:60 (“eggs”)"),
    "first_deal_two_eyes": _("The first deal opens two eyes"),
    "redeal_below": _("Redeal with fewer points than"),
    "redeal_four_nines": _("Redeal with four nines"),
    "redeal_five_of_suit": _("Redeal with five cards of a suit"),
    "three_redeals_eye": _("Third redeal in a row costs an eye"),
    "move_seconds": _("Seconds per move (online)"),
    "review_tricks": _("Looking at the last trick"),
}
CHOICE_LABELS = {
    "32": _("32 cards (7 to ace)"),
    "36": _("36 cards (6 to ace)"),
    "32-no-sevens": _("32 cards without sevens"),
    "28": _("28 cards (8 to ace)"),
    "clockwise": _("clockwise"),
    "counterclockwise": _("counterclockwise"),
    "jack_holder": _("the holder of the jack of clubs"),
    "after_dealer": _("the player after the dealer"),
    "tricks": _("a pair took every trick"),
    "points": _("a pair took all 120 points"),
    "win": _("wins the match at once"),
    "zero": _("the other pair's eyes go back to 0"),
    "double": _("the next deal counts double (and more)"),
    "four": _("the next deal's winner opens 4 eyes"),
    "plus_four": _("the next deal's winner opens 4 eyes more"),
    "last": _("allowed"),
    "none": _("not allowed"),
}

def chosen_game(value: object) -> str:
    """The game a form asks for (Bilka when it names none it knows)."""
    return KOZYOL if value == KOZYOL else BILKA


def rule_label(key: str) -> str:
    """A rule's name on the tournament's pages: Bilka's words, or Kozyol's for its own rules."""
    if key in RULE_LABELS:
        return str(RULE_LABELS[key])
    return str(KOZYOL_RULE_TEXT[key][0]) if key in KOZYOL_RULE_TEXT else key


def choice_label(value: object) -> object:
    """A rule's value on the tournament's pages, in words where it has them."""
    return {**CHOICE_LABELS, **KOZYOL_CHOICE_TEXT}.get(str(value), value)


def rule_fields(game: str = BILKA) -> dict[str, forms.Field]:
    """One form field per rule parameter of `game`, its default shown as the initial value."""
    result: dict[str, forms.Field] = {}
    for p in games.parameters(game):
        label = rule_label(p.name)
        field: forms.Field
        if p.kind == "choice" and all(isinstance(v, int) for v in p.choices):
            field = forms.TypedChoiceField(label=label, choices=[(v, str(v)) for v in p.choices], coerce=int,
                                           initial=p.default)
        elif p.kind == "choice":
            field = forms.ChoiceField(label=label, choices=[(v, choice_label(v)) for v in p.choices],
                                      initial=p.default)
        elif p.kind == "range":
            field = forms.IntegerField(label=label, min_value=p.low, max_value=p.high, initial=p.default)
        else:
            field = forms.BooleanField(label=label, required=False, initial=p.default)
        shown = choice_label(p.default)
        if isinstance(p.default, bool):
            shown = _("yes") if p.default else _("no")
        field.help_text = _("Default: %(value)s") % {"value": shown}
        result[f"rule_{p.name}"] = field
    return result
