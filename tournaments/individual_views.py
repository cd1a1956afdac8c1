"""Pages of individual events (issue 6): players, seated rounds, individual standings, exports, print.

The pairs views hand an individual event's entries, round, standings, print and export pages to
the functions here; results are the pairs' match pages (a table is a match of two partnerships).
Reads through ``individual_selectors``, every write through one ``individual_services`` call.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.forms import BilkaForm

from . import individual_selectors, individual_services, permissions
from .models import EntryStatus, IndividualEntry, Match, Tournament, TournamentStatus
from .views import _check_in_open, _context, _error_text, _tournament, refusals, reinstated_text


class PlayersBulkForm(BilkaForm):
    text = forms.CharField(
        label=gettext_lazy("Players, one per line"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Нұрлан Ахметов\nОлег Ткаченко"}),
        help_text=gettext_lazy(
            "Names on the club's roster are found in any alphabet; new names are added to the roster."
        ),
    )


def players(request, tournament: Tournament):
    can_manage = permissions.can_manage(request.user, tournament)
    return render(
        request,
        "tournaments/individual/players.html",
        _context(
            request,
            tournament,
            "entries",
            players=individual_selectors.players(tournament=tournament),
            bulk_form=PlayersBulkForm() if can_manage else None,
            my_player_id=permissions.player_id_of(request.user),
            check_in_open=can_manage and _check_in_open(tournament),
            reinstatable=individual_services.reinstatable_players(tournament) if can_manage else set(),
            may_register=(
                tournament.self_registration
                and request.user.is_authenticated
                and tournament.status != TournamentStatus.FINISHED
                and not tournament.individual_entries.filter(player_id=permissions.player_id_of(request.user))
                .exclude(status=EntryStatus.WITHDRAWN)
                .exists()
            ),
        ),
    )


def round_view(request, tournament: Tournament, number: int):
    try:
        seated = individual_selectors.seated_round(tournament=tournament, number=number)
    except tournament.rounds.model.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "tournaments/individual/round.html",
        _context(
            request,
            tournament,
            "rounds",
            seated=seated,
            round=seated.round,
            rounds=list(tournament.rounds.order_by("number")),
        ),
    )


def standings(request, tournament: Tournament):
    return render(
        request,
        "tournaments/individual/standings.html",
        _context(
            request,
            tournament,
            "standings",
            table=individual_selectors.individual_standings_view(tournament=tournament),
            prizes=individual_selectors.prize_list(tournament=tournament),
        ),
    )


def print_pairings(request, tournament: Tournament, number: int):
    try:
        seated = individual_selectors.seated_round(tournament=tournament, number=number)
    except tournament.rounds.model.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "tournaments/individual/print_pairings.html",
        {"tournament": tournament, "seated": seated, "round": seated.round},
    )


def standings_rows(tournament: Tournament):
    for line in individual_selectors.individual_standings_view(tournament=tournament).lines:
        r = line.row
        yield {
            "place": r.place,
            "shared": r.shared,
            "player": line.entry.player.display_name,
            "player_id": line.entry.player_id,
            "match_points": r.match_points,
            "played": r.played,
            "wins": r.wins,
            "losses": r.losses,
            "byes": r.byes,
            "forfeits": r.forfeits,
            "eyes_for": r.eyes_for,
            "eyes_against": r.eyes_against,
            "eye_difference": r.eye_difference,
            "buchholz": r.buchholz,
            "withdrawn": r.withdrawn,
            "prize": line.prize,
        }


def seat_rows(tournament: Tournament):
    return individual_selectors.seat_rows(tournament=tournament)


# --- organiser and player actions ----------------------------------------------------------------


@login_required
@require_POST
@refusals
def players_bulk(request, slug):
    tournament = _tournament(slug)
    form = PlayersBulkForm(request.POST)
    if form.is_valid():
        try:
            added = individual_services.register_players_bulk(
                actor=request.user, tournament=tournament, text=form.cleaned_data["text"]
            )
        except ValidationError as e:
            for text in e.messages:
                messages.error(request, text)
        else:
            messages.success(request, _("%(n)d player(s) registered.") % {"n": len(added)})
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def player_withdraw(request, slug, pk):
    tournament = _tournament(slug)
    entry = get_object_or_404(IndividualEntry.objects.select_related("player"), pk=pk, tournament=tournament)
    try:
        individual_services.withdraw_player(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("%(name)s has withdrawn.") % {"name": entry.player.display_name})
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def player_reinstate(request, slug, pk):
    tournament = _tournament(slug)
    entry = get_object_or_404(IndividualEntry.objects.select_related("player"), pk=pk, tournament=tournament)
    was_withdrawn = entry.status == EntryStatus.WITHDRAWN
    try:
        done = individual_services.reinstate_player(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        if was_withdrawn:
            messages.success(request, reinstated_text(done))
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def no_show(request, slug, pk):
    """The organiser marks a player at a table as not having come."""
    tournament = _tournament(slug)
    match = get_object_or_404(Match.objects.select_related("round"), pk=pk, tournament=tournament)
    entry = get_object_or_404(
        IndividualEntry.objects.select_related("player"), pk=request.POST.get("entry"), tournament=tournament
    )
    try:
        individual_services.record_no_show(actor=request.user, match=match, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(
            request,
            _("%(name)s: no-show recorded, 12:0 to the other side.") % {"name": entry.player.display_name},
        )
    return redirect("tournaments:round", slug=slug, number=match.round.number)


@login_required
@require_POST
@refusals
def player_register(request, slug):
    """A player enters himself (the organiser approves)."""
    tournament = _tournament(slug)
    try:
        individual_services.self_register_player(actor=request.user, tournament=tournament)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("You are registered; the organiser approves the entry."))
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def player_approve(request, slug, pk):
    tournament = _tournament(slug)
    entry = get_object_or_404(IndividualEntry.objects.select_related("player"), pk=pk, tournament=tournament)
    try:
        individual_services.approve_player(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("%(name)s: done.") % {"name": entry.player.display_name})
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def player_check_in(request, slug, pk):
    tournament = _tournament(slug)
    entry = get_object_or_404(IndividualEntry.objects.select_related("player"), pk=pk, tournament=tournament)
    try:
        individual_services.check_in_player(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    return redirect("tournaments:entries", slug=slug)
