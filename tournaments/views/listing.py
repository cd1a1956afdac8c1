"""The tournaments page every visitor reaches from the menu: every club's events, by club and by city."""

from __future__ import annotations

from django import forms
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from clubs.forms import BilkaForm

from .. import selectors


class TournamentFilterForm(BilkaForm):
    """Narrow the list to one club and/or one city; an unknown choice is named and left out, never fatal."""

    club = forms.ChoiceField(
        label=_("Club"), required=False, error_messages={"invalid_choice": _("There is no such club.")}
    )
    city = forms.ChoiceField(
        label=_("City or village"),
        required=False,
        error_messages={"invalid_choice": _("No club holds tournaments in this place.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [("", _("All clubs"))] + [
            (club.slug, club.name) for club in selectors.filter_clubs()
        ]
        self.fields["city"].choices = [("", _("All places"))] + [
            (city, city) for city in selectors.filter_cities()
        ]

    def chosen(self, name: str) -> str:
        """The value of a filter that passed; a refused one filters nothing (its error says why)."""
        if not self.is_bound or name in self.errors:
            return ""
        return self.cleaned_data.get(name, "")


def tournament_list(request):
    form = TournamentFilterForm(request.GET or None)
    club, city = form.chosen("club"), form.chosen("city")
    listing = selectors.tournament_list(club_slug=club, city=city, page=request.GET.get("page", 1))
    return render(
        request,
        "tournaments/list.html",
        {"form": form, "listing": listing, "filtered": bool(club or city)},
    )
