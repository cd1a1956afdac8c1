"""Round pages: a round's pairings (or seated tables), its options, pairing the next, print views, results;
the pairing changed by hand (a swap, a table number) and the last round unpaired after a confirm page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.confirm import Question, ask_first

from .. import permissions, selectors, services
from ..forms import RoundForm
from ..models import IndividualEntry, Match, Round, Tournament
from ..result_forms import DEAL_ROWS
from ..selectors.prints import series_sheets
from .common import (
    cached_for_visitors,
    error_text,
    game_of_event,
    page,
    refusals,
    require_manager,
    rules_display,
    tournament_or_404,
)
from .devices import table_card_list


def _round(tournament: Tournament, number: int):
    """The round with its matches, or in an individual event its seated tables (``SeatedRound``)."""
    try:
        if tournament.is_individual:
            return selectors.seated_round(tournament=tournament, number=number)
        return selectors.round_detail(tournament=tournament, number=number)
    except Round.DoesNotExist:
        raise Http404 from None


def _pairing_tools(request, tournament: Tournament, rnd: Round, rounds: list[Round]) -> dict:
    """The organiser's pairing controls of a round: swap, table numbers, unpair (the last round)."""
    if not permissions.can_manage(request.user, tournament) or not selectors.editable(rnd):
        return {}
    return {
        "pairing_editable": True,
        "swap_choices": selectors.swap_choices(rnd),
        "table_matches": selectors.numbered_tables(rnd),
        "is_last_round": rounds[-1].number == rnd.number,
    }


@cached_for_visitors
def round_view(request, slug, number):
    tournament = tournament_or_404(slug)
    rounds = list(tournament.rounds.order_by("number"))
    if tournament.is_individual:
        seated = _round(tournament, number)
        tools = _pairing_tools(request, tournament, seated.round, rounds)
        template, extra = "tournaments/individual/round.html", {"seated": seated, "round": seated.round}
        return page(request, tournament, "rounds", template, rounds=rounds, **extra, **tools)
    rnd = _round(tournament, number)
    round_form = None
    tools = _pairing_tools(request, tournament, rnd, rounds)
    if permissions.can_manage(request.user, tournament):
        round_form = RoundForm(
            initial={
                "deadline": rnd.deadline, "play_mode": rnd.play_mode, "best_of": rnd.best_of,
                "length": rnd.length,
            }
        )
    return page(
        request,
        tournament,
        "rounds",
        "tournaments/round.html",
        round=rnd,
        rounds=rounds,
        round_form=round_form,
        **tools,
    )


@cached_for_visitors
def results(request, slug):
    tournament = tournament_or_404(slug)
    return page(
        request,
        tournament,
        "results",
        "tournaments/results.html",
        rounds=selectors.rounds_with_matches(tournament=tournament),
        coming=selectors.coming_matchdays(tournament=tournament),
    )


def print_pairings(request, slug, number):
    tournament = tournament_or_404(slug)
    found = _round(tournament, number)
    rnd = found.round if tournament.is_individual else found
    cards = _round_cards(request, tournament, rnd)
    if tournament.is_individual:
        shown = {"tournament": tournament, "seated": found, "round": found.round, "cards": cards}
        return render(request, "tournaments/individual/print_pairings.html", shown)
    shown = {"tournament": tournament, "round": found, "cards": cards}
    return render(request, "tournaments/print_pairings.html", shown)


def _round_cards(request, tournament: Tournament, rnd: Round) -> list[dict]:
    """The round's table cards (their codes open the tables' devices): for the organiser only."""
    if not permissions.can_manage(request.user, tournament):
        return []
    tables = sorted(set(rnd.matches.filter(bye=False).values_list("table", flat=True)))
    return table_card_list(tournament, tables)


@login_required
@refusals
def print_sheets(request, slug, number):
    """A4 score sheets, one per table, with the table's PIN: for the organiser only. A best-of tie
    prints every game it may play, those the site adds later included (``series_sheets``)."""
    tournament = tournament_or_404(slug)
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the organiser prints score sheets: they carry the tables' PINs."))
    try:
        rnd = selectors.round_detail(tournament=tournament, number=number)
    except Round.DoesNotExist:
        raise Http404 from None
    sheets = series_sheets(tournament=tournament, rnd=rnd)
    return render(
        request,
        "tournaments/print_sheets.html",
        {
            "tournament": tournament, "round": rnd, "lines": range(1, DEAL_ROWS + 1), "sheets": sheets,
            "series": any(s.best_of > 1 for s in sheets),
            "rules": rules_display(tournament),
            "kozyol_sheet": game_of_event(tournament)["code"] == "kozyol",
            "cards": _round_cards(request, tournament, rnd),
        },
    )


