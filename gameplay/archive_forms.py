"""The archive's filter form and the words for a rule set, in the reader's language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from gameplay.archive import ArchiveFilter, rule_sets, tournaments_in_archive
from gameplay.engine.rules import PRESETS, Rules
from gameplay.forms import CHOICE_TEXT, PRESET_TEXT, RULE_TEXT


def rules_label(rules: dict[str, Any]) -> str:
    """A rule set as a player names it: its preset, and what differs from it."""
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


class ArchiveFilterForm(forms.Form):
    q = forms.CharField(label=_("Player"), required=False, max_length=80,
                        widget=forms.TextInput(attrs={"placeholder": _("name"), "autocomplete": "off"}))
    player = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    club = forms.TypedChoiceField(label=_("Club"), required=False, coerce=int, empty_value=None)
    tournament = forms.TypedChoiceField(label=_("Tournament"), required=False, coerce=int, empty_value=None)
    date_from = forms.DateField(label=_("From"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    rules = forms.ChoiceField(label=_("Rules"), required=False)

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        everyone = [("", gettext("all"))]
        clubs = Club.objects.filter(archived_matches__isnull=False).distinct().order_by("name")
        self.fields["club"].choices = everyone + [(c.pk, c.name) for c in clubs]
        self.fields["tournament"].choices = everyone + tournaments_in_archive(user)
        self.fields["rules"].choices = everyone + [(key, rules_label(r)) for key, r in rule_sets(user)]

    def archive_filter(self) -> ArchiveFilter:
        data = self.cleaned_data if self.is_valid() else {}
        return ArchiveFilter(
            player=data.get("player"), name=(data.get("q") or "").strip(), club=data.get("club"),
            tournament=data.get("tournament"), date_from=data.get("date_from"), date_to=data.get("date_to"),
            rules_key=data.get("rules") or "",
        )
