"""The archive's forms: finding matches, and the organisers' upload of records played elsewhere."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from archive.selectors import ArchiveFilter, rule_sets, tournaments_in_archive
from clubs.models import Club
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.games import BILKA
from gameplay.engine.kozyol import GAME as KOZYOL
from gameplay.words import BotLevel, rules_label


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
    bots = forms.ChoiceField(label=_("Bots"), required=False)
    game = forms.ChoiceField(label=_("Game"), required=False, choices=[
        ("", _("all")), (BILKA, _("Bilka")), (KOZYOL, _("Kozyol khvalyony")), (BILKA2, _("Bilka for two"))])

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        everyone = [("", gettext("all"))]
        clubs = Club.objects.filter(archived_matches__isnull=False).distinct().order_by("name")
        self.fields["club"].choices = everyone + [(c.pk, c.name) for c in clubs]
        self.fields["tournament"].choices = everyone + tournaments_in_archive(user)
        self.fields["rules"].choices = everyone + [(key, rules_label(r)) for key, r in rule_sets(user)]
        self.fields["bots"].choices = [
            ("", gettext("all")),
            ("none", gettext("without bots")),
            ("any", gettext("with bots")),
            (BotLevel.BEGINNER, gettext("with beginner bots")),
            (BotLevel.STRONG, gettext("with strong bots")),
        ]

    def archive_filter(self) -> ArchiveFilter:
        data = self.cleaned_data if self.is_valid() else {}
        return ArchiveFilter(
            player=data.get("player"), name=(data.get("q") or "").strip(), club=data.get("club"),
            tournament=data.get("tournament"), date_from=data.get("date_from"), date_to=data.get("date_to"),
            rules_key=data.get("rules") or "", bots=data.get("bots") or "", game=data.get("game") or "",
        )


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
    JSON (one record or an array). The files themselves are read by `archive.records`."""

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
