"""One player's fair-play review, for the site's staff only: his figures in every stored review
(an event's, a club's, his own over all his online matches) and a button to review him alone.

Anyone else gets the 404 of a page that does not exist, as for a private match: the page's very
existence for a player is not to be learnt."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from archive import fairplay_selectors as selectors
from archive.models import ArchivedMatch
from archive.services import fairplay as service
from clubs.models import Player


def _label(row) -> str:
    review = row.review
    if review.scope == "tournament":
        name = (ArchivedMatch.objects.filter(tournament=review.tournament).exclude(event_name="")
                .values_list("event_name", flat=True).first())
        return _("event: %(name)s") % {"name": name or review.tournament}
    if review.scope == "club":
        return _("club: %(name)s") % {"name": review.club.name if review.club else "—"}
    return _("all his online matches")


@login_required
def fairplay_player(request: HttpRequest, pk: int) -> HttpResponse:
    if not selectors.is_review_staff(request.user):
        raise Http404()
    player = get_object_or_404(Player, pk=pk, merged_into=None)
    if request.method == "POST":
        allowed = selectors.is_review_staff(request.user)
        _review, queued = service.request_review(user=request.user, allowed=allowed, player=player.pk)
        if queued:
            messages.success(request, _("The review is queued. It takes a few seconds a match; "
                                        "come back to this page later."))
        else:
            messages.info(request, _("The review is already queued or running: it was not queued twice."))
        return redirect("archive:fairplay_player", pk=player.pk)
    review = selectors.stored_review(player=player.pk)
    rows = selectors.player_rows(player.pk, request.user)
    for row in rows:
        row.label = _label(row)
    stale = review is not None and service.is_stale(review)
    return render(request, "archive/fairplay_player.html",
                  {"player": player, "review": review, "rows": rows, "stale": stale})
