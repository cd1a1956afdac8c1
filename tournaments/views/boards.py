"""A duplicate event's boards: the list, each board's traveller, the printed hand records, and a
table's board results entered (by the organiser, or the table with both pairs' PINs).

Results and hands of a board reach the public only once every table that plays it has played it
(``selectors.boards``); the organisers see them as they come."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from archive.replays import render_replay
from clubs.addresses import client_address
from clubs.form_keys import once_per_key
from clubs.forms import BilkaForm

from .. import permissions, services
from ..formats import format_of
from ..formats.duplicate import set_boards
from ..models import Adjusted, Match
from ..selectors import boards as board_selectors
from .common import cached_for_visitors, error_text, page, refusals, require_manager, tournament_or_404

ADJUSTED_CHOICES = [("", "—"), *Adjusted.choices]


def pin_sender(request) -> services.PinSender:
    """Who types the PINs, for the counters of wrong PINs (as on a match's page)."""
    if not request.session.session_key:
        request.session.save()
    return services.PinSender(session=request.session.session_key or "", address=client_address(request))


def duplicate_or_404(slug: str):
    tournament = tournament_or_404(slug)
    if not tournament.is_duplicate:
        raise Http404
    return tournament


@cached_for_visitors
def board_list(request, slug):
    tournament = duplicate_or_404(slug)
    return page(request, tournament, "boards", "tournaments/boards.html",
                boards=board_selectors.board_list(tournament=tournament),
                seed_checks=board_selectors.seed_check(tournament=tournament))  # fmt: skip


@cached_for_visitors
def board(request, slug, number):
    """A board's traveller: every table's result on it and the hands, once every table has played it."""
    tournament = duplicate_or_404(slug)
    shown = board_selectors.traveller(tournament=tournament, number=number)
    if shown is None:
        raise Http404
    visible = shown.complete or permissions.can_manage(request.user, tournament)
    if not visible:  # a table still to play it learns nothing: not the results, not the cards
        shown = board_selectors.Board(number=number, to_play=shown.to_play, played=shown.played)
    elif shown.par is None and shown.hands:  # paired before par was worked out, or its task lost
        services.queue_board_pars(tournament, [number])
    return page(request, tournament, "boards", "tournaments/board.html", board=shown, visible=visible)


@require_GET
def board_replay(request, slug, number, pk):
    """The replay of the live table where ``pk``'s pairs played board ``number`` online, at that board
    (the traveller's link, ``?deal=``). By the traveller's rule: to everyone once every board of the
    table's set has a result at every table that plays it (the replay holds the whole set), to the
    organisers before; anyone else, and a board not played online, gets the one 404."""
    tournament = duplicate_or_404(slug)
    match = Match.objects.filter(pk=pk, tournament=tournament, bye=False).first()
    if match is None or number not in set_boards(tournament, match.slot):
        raise Http404
    record = board_selectors.board_replay_record(tournament=tournament, match=match)
    shown = permissions.can_manage(request.user, tournament) or board_selectors.set_complete(
        tournament=tournament, match=match)
    if record is None or not shown:
        raise Http404
    return render_replay(
        request, record=record,
        title=_("Board %(n)s, table %(t)s: replay") % {"n": number, "t": match.table},
        back_url=reverse("tournaments:board", kwargs={"slug": tournament.slug, "number": number}),
        back_label=_("Board %(n)s") % {"n": number}, download_url=None,
    )  # fmt: skip


@login_required
@refusals
def print_boards(request, slug):
    """The hand records on A4, two boards a page, for the tables to deal from, and each pair's card
    of the movement (organisers only)."""
    tournament = duplicate_or_404(slug)
    require_manager(request, tournament)
    records = board_selectors.hand_records(tournament=tournament)
    per_hand = records[0].hands[0].count if records and records[0].hands else 0
    return render(request, "tournaments/print_boards.html",
                  {"tournament": tournament, "boards": records, "per_hand": per_hand, "total": 4 * per_hand,
                   "cards": board_selectors.pair_cards(tournament=tournament)})


class BoardResultsForm(BilkaForm):
    """NS's card points on each of a table's boards, or each side's adjusted score; the PINs of both
    pairs when the table enters them itself. What a value may be is the service's check."""

    def __init__(self, *args, boards: range, pins: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.boards = boards
        for b in boards:
            self.fields[f"ns_{b}"] = forms.IntegerField(
                label=_("Board %(n)d: NS card points") % {"n": b}, required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 120}))
            self.fields[f"nsadj_{b}"] = forms.ChoiceField(
                label=_("NS adjusted"), choices=ADJUSTED_CHOICES, required=False)
            self.fields[f"ewadj_{b}"] = forms.ChoiceField(
                label=_("EW adjusted"), choices=ADJUSTED_CHOICES, required=False)
        if pins:
            self.fields["home_pin"] = forms.CharField(label=gettext_lazy("NS pair's PIN"), max_length=8)
            self.fields["away_pin"] = forms.CharField(label=gettext_lazy("EW pair's PIN"), max_length=8)

    def rows(self):
        return [(b, self[f"ns_{b}"], self[f"nsadj_{b}"], self[f"ewadj_{b}"]) for b in self.boards]

    def entries(self) -> list[services.BoardEntry]:
        data = self.cleaned_data
        out = []
        for b in self.boards:
            points = data.get(f"ns_{b}")
            ns_adj, ew_adj = data.get(f"nsadj_{b}") or "", data.get(f"ewadj_{b}") or ""
            if points is not None or ns_adj or ew_adj:
                out.append(services.BoardEntry(b, ns_points=points, ns_adjusted=ns_adj, ew_adjusted=ew_adj))
        return out


@once_per_key
@refusals
def board_entry(request, slug, pk):
    """A table's board results: the organiser enters and corrects; the table enters each board once
    with both pairs' PINs. Nobody but the organisers sees the values entered here."""
    tournament = duplicate_or_404(slug)
    try:
        match = Match.objects.select_related("home", "away", "round").get(
            pk=pk, tournament=tournament, bye=False
        )
    except Match.DoesNotExist:
        raise Http404 from None
    organiser = permissions.can_manage(request.user, tournament)
    boards = format_of(tournament).boards_of(match)
    done = {r.board: r for r in match.board_results.all()}
    initial = {}
    if organiser:
        for b, r in done.items():
            initial.update({f"ns_{b}": r.ns_points, f"nsadj_{b}": r.ns_adjusted, f"ewadj_{b}": r.ew_adjusted})
    form = BoardResultsForm(request.POST or None, boards=boards, pins=not organiser, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            pins = None if organiser else (form.cleaned_data["home_pin"], form.cleaned_data["away_pin"])
            services.enter_board_results(actor=request.user, match=match, entries=form.entries(), pins=pins,
                                         sender=None if organiser else pin_sender(request))
        except ValidationError as error:
            form.add_error(None, error_text(error))
        else:
            messages.success(request, _("Board results saved."))
            return redirect("tournaments:board_entry", slug=tournament.slug, pk=match.pk)
    return page(request, tournament, "rounds", "tournaments/board_entry.html", match=match, form=form,
                done=sorted(done), organiser=organiser)
