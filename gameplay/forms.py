"""The open-a-table form, built from the engine's rules definitions: every parameter with its default,
and the named presets (`engine.rules.PRESETS`) a table starts from.

A preset is applied by the server, so it works without JavaScript: an option the player left as the
form showed it takes the chosen preset's value; an option he changed keeps his value. The hidden
`options_from` names the preset the shown options came from (the page's script sets it when it
fills the options on a change of preset).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gameplay.engine import rules as engine_rules
from gameplay.engine.rules import PRESETS, Rules
from gameplay.models import REDEAL_SECONDS_MAX, REDEAL_SECONDS_MIN, BotLevel, Seating
from gameplay.seat_words import seat_letter


def clockwise() -> str:
    """The direction of play, its seats in the reader's letters."""
    return gettext("Clockwise: %(order)s.") % {"order": " → ".join(seat_letter(s) for s in "NESW")}


BOT_LEVEL_HELP = _("The beginner answers at once; the strong bot thinks about a second a card, "
                   "guessing the hidden hands from what it has seen.")


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
DEFAULT_PRESET = "online"


def rule_fields() -> dict[str, forms.Field]:
    """One form field per rule parameter, its initial value the engine's default."""
    out: dict[str, forms.Field] = {}
    for p in engine_rules.parameters():
        label, help_text = RULE_TEXT.get(p.name, (p.name, ""))
        field: forms.Field
        # Radio buttons, not a select: every option's words wrap and stay readable on a phone.
        if p.kind == "choice" and all(isinstance(v, int) for v in p.choices):
            field = forms.TypedChoiceField(choices=[(v, str(v)) for v in p.choices], coerce=int,
                                           initial=p.default, widget=forms.RadioSelect)
        elif p.kind == "choice":
            field = forms.ChoiceField(choices=[(v, CHOICE_TEXT.get(str(v), v)) for v in p.choices],
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
    return CHOICE_TEXT.get(value, value) if isinstance(value, str) else value


def preset_choices() -> list[tuple[str, str]]:
    return [(name, str(PRESET_TEXT[name][0])) for name in PRESETS]


class TableForm(forms.Form):
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(rule_fields())

    @property
    def rule_names(self) -> list[str]:
        return [f.name for f in fields(Rules)]

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
        """The table's rules: the chosen preset, with every option the player changed on top."""
        chosen = PRESETS[self.cleaned_data.get("preset") or DEFAULT_PRESET].to_json()
        shown = PRESETS[self.cleaned_data.get("options_from") or DEFAULT_PRESET].to_json()
        return {name: chosen[name] if self.cleaned_data[name] == shown[name] else self.cleaned_data[name]
                for name in self.rule_names}


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files under one name (Django's own recipe): each is cleaned, a list is returned."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(d, initial) for d in data]
        return [super().clean(data, initial)] if data else []


class ArchiveUploadForm(forms.Form):
    """Records of matches played elsewhere, for one of the uploader's clubs: files and/or pasted
    JSON (one record or an array). The files themselves are read by `gameplay.record_input`."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=None, empty_label=None)
    #: An ISO date, the only one a date input shows whatever the reader's language.
    played = forms.DateField(label=_("When was it played"),
                             widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    public = forms.BooleanField(label=_("Anyone may see these matches"), required=False, initial=True)
    files = MultipleFileField(label=_("Record files (JSON)"), required=False,
                            widget=MultipleFileInput(attrs={"accept": ".json,application/json"}))
    pasted = forms.CharField(label=_("…or paste a record, or a JSON array of records"), required=False,
                             widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def __init__(self, *args: Any, clubs: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
        self.fields["played"].initial = timezone.localdate
