"""Pages of the archive: finding matches, one archived match, a player's matches and figures.

Every page asks `archive.selectors` what the viewer may see; a match he may not see gets the
same 404 as one that does not exist.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from archive import fairplay_selectors
from archive import selectors as archive
from archive import services as archive_services
from archive.forms import ArchiveFilterForm
from archive.models import ArchivedMatch, MatchAnalysis
from archive.replay_analysis import DONE, FAILED, PENDING
from archive.replays import render_replay
from clubs.models import Player
from gameplay.engine.cards import SEATS
from gameplay.engine.variant_analysis import AFTER_TRICK_FROM_CARDS, KOZYOL_FROM_CARDS
from gameplay.words import rules_label

PAGE_SIZE = 20


def _page(request: HttpRequest, qs: Any) -> tuple[Any, list[dict[str, Any]], str]:
    paginator = Paginator(qs, PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    keep = {k: v for k, v in request.GET.items() if k != "page" and v}
    return page, [archive.match_row(m) for m in page.object_list], urlencode(keep)


def archive_list(request: HttpRequest) -> HttpResponse:
    """Every match the viewer may see, filtered by player, club, tournament, dates and rules."""
    form = ArchiveFilterForm(request.GET or None, user=request.user)
    chosen = form.archive_filter()
    player = Player.objects.filter(pk=chosen.player).first() if chosen.player else None
    page, rows, query = _page(request, archive.find_matches(request.user, chosen))
    return render(request, "archive/archive_list.html", {
        "form": form, "page": page, "rows": rows, "query": query, "player": player,
        "filtered": any(v for k, v in request.GET.items() if k != "page"),
        "can_upload": archive.upload_clubs(request.user).exists(),
    })


def archived_match(request: HttpRequest, pk: int) -> HttpResponse:
    """An archived match: its replay where it has a record, else its deal sheet."""
    match = archive.visible_match(request.user, pk)
    if match is None:
        raise Http404()
    head = {**archive.match_row(match), "rules_label": rules_label(match.rules), "rules": match.rules,
            "can_share": archive.may_share(match, request.user)}
    if match.has_record and match.record:
        verify = None
        if match.table_id and "shuffle" in match.record:
            verify = reverse("gameplay:verify_table", args=[match.table_id])
        return render_replay(
            request, record=match.record, title=f"{head['ns']} – {head['ew']}",
            back_url=reverse("archive:list"), back_label=_("Match archive"),
            download_url=reverse("archive:record", args=[match.pk]), verify_url=verify,
            players={SEATS[s["seat"]]: s["name"] for s in head["seat_rows"]},
            extra={**head, "archive_head": True, "og": open_graph(request, match, head),
                   **other_game_note(match)},
            **analysis_of(match),
        )
    return render(request, "archive/archived_match.html", {**head, "deals": list(match.deals.all())})


@require_POST
@login_required
def share_match(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of a casual game against bots shows it to everyone, or makes it private again."""
    match = archive.visible_match(request.user, pk)
    if match is None:
        raise Http404()
    public = request.POST.get("public") == "1"
    try:
        archive_services.share_casual_match(user=request.user, match=match, public=public)
    except (PermissionDenied, archive_services.ArchiveError) as refused:
        messages.error(request, str(refused.args[0]) if refused.args else _("Not allowed."))
    else:
        messages.success(request, _("Everyone can see this game now.") if public
                         else _("Only its players see this game now."))
    return redirect("archive:match", pk=match.pk)


def open_graph(request: HttpRequest, match: ArchivedMatch, head: dict[str, Any]) -> dict[str, str] | None:
    """A public match's Open Graph tags: a link pasted into a messenger shows the position's
    picture (the address's deal and card). A private match has none: previews fetch anonymously,
    and its tags would tell what the match is."""
    if not match.public:
        return None
    position = {k: request.GET[k] for k in ("deal", "card") if request.GET.get(k, "").isdigit()}
    query = "?" + urlencode(position) if position else ""
    base = settings.SITE_URL
    return {
        "title": f"{head['ns']} – {head['ew']}",
        "description": head["match"].event_name or _("A game of Bilka, card by card"),
        "url": base + reverse("archive:match", args=[match.pk]) + query,
        "image": base + reverse("archive:position_png", args=[match.pk]) + query,
    }


def other_game_note(match: ArchivedMatch) -> dict[str, str]:
    """A match of another game than Bilka (its rules name it): the page says which, and that its
    double-dummy analysis starts late in each deal (its solver is pure Python, so only the last
    cards of a deal are judged: `variant_analysis.KOZYOL_FROM_CARDS`)."""
    if "game" not in (match.rules or {}):
        return {}
    if match.rules["game"] == "bilka-2":
        return {"note": _("A match of Bilka for two. Its double-dummy analysis judges every card when "
                          "the stock is dealt in halves; when the stock is drawn after each trick, only "
                          "once at most %(n)s cards are left in the hands.") % {"n": AFTER_TRICK_FROM_CARDS}}
    return {"note": _("A match of Kozyol khvalyony. Its double-dummy analysis starts in each deal "
                      "once at most %(n)s cards are left in the hands; the cards before are not "
                      "judged.") % {"n": KOZYOL_FROM_CARDS}}


def analysis_of(match: ArchivedMatch) -> dict[str, Any]:
    """The replay's double-dummy panel: done, failed, or pending until the analysis worker is through."""
    found = MatchAnalysis.objects.filter(match=match).first()
    if found is None or found.record_hash != match.record_hash:
        return {"analysis_state": PENDING}
    if found.result is None:
        return {"analysis_state": FAILED}
    return {"analysis_state": DONE, "analysis": found.result}


def table_archived(request: HttpRequest, pk: int) -> HttpResponse:
    """From a finished table to its match in the archive (the same 404 for what the viewer may
    not see, and for a table whose match is not archived)."""
    match, visible = archive.table_match(request.user, pk)
    if not visible:
        raise Http404()
    return redirect("archive:match", pk=match)


def player_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's archived matches and his figures, each saying what it counts from."""
    player = get_object_or_404(Player, pk=pk, merged_into=None)
    figures = archive.player_figures(player, request.user)
    qs = archive.find_matches(request.user, archive.ArchiveFilter(player=player.pk))
    page, rows, query = _page(request, qs)
    for row in rows:
        mine = next((s for s in row["players"].values() if s.player_id == player.pk), None)
        # Bilka for two: the winner is the player's own seat letter (N or S), not a pair
        won = mine is not None and row["match"].winner in (mine.pair, SEATS[mine.seat])
        row["won"] = won if row["match"].winner else None  # a duplicate board set has no winner
    return render(request, "archive/player_archive.html", {
        "player": player, "figures": figures, "page": page, "rows": rows, "query": query,
        "fairplay_staff": fairplay_selectors.is_review_staff(request.user),
    })
