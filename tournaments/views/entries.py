"""Entries pages: the pairs or the players of an event, and the organiser's and players' actions on them.

One entries page for both kinds of event; every action posts to a view that calls one service
(the same for a pair and a player where the step is the same) and comes back to the page.
Withdrawing asks first (``clubs.confirm``: a GET shows what it does, the POST does it); once
round 1 is paired a player asks the organiser to withdraw him instead.
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.confirm import Question, ask_first
from clubs.models import Player

from .. import permissions, selectors, services
from ..forms import BulkEntriesForm, PlayersBulkForm, PlayerSubstituteForm, SelfRegisterForm, SubstituteForm
from ..models import ACTIVE_STATUSES, Entry, EntryStatus, IndividualEntry, Paid, RoundStatus
from ..selectors import day as day_selectors
from ..services.withdrawals import require_may_withdraw
from .common import (
    check_in_open,
    error_text,
    page,
    refusals,
    reinstated_text,
    require_manager,
    saved,
    tournament_or_404,
    withdrawal_lines,
)


def entries(request, slug):
    tournament = tournament_or_404(slug)
    can_manage = permissions.can_manage(request.user, tournament)
    my_pid = permissions.player_id_of(request.user)
    may_register = (
        request.user.is_authenticated
        and selectors.takes_entries(tournament)
        and not selectors.is_registered(tournament=tournament, player_id=my_pid)
    )
    extra = {
        "my_player_id": my_pid,
        "check_in_open": can_manage and check_in_open(tournament),
        "asked": day_selectors.asked_to_withdraw(tournament=tournament) if my_pid else set(),
        # what each paid is the organisers' business: the page shows it only to them
        "fee_choices": Paid.choices if can_manage and tournament.entry_fee else None,
        "bye_desk": selectors.bye_desk(tournament=tournament, user=request.user),
    }
    if tournament.is_individual:
        players = selectors.players(tournament=tournament)
        extra |= {
            "players": players,
            "counts": _counts(players),
            "replaced": {e.substitute_for_id for e in players if e.substitute_for_id},
            "bulk_form": PlayersBulkForm() if can_manage else None,
            "reinstatable": services.reinstatable_players(tournament) if can_manage else set(),
            "may_register": may_register,
        }
        template = "tournaments/individual/players.html"
    else:
        partners = selectors.partner_choices(tournament=tournament, exclude=my_pid)
        listed = selectors.entries(tournament=tournament)
        extra |= {
            "entries": listed,
            "counts": _counts(listed),
            "bulk_form": BulkEntriesForm() if can_manage else None,
            "self_form": SelfRegisterForm(players=partners) if may_register else None,
            "rounds": list(tournament.rounds.order_by("number")) if can_manage else [],
            "reinstatable": services.reinstatable_entries(tournament) if can_manage else set(),
            "asked_to_partner": selectors.partner_requests(user=request.user, tournament=tournament),
        }
        template = "tournaments/entries.html"
    return page(request, tournament, "entries", template, **extra)


def _pair_or_404(tournament, pk: int) -> Entry:
    """A pair of this event; in an individual event its ``Entry`` rows are its tables'
    partnerships, which no pair's page acts on, so there is none."""
    try:
        return selectors.pair_entry(tournament=tournament, pk=pk)
    except Entry.DoesNotExist:
        raise Http404 from None


def _player_or_404(tournament, pk: int) -> IndividualEntry:
    try:
        return selectors.player_entry(tournament=tournament, pk=pk)
    except IndividualEntry.DoesNotExist:
        raise Http404 from None


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


def _withdraw_question(request, tournament, entry):
    """The confirm page of a withdrawal, or a refusal before it is shown (the service checks again)."""
    own = permissions.player_id_of(request.user) in (
        (entry.player_id,) if isinstance(entry, IndividualEntry) else (entry.player_a_id, entry.player_b_id)
    )
    if not (permissions.can_manage(request.user, tournament) or own):
        raise PermissionDenied(_("Only the organiser or the entry itself can withdraw it."))
    lines = withdrawal_lines(entry)
    return Question(
        title=_("Withdraw %(name)s?") % {"name": entry.name},
        button=_("Withdraw"),
        back=reverse("tournaments:entries", kwargs={"slug": tournament.slug}),
        effects=lines,
    )


def _ask_or_refuse(request, tournament, entry, action):
    """Withdrawing asks first (a GET is its confirm page); every other action only posts."""
    if action == "withdraw":
        if request.method != "POST" and entry.status == EntryStatus.WITHDRAWN:
            return _back(tournament.slug)
        question = _withdraw_question(request, tournament, entry)  # refuses those who may not
        if request.method != "POST":
            try:  # once round 1 is paired a player asks the organiser: say so before asking him
                require_may_withdraw(request.user, tournament, own=True)
            except ValidationError as e:
                messages.error(request, error_text(e))
                return _back(tournament.slug)
        return ask_first(request, question)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    return None


