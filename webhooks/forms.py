"""The form that registers a club's webhook: an address and the kinds of events it is sent."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .addresses import MAX_LENGTH
from .models import EventType


class HookForm(forms.Form):
    url = forms.CharField(
        label=_("Address of your receiver"),
        max_length=MAX_LENGTH,
        help_text=_(
            "A secure address (https://…) on the public internet; every event is sent to it as JSON."
        ),
        widget=forms.URLInput(attrs={"placeholder": "https://example.org/bilka-hook", "autocomplete": "off"}),
    )
    events = forms.MultipleChoiceField(
        label=_("Events to send"),
        choices=EventType.choices,
        initial=EventType.values,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one kind of event to send.")},
    )
