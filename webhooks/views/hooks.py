"""A club's webhooks page: its hooks, a form to add one (its secret shown once), turn off, delete, the log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import permissions
from clubs.models import Club

from .. import selectors, services
from ..forms import HookForm
from ..models import EventType, Webhook
from ..selectors import LOG_LENGTH


def _club(request, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    return club


def _page(request, club: Club, *, form: HookForm | None = None, new_hook: Webhook | None = None, status=200):
    return render(
        request,
        "webhooks/hooks.html",
        {
            "club": club,
            "form": form or HookForm(),
            "rows": selectors.hooks_of(club=club),
            "new_hook": new_hook,
            "log_length": LOG_LENGTH,
            "event_choices": EventType.choices,
        },
        status=status,
    )


@login_required
def hooks(request, slug):
    """GET: the list and the form; POST: a new hook, whose secret this one answer shows."""
    club = _club(request, slug)
    if request.method != "POST":
        return _page(request, club)
    form = HookForm(request.POST)
    if form.is_valid():
        try:
            hook = services.create_hook(actor=request.user, club=club, **form.cleaned_data)
        except ValidationError as refusal:
            form.add_error("url" if refusal.code not in ("events", "too_many") else None, refusal)
        else:
            messages.success(
                request, _("The webhook is added. Copy its secret now: it is shown only this once.")
            )
            return _page(request, club, new_hook=hook)
    return _page(request, club, form=form, status=400)


def _hook_of(club: Club, pk: int) -> Webhook:
    return get_object_or_404(Webhook, pk=pk, club=club)


@login_required
@require_POST
def hook_toggle(request, slug, pk):
    club = _club(request, slug)
    hook = _hook_of(club, pk)
    hook = services.set_hook_active(actor=request.user, club=club, hook_id=hook.pk, active=not hook.active)
    messages.success(request, _("The webhook is on.") if hook.active else _("The webhook is off."))
    return redirect("webhooks:hooks", slug=club.slug)


@login_required
@require_POST
def hook_delete(request, slug, pk):
    club = _club(request, slug)
    hook = _hook_of(club, pk)
    services.delete_hook(actor=request.user, club=club, hook_id=hook.pk)
    messages.success(request, _("The webhook is deleted."))
    return redirect("webhooks:hooks", slug=club.slug)