def _asked_text(ask) -> str:
    return _("Your request is sent: the organiser will withdraw you or tell you why not.")



def _counts(rows) -> dict[str, int]:
    """The list heading's figures: those in the event, those waiting (a partner, approval), those
    withdrawn (still listed, so that a withdrawn pair is not counted as playing)."""
    statuses = [row.status for row in rows]
    return {
        "in": sum(s in ACTIVE_STATUSES for s in statuses),
        "waiting": sum(s in (EntryStatus.PARTNER, EntryStatus.PENDING) for s in statuses),
        "withdrawn": statuses.count(EntryStatus.WITHDRAWN),
    }

@login_required
@refusals
def entry_action(request, slug, pk, action):
    """A pair: approve (for a pair waiting for its partner, on her behalf too), the partner's accept
    or decline, check in, withdraw (asks first), ask to withdraw, reinstate, move in the seeding."""
    tournament = tournament_or_404(slug)
    entry = _pair_or_404(tournament, pk)
    service = {
        "approve": services.approve_entry,
        "accept": services.accept_partner,
        "decline": services.decline_partner,
        "check-in": lambda **kw: services.check_in_entry(paid=request.POST.get("paid", ""), **kw),
        "withdraw": services.withdraw_entry,
        "ask-withdraw": services.ask_to_withdraw,
        "reinstate": services.reinstate_entry,
        "up": lambda **kw: services.move_entry(up=True, **kw),
        "down": lambda **kw: services.move_entry(up=False, **kw),
    }.get(action)
    if service is None:
        raise Http404
    asked = _ask_or_refuse(request, tournament, entry, action)
    if asked is not None:
        return asked
    was_withdrawn = entry.status == EntryStatus.WITHDRAWN

    def done_text(done) -> str:
        if action == "reinstate" and was_withdrawn:
            return reinstated_text(done)
        if action == "ask-withdraw":
            return _asked_text(done)
        if action == "accept":
            return _("You are in the pair %(pair)s; now the organiser approves it.") % {"pair": entry.name}
        if action == "decline":
            return _("You have declined to play in the pair %(pair)s.") % {"pair": entry.name}
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
    "ask-withdraw": (services.ask_to_withdraw, lambda e, was: _asked_text(e)),
    "reinstate": (services.reinstate_player, lambda e, was: reinstated_text(e) if was else ""),
}


@login_required
@refusals
def player_action(request, slug, pk, action):
    """A player of an individual event: approve, check in, withdraw (asks first), ask to leave, reinstate."""
    tournament = tournament_or_404(slug)
    entry = _player_or_404(tournament, pk)
    service, text = PLAYER_ACTIONS[action]
    if action == "check-in":  # the fee, when chosen beside the button, is written in the same step
        service = partial(services.check_in_player, paid=request.POST.get("paid", ""))
    asked = _ask_or_refuse(request, tournament, entry, action)
    if asked is not None:
        return asked
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
            entry = services.self_register(
                actor=request.user, tournament=tournament, partner=form.cleaned_data["partner"]
            )
        except ValidationError as e:
            messages.error(request, error_text(e))
        else:
            if entry.status == EntryStatus.PARTNER:
                messages.success(
                    request,
                    _(
                        "Your pair is registered and waits for %(partner)s to accept it; then the"
                        " organiser approves it. Until then %(partner)s may still enter with someone else."
                    )
                    % {"partner": entry.player_b.display_name},
                )
            else:
                messages.success(
                    request, _("Your pair is registered and waits for the organiser's approval.")
                )
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
    entry = _pair_or_404(tournament, pk)
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


@login_required
@refusals
def player_substitute(request, slug, pk):
    """The organiser puts a substitute in for a player of an individual event who left."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    entry = _player_or_404(tournament, pk)
    open_round = tournament.rounds.exclude(status=RoundStatus.COMPLETE).order_by("number").first()
    form = PlayerSubstituteForm(
        request.POST or None,
        initial={"from_round": open_round.number if open_round else tournament.rounds.count() + 1},
        players=selectors.substitute_choices(tournament=tournament),
    )
    if saved(
        request,
        form,
        lambda form: services.substitute_player(actor=request.user, entry=entry, **form.cleaned_data),
        _("The substitute is in."),
    ):
        return _back(slug)
    return page(request, tournament, "entries", "tournaments/substitute.html", entry=entry, form=form)
