"""Requested byes: a player (or the organiser for any entry) asks to sit out a round, or takes the ask back.

Both forms live on the entries page (a pair's, or an individual event's players'), in one card
(``selectors.bye_desk``); the services check everything again and refuse with the reason.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..models import ByeRequest
from .common import error_text, refusals, tournament_or_404


def _back(slug: str):
    return redirect(reverse("tournaments:entries", kwargs={"slug": slug}) + "#byes")


def _number(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) <= 4 else None


@login_required
@refusals
@require_POST
def ask_bye(request, slug):
    """Ask for the entry named in the form (a pair, or an individual event's player) to sit out
    the round chosen."""
    tournament = tournament_or_404(slug)
    entry_id = _number(request.POST.get("entry"))
    if entry_id is None:
        raise Http404
    try:
        entry = selectors.own_entry(tournament=tournament, pk=entry_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    number = _number(request.POST.get("round"))
    if number is None:
        messages.error(request, _("Choose the round to sit out."))
        return _back(slug)
    try:
        ask = services.ask_bye(actor=request.user, entry=entry, round_number=number)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(
            request,
            _("%(name)s sits out round %(n)d: a bye is written for it when the round is paired.")
            % {"name": entry.name, "n": ask.round_number},
        )
    return _back(slug)


@login_required
@refusals
@require_POST
def withdraw_bye(request, slug, pk):
    """Take back an ask of this event before its round is paired."""
    tournament = tournament_or_404(slug)
    try:
        ask = ByeRequest.objects.get(tournament=tournament, pk=pk)
    except ByeRequest.DoesNotExist:
        raise Http404 from None
    try:
        ask = services.withdraw_bye(actor=request.user, ask=ask)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(
            request,
            _("%(name)s plays round %(n)d after all.") % {"name": ask.who.name, "n": ask.round_number},
        )
    return _back(slug)