@login_required
@require_POST
@refusals
def pair_next(request, slug):
    tournament = tournament_or_404(slug)
    try:
        rnd = services.pair_next_round(actor=request.user, tournament=tournament)
    except ValidationError as e:
        messages.error(request, error_text(e))
        return redirect(tournament)
    messages.success(request, _("Round %(n)d is paired.") % {"n": rnd.number})
    return redirect("tournaments:round", slug=slug, number=rnd.number)


@login_required
@require_POST
@refusals
def round_edit(request, slug, number):
    tournament = tournament_or_404(slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    form = RoundForm(request.POST)
    if form.is_valid():
        try:
            services.set_round_options(
                actor=request.user,
                round=rnd,
                deadline=form.cleaned_data["deadline"],
                play_mode=form.cleaned_data["play_mode"],
                best_of=form.cleaned_data["best_of"],
                length=form.cleaned_data["length"],
            )
        except ValidationError as e:
            messages.error(request, error_text(e))
        else:
            messages.success(request, _("Saved."))
    return redirect("tournaments:round", slug=slug, number=number)


@login_required
@refusals
def no_show(request, slug, pk, entry):
    """The organiser marks a player at a table of an individual event as not having come: asks
    first (``clubs.confirm``), for it scores his partnership a 0:12 forfeit."""
    tournament = tournament_or_404(slug)
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))
    match = get_object_or_404(Match.objects.select_related("round"), pk=pk, tournament=tournament)
    entry = get_object_or_404(
        IndividualEntry.objects.select_related("player"), pk=entry, tournament=tournament
    )
    back = reverse("tournaments:round", kwargs={"slug": slug, "number": match.round.number})
    name = entry.player.display_name
    asked = ask_first(
        request,
        Question(
            title=_("Record %(name)s as a no-show?") % {"name": name},
            button=_("Record the no-show"),
            back=back,
            effects=[_("His pair loses the table 0:12; his partner is scored a win, he a forfeit.")],
        ),
    )
    if asked is not None:
        return asked
    try:
        services.record_no_show(actor=request.user, match=match, entry=entry)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(request, _("%(name)s: no-show recorded, 12:0 to the other side.") % {"name": name})
    return redirect(back)


def _number(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@refusals
def unpair(request, slug, number):
    """The confirm page of unpairing the last round: GET lists what goes (tables, results reported
    but unconfirmed, live tables), POST does it. No JavaScript needed."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    try:
        preview = selectors.unpair_preview(tournament=tournament, number=number)
    except Round.DoesNotExist:
        raise Http404 from None
    if request.method == "POST":
        discard = {n for n in map(_number, request.POST.getlist("discard")) if n is not None}
        try:
            services.unpair_round(actor=request.user, round=preview.round, discard=discard)
        except ValidationError as e:
            messages.error(request, error_text(e))
            return redirect("tournaments:unpair", slug=slug, number=number)
        done = _("Round %(n)d is unpaired; its players are told. Pair it again when ready.")
        messages.success(request, done % {"n": number})
        if number > 1:
            return redirect("tournaments:round", slug=slug, number=number - 1)
        return redirect(tournament)
    rounds = list(tournament.rounds.order_by("number"))
    return page(request, tournament, "rounds", "tournaments/unpair.html", preview=preview, rounds=rounds)


@login_required
@require_POST
@refusals
def swap(request, slug, number):
    """Two pairs (players in an individual event) change places; a rematch asks to be accepted."""
    tournament = tournament_or_404(slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    first, second = _number(request.POST.get("first")), _number(request.POST.get("second"))
    back = redirect("tournaments:round", slug=slug, number=number)
    if first is None or second is None:
        messages.error(request, _("Choose the two to swap."))
        return back
    try:
        accept = request.POST.get("accept") == "1"
        services.swap_in_round(actor=request.user, round=rnd, first=first, second=second, accept=accept)
    except services.PairingWarning as warning:
        names = dict(selectors.swap_choices(rnd))
        return page(
            request,
            tournament,
            "rounds",
            "tournaments/pairing_warning.html",
            round=rnd,
            warnings=warning.messages,
            first=first,
            second=second,
            first_name=names.get(first, ""),
            second_name=names.get(second, ""),
        )
    except ValidationError as e:
        messages.error(request, error_text(e))
        return back
    messages.success(request, _("Swapped. The players concerned are told where they play now."))
    return back


@login_required
@require_POST
@refusals
def table_number(request, slug, number):
    tournament = tournament_or_404(slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    match = get_object_or_404(Match, pk=_number(request.POST.get("match")) or 0, round=rnd)
    table = _number(request.POST.get("table"))
    try:
        if table is None:
            raise ValidationError(_("A table number is a whole number from 1 to 999."))
        services.set_table_number(actor=request.user, match=match, table=table)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(request, _("Table number saved. The players concerned are told."))
    return redirect("tournaments:round", slug=slug, number=number)
