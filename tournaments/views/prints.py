"""Printed pages of a whole event: the final crosstable (public, as the crosstable page) and the
tournament report (the organisers': it shows the arbiter's corrections and who made them)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from ..formats import format_of
from ..forms import TIEBREAK_LABELS
from ..models import Format
from ..selectors import crosstable as crosstable_grid
from ..selectors import prints
from ..selectors.standings import round_crosstable
from .common import cached_for_visitors, refusals, require_manager, rules_display, tournament_or_404


@cached_for_visitors
def print_crosstable(request, slug):
    """The crosstable on A4: a Swiss's rounds in portrait, rows breaking across pages under their
    repeated heads; an all-play-all grid in landscape, cut into tables of at most 20 opponents."""
    tournament = tournament_or_404(slug)
    if "crosstable" not in format_of(tournament).pages:
        raise Http404
    shown = {"tournament": tournament}
    if tournament.format == Format.SWISS:
        shown["grid"] = round_crosstable(tournament=tournament)
    else:
        shown["parts"] = prints.crosstable_parts(crosstable_grid(tournament=tournament))
    return render(request, "tournaments/print_crosstable.html", shown)


@login_required
@refusals
def print_report(request, slug):
    """The tournament report on A4, for the organisers (the corrections name who made them)."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    report = prints.report(tournament=tournament)
    return render(
        request,
        "tournaments/print_report.html",
        {
            "tournament": tournament,
            "report": report,
            "format_label": tournament.get_format_display(),
            "rules": rules_display(tournament),
            "tiebreak_labels": [TIEBREAK_LABELS.get(t, t) for t in report.table.tiebreaks],
            "has_crosstable": "crosstable" in format_of(tournament).pages,
            "printed_at": timezone.now(),
        },
    )
