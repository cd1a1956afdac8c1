"""The hall on the day: the wall screen for the projector, and the organiser's announcements and pin.

The wall screen is public like the tournament page (the same ``tournament_or_404``), worked out
once for every visitor until the tournament changes (``cached_for_visitors``), and refreshes over
the tournament socket; without JavaScript it shows the pairings and reloads every 30 seconds.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..forms import AnnouncementForm, HallViewForm
from ..models import Announcement, HallView
from ..selectors import hall as hall_selectors
from .common import cached_for_visitors, error_text, refusals, tournament_or_404

HALL_SECONDS = 15
"""How long the wall screen shows each view before the next."""


@cached_for_visitors
def hall(request, slug):
    tournament = tournament_or_404(slug)
    screen = hall_selectors.hall_screen(tournament=tournament)
    return render(
        request,
        "tournaments/hall.html",
        {
            "tournament": tournament,
            "screen": screen,
            "view_names": dict(HallView.choices),
            "seconds": HALL_SECONDS,
            "density": _density(len(screen.tables)),
        },
    )


def _density(tables: int) -> str:
    """How large the type can be with this many tables on one screen (JavaScript fits it finer)."""
    if tables <= 10:
        return "roomy"
    return "dense" if tables <= 24 else "tight"


@login_required
@require_POST
@refusals
def announce(request, slug):
    """The organiser posts a message to the hall (the service refuses everyone else: 403)."""
    tournament = tournament_or_404(slug)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            text = form.cleaned_data["text"]
            services.post_announcement(actor=request.user, tournament=tournament, text=text)
        except ValidationError as error:
            messages.error(request, error_text(error))
        else:
            messages.success(request, _("The announcement is on the hall screen, and the players are told."))
    return redirect("tournaments:dashboard", slug=slug)


@login_required
@require_POST
@refusals
def withdraw_announcement(request, slug, pk):
    tournament = tournament_or_404(slug)
    note = get_object_or_404(Announcement, pk=pk, tournament=tournament)
    services.withdraw_announcement(actor=request.user, announcement=note)
    messages.success(request, _("The announcement is taken off the hall screen."))
    return redirect("tournaments:dashboard", slug=slug)


@login_required
@require_POST
@refusals
def pin_view(request, slug):
    """The organiser keeps the wall screen on one view, or lets it cycle again."""
    tournament = tournament_or_404(slug)
    form = HallViewForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown view of the hall screen."))
    else:
        services.pin_hall_view(actor=request.user, tournament=tournament, view=form.cleaned_data["view"])
        messages.success(request, _("The hall screen follows the new setting."))
    return redirect("tournaments:dashboard", slug=slug)
