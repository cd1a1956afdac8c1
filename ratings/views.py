"""Rating pages: the leaderboards (global, a club's, a city's), how ratings work, and a player's
rating chart as an SVG image (``ratings.charts``; the card on his archive page draws it inline).

A board's "matches" column counts the rated matches the viewer may see (``with_seen_matches``);
the ratings themselves are public."""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club, Player
from clubs.translit import search_key
from ratings import charts
from ratings import selectors as rating_selectors
from ratings.core.guard import WINDOW_DAYS
from ratings.services.fitting import REFIT_TASK

PAGE_SIZE = 50


def _me(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user, merged_into=None).first()


def _board_page(request: HttpRequest, qs, *, title: str, scope: str, **extra) -> HttpResponse:
    """One board, paginated: its page of rows, each numbered by place, and the viewer's own place."""
    page = Paginator(rating_selectors.with_seen_matches(qs, request.user), PAGE_SIZE).get_page(
        request.GET.get("page"))
    first = page.start_index()
    rows = [(first + i, r) for i, r in enumerate(page.object_list)]
    me = _me(request)
    mine = rating_selectors.place_in(qs, me.pk) if me is not None else None
    return render(request, "ratings/board.html", {
        "title": title, "scope": scope, "page": page, "rows": rows, "me": me, "mine": mine,
        "min_matches": rating_selectors.min_matches(),
        "provisional_deviation": int(rating_selectors.model_params().provisional_deviation),
        "progress": rating_selectors.recompute_progress(), **extra,
    })


@require_GET
def board(request: HttpRequest) -> HttpResponse:
    return _board_page(request, rating_selectors.board(), title=_("Ratings"), scope="global",
                       cities=rating_selectors.cities())


@require_GET
def club_board(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    return _board_page(request, rating_selectors.board(club_id=club.pk),
                       title=_("Ratings: %(club)s") % {"club": club.name}, scope="club", club=club)


@require_GET
def city_board(request: HttpRequest, city: str) -> HttpResponse:
    key = search_key(city)
    spellings = rating_selectors.city_spellings(key)
    if not key:
        raise Http404
    name = spellings[0] if spellings else city
    return _board_page(request, rating_selectors.board(city_key=key),
                       title=_("Ratings: %(city)s") % {"city": name}, scope="city", city=name)


#: The rating harness's figures (bench/ratings/harness.py --seeds 100-119 --players 400 --per-player 120):
#: mean log-loss, gap closed, ECE and Spearman@60 per system and kind of season, as it printed them.
HARNESS = (
    ("Bilka", "league", "0.3644", "0.465", "0.0115", "0.979"),
    ("TrueSkill", "league", "0.3813", "−0.023", "0.0244", "0.967"),
    ("OpenSkill", "league", "0.4828", "−2.983", "0.0810", "0.966"),
    ("elo", "league", "0.3822", "−0.056", "0.0136", "0.962"),
    ("Bilka", "rotating", "0.3805", "0.459", "0.0114", "0.971"),
    ("TrueSkill", "rotating", "0.4016", "−0.001", "0.0182", "0.942"),
    ("OpenSkill", "rotating", "0.4590", "−1.261", "0.0712", "0.942"),
    ("elo", "rotating", "0.4086", "−0.159", "0.0127", "0.930"),
    ("Bilka", "mix", "0.3816", "0.453", "0.0114", "0.957"),
    ("TrueSkill", "mix", "0.4038", "0.000", "0.0154", "0.925"),
    ("OpenSkill", "mix", "0.4711", "−1.379", "0.0728", "0.921"),
    ("elo", "mix", "0.4199", "−0.331", "0.0145", "0.909"),
)


def _harness_rows() -> list[tuple[str, ...]]:
    kinds = {"league": _("fixed pairs"), "rotating": _("changing partners"), "mix": _("mixed")}
    names = {"Bilka": _("Bilka (this site)"), "elo": _("Elo for teams")}
    return [(str(names.get(system, system)), str(kinds[kind]), *figures)
            for system, kind, *figures in HARNESS]


@require_GET
def how(request: HttpRequest) -> HttpResponse:
    params = rating_selectors.model_params()
    return render(request, "ratings/how.html", {
        "harness": _harness_rows(), "fit": rating_selectors.latest_fit(),
        "refit_queued": request.GET.get("refit") == "queued",
        "base": int(params.base), "start_deviation": int(params.scale * params.initial_sd),
        "provisional_deviation": int(params.provisional_deviation),
        "min_matches": rating_selectors.min_matches(), "window_days": WINDOW_DAYS,
    })


@require_POST
def refit(request: HttpRequest) -> HttpResponse:
    """Staff ask for the model's parameters to be fitted on the archive now (the nightly task, at once)."""
    if not request.user.is_staff:
        raise PermissionDenied
    # On the archive notices' queue, as the recompute it asks for (the tests keep it off their worker).
    queue = getattr(settings, "ARCHIVE_NOTICE_QUEUE", None)
    task = current_app.signature(REFIT_TASK, kwargs={"reason": f"asked by {request.user.get_username()}"})
    task.apply_async(**({"queue": queue} if queue else {}))
    return redirect(reverse("ratings:how") + "?refit=queued#model")


@require_GET
def chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's rating after each rated match the viewer may see, with its band, as an SVG
    image (the card draws the same picture in its page)."""
    player = get_object_or_404(Player, pk=pk, merged_into=None)
    lines = rating_selectors.change_lines(player.pk, viewer=request.user, limit=charts.CHART_MATCHES)
    drawn = charts.draw(charts.points_of(lines))
    if drawn is None:
        svg = render_to_string("ratings/_chart_empty_svg.html", {"player": player}, request=request)
    else:
        svg = render_to_string("ratings/_chart_svg.html", {"chart": drawn, "player": player}, request=request)
    response = HttpResponse('<?xml version="1.0" encoding="utf-8"?>\n' + svg,
                            content_type="image/svg+xml; charset=utf-8")
    # what it shows depends on who asks (the matches he may see): never kept by a shared cache
    response["Cache-Control"] = "private, max-age=60"
    patch_vary_headers(response, ("Cookie",))
    return response
