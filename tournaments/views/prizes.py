"""The organiser's prize pages: the players' details the categories read, and the printable prize
list with one certificate a prize."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import selectors, services
from ..prize_form import PlayerDetailsForm
from .common import refusals, require_manager, saved, tournament_or_404


@login_required
@refusals
def player_details(request, slug):
    """Year of birth, woman or man, village: for the prize categories; only the organisers see it."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    rows = selectors.details_rows(tournament=tournament)
    form = PlayerDetailsForm(request.POST if request.method == "POST" else None, rows=rows)
    done: list[int] = []

    def write(form):
        done.append(
            services.save_player_details(actor=request.user, tournament=tournament, details=form.details())
        )

    if saved(request, form, write, lambda: _("Players' details saved (changed: %(n)d).") % {"n": done[0]}):
        return redirect("tournaments:player_details", slug=slug)
    categories = selectors.prize_setup(tournament).categories
    shown = {"tournament": tournament, "form": form, "categories": categories}
    return render(
        request, "tournaments/player_details.html", shown, status=400 if request.method == "POST" else 200
    )


@login_required
@refusals
def print_prizes(request, slug):
    """The prize list and a certificate for each prize given, one A4 page each, for the organiser."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    lines = selectors.prize_list(tournament=tournament)
    return render(
        request,
        "tournaments/print_prizes.html",
        {
            "tournament": tournament,
            "lines": lines,
            "certificates": [line for line in lines if line.winners],
        },
    )
