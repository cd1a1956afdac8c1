"""An event's fair-play review, for its club's organisers and the site's staff only: ask for the
review of the event's online matches (a task runs it; the page never works it out), see where it
stands, and read the stored figures per player with the decisions that weighed most.

Nobody else reaches it: the rest get the organisers' refusal, as every page of the desk does."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from archive import fairplay_selectors
from archive.services import fairplay as fairplay_service

from .. import permissions
from .common import page, refusals, require_manager, tournament_or_404


@login_required
@refusals
def fairplay(request, slug):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    online = fairplay_selectors.has_online_matches(tournament=tournament.pk)
    if request.method == "POST" and not online:
        messages.error(request, _("This event has no online match with a record yet: "
                                  "there is nothing to review."))
        return redirect("tournaments:fairplay", slug=tournament.slug)
    if request.method == "POST":
        allowed = permissions.can_manage(request.user, tournament)
        _review, queued = fairplay_service.request_review(user=request.user, allowed=allowed,
                                                          tournament=tournament.pk)
        if queued:
            messages.success(request, _("The review is queued. It takes a few seconds a match; "
                                        "come back to this page later."))
        else:
            messages.info(request, _("The review is already queued or running: it was not queued twice."))
        return redirect("tournaments:fairplay", slug=tournament.slug)
    review = fairplay_selectors.stored_review(tournament=tournament.pk)
    rows = fairplay_selectors.review_rows(review, request.user) if review is not None else []
    return page(request, tournament, "dashboard", "tournaments/fairplay.html", review=review, rows=rows,
                online=online, stale=review is not None and fairplay_service.is_stale(review),
                staff=fairplay_selectors.is_review_staff(request.user))
