"""The open-a-table form, built from the engine's rules definitions: every parameter with its default,
and the named presets (`engine.rules.PRESETS`) a table starts from.

A preset is applied by the server, so it works without JavaScript: an option the player left as the
form showed it takes the chosen preset's value; an option he changed keeps his value. The hidden
`options_from` names the preset the shown options came from (the page's script sets it when it
fills the options on a change of preset).

The game is chosen first (`game`: Bilka or Kozyol khvalyony): the house rules shown are that game's
(`games.parameters`), and a Kozyol table has no presets and no rating; its bots are Kozyol's own. The
game is chosen by a link (`?game=kozyol`) that draws the form again for it, so it works without
JavaScript; the form carries it in a hidden field.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.engine import games
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.games import BILKA
from gameplay.engine.kozyol_rules import GAME as KOZYOL
from gameplay.engine.rules import PRESETS, Rules
from gameplay.engine.table_games import BOT_LEVELS
from gameplay.models import REDEAL_SECONDS_MAX, REDEAL_SECONDS_MIN, Seating
from gameplay.words import (
    BILKA2_CHOICE_TEXT,
    BILKA2_RULE_TEXT,
    CHOICE_TEXT,
    KOZYOL_CHOICE_TEXT,
    KOZYOL_RULE_TEXT,
    PRESET_TEXT,
    RULE_TEXT,
    BotLevel,
)

BOT_LEVEL_HELP = _("The beginner answers at once; the strong bot thinks about a second a card, "
                   "guessing the hidden hands from what it has seen.")


DEFAULT_PRESET = "online"


#: The games a live table may play, as the form offers them.
GAME_CHOICES = [(BILKA, _("Bilka")), (KOZYOL, _("Kozyol khvalyony")), (BILKA2, _("Bilka for two"))]
#: Other spellings of a game in an address (`?game=bilka2`).
GAME_ALIASES = {"bilka2": BILKA2}


def chosen_game(value: object) -> str:
    """The game a form asks for (Bilka when it names none it knows)."""
    value = GAME_ALIASES.get(str(value), value)
    return str(value) if value in (KOZYOL, BILKA2) else BILKA


def rule_fields(game: str = BILKA) -> dict[str, forms.Field]:
    """One form field per rule parameter of `game`, its initial value the engine's default."""
    out: dict[str, forms.Field] = {}
    texts = {**RULE_TEXT, **{KOZYOL: KOZYOL_RULE_TEXT, BILKA2: BILKA2_RULE_TEXT}.get(game, {})}
    choice_text = {**CHOICE_TEXT, **KOZYOL_CHOICE_TEXT, **BILKA2_CHOICE_TEXT}
    for p in games.parameters(game):
        label, help_text = texts.get(p.name, (p.name, ""))
        field: forms.Field
        # Radio buttons, not a select: every option's words wrap and stay readable on a phone.
        if p.kind == "choice" and all(isinstance(v, int) for v in p.choices):
            field = forms.TypedChoiceField(choices=[(v, str(v)) for v in p.choices], coerce=int,
                                           initial=p.default, widget=forms.RadioSelect)
        elif p.kind == "choice":
            field = forms.ChoiceField(choices=[(v, choice_text.get(str(v), v)) for v in p.choices],
                                      initial=p.default, widget=forms.RadioSelect)
        elif p.kind == "range":
            field = forms.IntegerField(min_value=p.low, max_value=p.high, initial=p.default)
        else:
            field = forms.BooleanField(required=False, initial=p.default)
        field.label = label
        field.help_text = _("%(text)s Default: %(default)s.") % {
            "text": help_text, "default": _display_default(p.default)}
        out[p.name] = field
    return out


def _display_default(value: Any) -> Any:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return ({**CHOICE_TEXT, **KOZYOL_CHOICE_TEXT, **BILKA2_CHOICE_TEXT}.get(value, value)
            if isinstance(value, str) else value)


def preset_choices() -> list[tuple[str, str]]:
    return [(name, str(PRESET_TEXT[name][0])) for name in PRESETS]


class TableForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, initial=BILKA, required=False,
                             widget=forms.HiddenInput)
    preset = forms.ChoiceField(label=_("Rules to start from"), choices=preset_choices, initial=DEFAULT_PRESET,
                               required=False, widget=forms.RadioSelect)
    options_from = forms.ChoiceField(choices=preset_choices, initial=DEFAULT_PRESET, required=False,
                                     widget=forms.HiddenInput)
    seating = forms.ChoiceField(label=_("Seating"), choices=Seating.choices, initial=Seating.RANDOM)
    spectators_see_hands_delayed = forms.BooleanField(
        label=_("Spectators see all hands one deal later"), required=False)
    redeal_seconds = forms.IntegerField(
        label=_("Seconds to answer the redeal question"), initial=15, required=False,
        min_value=REDEAL_SECONDS_MIN, max_value=REDEAL_SECONDS_MAX,
        help_text=_("After each deal every player answers at once: play the hand, or ask for a redeal "
                    "where it allows one. Whoever has not answered in time plays."))
    bots = forms.BooleanField(label=_("Fill empty seats with bots now"), required=False)
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices, initial=BotLevel.BEGINNER,
                                  required=False, help_text=BOT_LEVEL_HELP)
    rated = forms.BooleanField(
        label=_("Rated"), required=False, initial=True,
        help_text=_("Counts for the players' ratings when four signed-in people play it to the end; "
                    "with a bot or a guest at the table it does not count."))
    private = forms.BooleanField(
        label=_("Invitation only (private)"), required=False,
        help_text=_("Only the players see this table, its replay and its record; it is not listed "
                    "among the tables. Others join by the invitation link."))

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if game is None:
            game = self.data.get("game") if self.is_bound else self.initial.get("game")
        self.game = chosen_game(game)
        self.fields.update(rule_fields(self.game))
        if self.game != BILKA:
            self.fields["bot_level"].choices = [c for c in BotLevel.choices if c[0] in BOT_LEVELS[self.game]]
        if self.game == BILKA2:
            del self.fields["redeal_seconds"]  # Bilka for two has no redeal
            self.fields["seating"].help_text = _("Two players: North and South, face to face.")

    @property
    def game_value(self) -> str:
        return self.game

    @property
    def is_bilka(self) -> bool:
        return self.game == BILKA

    @property
    def is_bilka2(self) -> bool:
        return self.game == BILKA2

    @property
    def rules_url_name(self) -> str:
        names = {KOZYOL: "gameplay:rules_kozyol", BILKA2: "gameplay:rules_bilka2"}
        return names.get(self.game, "gameplay:rules")

    @property
    def rule_names(self) -> list[str]:
        if self.is_bilka:
            return [f.name for f in fields(Rules)]
        return [p.name for p in games.parameters(self.game)]

    def rule_bound_fields(self) -> list[Any]:
        return [self[name] for name in self.rule_names]

    def preset_details(self) -> list[dict[str, Any]]:
        """Each preset with its words and its options, for the page and its script."""
        return [{"name": name, "label": PRESET_TEXT[name][0], "text": PRESET_TEXT[name][1],
                 "rules": rules.to_json()} for name, rules in PRESETS.items()]

    @property
    def preset_rules(self) -> dict[str, dict[str, Any]]:
        return {name: rules.to_json() for name, rules in PRESETS.items()}

    def rules(self) -> dict[str, Any]:
        """The table's rules: the chosen preset, with every option the player changed on top; a
        Kozyol table's are its options as shown, naming the game."""
        if not self.is_bilka:
            return {"game": self.game, **{name: self.cleaned_data[name] for name in self.rule_names}}
        chosen = PRESETS[self.cleaned_data.get("preset") or DEFAULT_PRESET].to_json()
        shown = PRESETS[self.cleaned_data.get("options_from") or DEFAULT_PRESET].to_json()
        return {name: chosen[name] if self.cleaned_data[name] == shown[name] else self.cleaned_data[name]
                for name in self.rule_names}
