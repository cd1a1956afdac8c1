"""A position's picture, to share a deal: SVG and PNG of the four hands and the trick at
``?deal=&card=`` (archive/position_picture.py). A match the viewer may not see has none (the same
404); link previews fetch anonymously, so only a public, finished match shows in one."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control

from archive import selectors as archive
from archive.position_picture import layout, png, svg
from archive.replay_analysis import DONE
from archive.views.matches import analysis_of
from gameplay.engine import RecordError
from gameplay.engine.cards import SEATS
from gameplay.engine.positions import Replay


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _texts(request: HttpRequest, pk: int) -> list:
    match = archive.visible_match(request.user, pk)
    if match is None or not match.has_record or not match.record:
        raise Http404()
    try:
        replay = Replay.from_record(match.record)
    except RecordError:
        raise Http404() from None
    if not replay.deals:
        raise Http404()
    deal_index, card = replay.clamp(_int(request.GET.get("deal"), 1) - 1, _int(request.GET.get("card"), 0))
    row = archive.match_row(match)
    names = {SEATS[s["seat"]]: s["name"] for s in row["seat_rows"]}
    found = analysis_of(match)
    par = None
    if found["analysis_state"] == DONE:
        number = replay.deals[deal_index].number
        par = next((d["par"] for d in found["analysis"].get("deals", []) if d["deal"] == number), None)
    return layout(replay, deal_index, card, names=names, title=f"{row['ns']} – {row['ew']}", par=par)


@cache_control(max_age=3600)
def position_svg(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse(svg(_texts(request, pk)), content_type="image/svg+xml; charset=utf-8")


@cache_control(max_age=3600)
def position_png(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse(png(_texts(request, pk)), content_type="image/png")
