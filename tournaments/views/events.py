"""Pages of an event itself: a club's tournaments, a new one, its settings, its home page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club

from .. import permissions, selectors, services
from ..formats import format_of
from ..forms import TIEBREAK_LABELS, TournamentForm
from ..models import MatchStatus, TournamentStatus
from ..selectors import hall as hall_selectors
from .common import (
    cached_for_visitors,
    context,
    refusals,
    require_manager,
    rules_display,
    saved,
    tournament_or_404,
)


def club_tournaments(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    return render(
        request,
        "tournaments/club_tournaments.html",
        {
            "club": club,
            "tournaments": selectors.club_tournaments(club=club),
            "can_create": permissions.can_create(request.user, club),
        },
    )


def _asked_game(request) -> str | None:
    """The game the page's link asked for (``?game=kozyol``); a posted form says its own."""
    return None if request.method == "POST" else request.GET.get("game")


@login_required
@refusals
def create(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    if not permissions.can_create(request.user, club):
        raise PermissionDenied(_("Only the club's owners and organisers create tournaments."))
    form = TournamentForm(request.POST or None, clubs=[(club.pk, club.name)], game=_asked_game(request))
    created = []

    def write(form):
        created.append(services.create_tournament(actor=request.user, club=club, **form.service_values()))

    def done() -> str:
        if created[0].is_individual:
            return _("The tournament is created. Now register the players.")
        return _("The tournament is created. Now register the pairs.")

    if saved(request, form, write, done):
        return redirect("tournaments:entries", slug=created[0].slug)
    return render(request, "tournaments/form.html", {"form": form, "club": club, "creating": True})


@login_required
@refusals
def edit(request, slug):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_for(tournament),
                          clubs=selectors.prize_clubs(tournament=tournament), game=_asked_game(request))

    def write(form):
        services.update_tournament(actor=request.user, tournament=tournament, **form.service_values())

    if saved(request, form, write, _("Saved.")):
        return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "club": tournament.club,
            "tournament": tournament,
            "rounds_notice": format_of(tournament).rounds_notice(),
        },
    )


@cached_for_visitors
def home(request, slug):
    tournament = tournament_or_404(slug)
    rounds = list(tournament.rounds.order_by("number"))
    next_round_allowed = tournament.status != TournamentStatus.FINISHED and (
        not rounds or rounds[-1].status == "complete"
    )
    shown = context(
        request,
        tournament,
        "home",
        rounds=rounds,
        entry_count=selectors.active_count(tournament=tournament),
        takes_entries=selectors.takes_entries(tournament),
        pending=selectors.pending_entries(tournament=tournament),
        open_matches=selectors.open_matches(tournament=tournament)
        if permissions.can_manage(request.user, tournament)
        else [],
        prizes=selectors.prize_list(tournament=tournament),
        rules=rules_display(tournament),
        tiebreaks=[TIEBREAK_LABELS.get(t, t) for t in selectors.tiebreak_order(tournament)],
        next_round_allowed=next_round_allowed,
        announcement=hall_selectors.latest_announcement(tournament=tournament),
        rounds_notice=format_of(tournament).rounds_notice()
        if permissions.can_manage(request.user, tournament)
        else "",
        missing=rounds[-1].matches.exclude(status=MatchStatus.CONFIRMED).count()
        if rounds and not next_round_allowed and tournament.status != TournamentStatus.FINISHED
        else 0,
    )
    return render(request, "tournaments/home.html", shown)
