"""A tournament's audit log for its organisers: who changed what, when, before and after, and why."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required

from clubs.audit_labels import filter_values, log_page

from ..selectors import audit as audit_selectors
from .common import page, refusals, require_manager, tournament_or_404


@login_required
@refusals
def audit_log(request, slug):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    kind, round_number = filter_values(request.GET)
    codes, rounds = audit_selectors.audit_filters(tournament=tournament)
    rows = audit_selectors.audit_log(tournament=tournament, kind=kind, round_number=round_number)
    shown = log_page(rows, query=request.GET, codes=codes, rounds=rounds)
    return page(request, tournament, "audit", "tournaments/audit.html", **shown)
