"""Pages of the archive: finding matches, one archived match, a player's matches and figures.

Every page asks `archive.selectors` what the viewer may see; a match he may not see gets the
same 404 as one that does not exist.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from archive import selectors as archive
from archive.forms import ArchiveFilterForm
from archive.models import ArchivedMatch, ArchivedSeat, MatchAnalysis, SeatKind
from archive.replay_analysis import DONE, FAILED, PENDING
from archive.replays import render_replay
from clubs.models import Player
from gameplay.engine.cards import SEATS
from gameplay.words import BotLevel, bot_name, rules_label

PAGE_SIZE = 20


def seat_name(seat: ArchivedSeat) -> str:
    """A seat's name as the reader reads it: a bot by its seat in his language, a player by the
    name his club keeps now, a guest by the name he sat down with."""
    if seat.kind == SeatKind.BOT:
        level = BotLevel(seat.bot_level).label if seat.bot_level in BotLevel.values else ""
        return f"{bot_name(seat.seat)} ({level})" if level else bot_name(seat.seat)
    return seat.player.display_name if seat.player is not None else seat.name


def match_row(match: ArchivedMatch) -> dict[str, Any]:
    """What a list shows of a match (its seats prefetched)."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    names: dict[int, list[str]] = {0: [], 1: []}
    for s in seats:
        names[s.seat % 2].append(seat_name(s))
    return {
        "match": match,
        "ns": " & ".join(names[0]),
        "ew": " & ".join(names[1]),
        "players": {s.seat: s for s in seats},
        "seat_rows": [{"seat": s.seat, "name": seat_name(s), "kind": s.kind, "player": s.player}
                      for s in seats],
    }


def _page(request: HttpRequest, qs: Any) -> tuple[Any, list[dict[str, Any]], str]:
    paginator = Paginator(qs, PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    keep = {k: v for k, v in request.GET.items() if k != "page" and v}
    return page, [match_row(m) for m in page.object_list], urlencode(keep)


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
    head = {**match_row(match), "rules_label": rules_label(match.rules), "rules": match.rules}
    if match.has_record and match.record:
        verify = None
        if match.table_id and "shuffle" in match.record:
            verify = reverse("gameplay:verify_table", args=[match.table_id])
        return render_replay(
            request, record=match.record, title=f"{head['ns']} – {head['ew']}",
            back_url=reverse("archive:list"), back_label=_("Match archive"),
            download_url=reverse("archive:record", args=[match.pk]), verify_url=verify,
            players={SEATS[s["seat"]]: s["name"] for s in head["seat_rows"]},
            extra={**head, "archive_head": True},
            **analysis_of(match),
        )
    return render(request, "archive/archived_match.html", {**head, "deals": list(match.deals.all())})


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
        row["won"] = mine is not None and row["match"].winner == mine.pair
    return render(request, "archive/player_archive.html", {
        "player": player, "figures": figures, "page": page, "rows": rows, "query": query,
    })
