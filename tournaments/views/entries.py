"""Entries pages: the pairs or the players of an event, and the organiser's and players' actions on them.

One entries page for both kinds of event; every action posts to a view that calls one service
(the same for a pair and a player where the step is the same) and comes back to the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Player

from .. import permissions, selectors, services
from ..forms import BulkEntriesForm, PlayersBulkForm, SelfRegisterForm, SubstituteForm
from ..models import Entry, EntryStatus, IndividualEntry, TournamentStatus
from .common import (
    check_in_open,
    error_text,
    page,
    refusals,
    reinstated_text,
    require_manager,
    saved,
    tournament_or_404,
)


def entries(request, slug):
    tournament = tournament_or_404(slug)
    can_manage = permissions.can_manage(request.user, tournament)
    my_pid = permissions.player_id_of(request.user)
    may_register = (
        tournament.self_registration
        and request.user.is_authenticated
        and tournament.status != TournamentStatus.FINISHED
        and not selectors.is_registered(tournament=tournament, player_id=my_pid)
    )
    extra = {
        "my_player_id": my_pid,
        "check_in_open": can_manage and check_in_open(tournament),
    }
    if tournament.is_individual:
        extra |= {
            "players": selectors.players(tournament=tournament),
            "bulk_form": PlayersBulkForm() if can_manage else None,
            "reinstatable": services.reinstatable_players(tournament) if can_manage else set(),
            "may_register": may_register,
        }
        template = "tournaments/individual/players.html"
    else:
        partners = selectors.partner_choices(tournament=tournament, exclude=my_pid)
        extra |= {
            "entries": selectors.entries(tournament=tournament),
            "bulk_form": BulkEntriesForm() if can_manage else None,
            "self_form": SelfRegisterForm(players=partners) if may_register else None,
            "rounds": list(tournament.rounds.order_by("number")) if can_manage else [],
            "reinstatable": services.reinstatable_entries(tournament) if can_manage else set(),
        }
        template = "tournaments/entries.html"
    return page(request, tournament, "entries", template, **extra)


def _back(slug: str):
    return redirect("tournaments:entries", slug=slug)


def _act(request, service, entry, done_text) -> None:
    """Call one entry service for the signed-in user; say what happened on the entries page."""
    try:
        done = service(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        text = done_text(done)
        if text:
            messages.success(request, text)


@login_required
@require_POST
@refusals
def entry_action(request, slug, pk, action):
    """A pair: approve, check in, withdraw, reinstate, or move up or down the seeding."""
    tournament = tournament_or_404(slug)
    entry = get_object_or_404(Entry, pk=pk, tournament=tournament)
    service = {
        "approve": services.approve_entry,
        "check-in": services.check_in_entry,
        "withdraw": services.withdraw_entry,
        "reinstate": services.reinstate_entry,
        "up": lambda **kw: services.move_entry(up=True, **kw),
        "down": lambda **kw: services.move_entry(up=False, **kw),
    }.get(action)
    if service is None:
        raise Http404
    was_withdrawn = entry.status == EntryStatus.WITHDRAWN

    def done_text(done) -> str:
        if action == "reinstate" and was_withdrawn:
            return reinstated_text(done)
        return "" if action in ("up", "down") else _("%(pair)s: done.") % {"pair": entry.name}

    _act(request, service, entry, done_text)
    return _back(slug)


PLAYER_ACTIONS = {
    "approve": (
        services.approve_player,
        lambda e, was: _("%(name)s: done.") % {"name": e.player.display_name},
    ),
    "check-in": (services.check_in_player, lambda e, was: ""),
    "withdraw": (
        services.withdraw_player,
        lambda e, was: _("%(name)s has withdrawn.") % {"name": e.player.display_name},
    ),
    "reinstate": (services.reinstate_player, lambda e, was: reinstated_text(e) if was else ""),
}


@login_required
@require_POST
@refusals
def player_action(request, slug, pk, action):
    """A player of an individual event: approve, check in, withdraw, reinstate."""
    tournament = tournament_or_404(slug)
    entry = get_object_or_404(IndividualEntry.objects.select_related("player"), pk=pk, tournament=tournament)
    service, text = PLAYER_ACTIONS[action]
    was_withdrawn = entry.status == EntryStatus.WITHDRAWN
    _act(request, service, entry, lambda done: text(done, was_withdrawn))
    return _back(slug)


def _pasted(request, slug: str, form_class, register, done_text):
    tournament = tournament_or_404(slug)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            done = register(actor=request.user, tournament=tournament, text=form.cleaned_data["text"])
        except ValidationError as e:
            for text in e.messages:
                messages.error(request, text)
        else:
            messages.success(request, done_text(done))
            for text in getattr(done, "skipped", []):  # lines left out, each with its reason
                messages.warning(request, text)
    return _back(slug)


@login_required
@require_POST
@refusals
def entries_bulk(request, slug):
    return _pasted(
        request,
        slug,
        BulkEntriesForm,
        services.register_entries_bulk,
        lambda result: (
            _("%(n)d pair(s) registered; %(p)d new player(s) added to the roster.")
            % {"n": len(result.entries), "p": len(result.new_players)}
        ),
    )


@login_required
@require_POST
@refusals
def players_bulk(request, slug):
    return _pasted(
        request,
        slug,
        PlayersBulkForm,
        services.register_players_bulk,
        lambda result: _("%(n)d player(s) registered.") % {"n": len(result.entries)},
    )


@login_required
@require_POST
@refusals
def self_register(request, slug):
    tournament = tournament_or_404(slug)
    partners = selectors.partner_choices(
        tournament=tournament, exclude=permissions.player_id_of(request.user)
    )
    form = SelfRegisterForm(request.POST, players=partners)
    if form.is_valid():
        try:
            services.self_register(
                actor=request.user, tournament=tournament, partner=form.cleaned_data["partner"]
            )
        except ValidationError as e:
            messages.error(request, error_text(e))
        else:
            messages.success(request, _("Your pair is registered and waits for the organiser's approval."))
    else:
        messages.error(request, _("Choose your partner."))
    return _back(slug)


@login_required
@require_POST
@refusals
def player_register(request, slug):
    """A player enters himself (the organiser approves)."""
    tournament = tournament_or_404(slug)
    try:
        services.self_register_player(actor=request.user, tournament=tournament)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(request, _("You are registered; the organiser approves the entry."))
    return _back(slug)


@login_required
@refusals
def substitute(request, slug, pk):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    entry = get_object_or_404(
        Entry.objects.select_related("player_a", "player_b"), pk=pk, tournament=tournament
    )
    form = SubstituteForm(
        request.POST or None,
        rounds=tournament.rounds.order_by("number"),
        pair_players=Player.objects.filter(pk__in=(entry.player_a_id, entry.player_b_id)),
        players=selectors.partner_choices(tournament=tournament, exclude=None),
    )
    if saved(
        request,
        form,
        lambda form: services.substitute(actor=request.user, entry=entry, **form.cleaned_data),
        _("The substitution is recorded."),
    ):
        return _back(slug)
    return page(request, tournament, "entries", "tournaments/substitute.html", entry=entry, form=form)
