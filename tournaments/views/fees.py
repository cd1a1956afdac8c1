"""The entry fee at the desk: writing down or correcting what an entry paid, and the organisers'
own entries export with who paid what. Only the event's organisers reach either."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..models import Entry, IndividualEntry, Paid
from ..selectors.fees import entries_with_payment
from .common import error_text, refusals, require_manager, tournament_or_404


def amount_given(text: str) -> int | None:
    """The amount typed beside the choice: empty for the event's fee; refused when not a whole number."""
    text = (text or "").strip().replace(" ", "").replace("\u202f", "").replace("\u00a0", "")
    if not text:
        return None
    if not text.isdigit():
        raise ValidationError(_("The amount taken is a whole number, without signs or decimals."))
    return int(text)


@login_required
@require_POST
@refusals
def entry_payment(request, slug, pk):
    """The organiser writes down how a pair (in an individual event, a player) paid, or corrects it."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    try:
        entry = selectors.own_entry(tournament=tournament, pk=pk)
    except (Entry.DoesNotExist, IndividualEntry.DoesNotExist):
        raise Http404 from None
    try:
        done = services.record_payment(
            actor=request.user,
            entry=entry,
            paid=request.POST.get("paid", ""),
            amount=amount_given(request.POST.get("amount", "")),
        )
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(
            request, _("%(name)s: %(paid)s.") % {"name": done.name, "paid": done.get_paid_display().lower()}
        )
    return redirect("tournaments:entries", slug=slug)


@login_required
@refusals
def entries_export(request, slug):
    """Every entry with its status and what it paid, for the organisers' books (a CSV for Excel)."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response.write("\ufeff")  # Excel opens UTF-8 with a BOM correctly
    writer = csv.writer(response)
    writer.writerow(
        ["seed", "entry", "status", "paid", "amount", "currency", "taken_by", "paid_at"]
    )
    for row in entries_with_payment(tournament=tournament):
        taken = row.paid != Paid.UNPAID
        writer.writerow(
            [
                row.seed or "",
                row.name,
                row.status,
                row.paid,
                row.paid_amount if row.paid_amount is not None else "",
                tournament.fee_currency if taken and row.paid_amount else "",
                (row.paid_to.get_username() if row.paid_to else "") if taken else "",
                timezone.localtime(row.paid_at).isoformat(timespec="minutes") if row.paid_at else "",
            ]
        )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-entries.csv"'
    response["Cache-Control"] = "private, no-store"
    return response
