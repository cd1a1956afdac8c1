"""A club's audit log for its owners and organisers: every change in the club and its tournaments."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from .. import permissions, selectors
from ..audit_labels import filter_values, log_page
from .common import club_for


@login_required
def club_audit(request, slug):
    club = club_for(request, slug, permissions.can_manage_roster)
    kind, round_number = filter_values(request.GET)
    codes, rounds = selectors.audit_filters(club=club)
    rows = selectors.audit_log(club=club, kind=kind, round_number=round_number)
    shown = log_page(rows, query=request.GET, codes=codes, rounds=rounds)
    return render(request, "clubs/audit.html", {"club": club, **shown})
