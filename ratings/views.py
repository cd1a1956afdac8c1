"""Rating pages: the leaderboards (global, a club's, a city's), how ratings work, and a player's
rating chart as an SVG image (``ratings.charts``; the card on his archive page draws it inline).

Each game has a rating of its own: every board and the chart take ``?game=`` (``bilka``, the
default, ``kozyol`` or ``bilka2``), and a board links the others. A board's "matches" column counts
the rated matches the viewer may see (``with_seen_matches``); the ratings themselves are public."""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club, Player
from clubs.translit import search_key
from ratings import charts
from ratings import selectors as rating_selectors
from ratings.core.guard import WINDOW_DAYS
from ratings.models import BILKA_GAME, RATED_GAMES, RatedGame, rated_game
from ratings.services.fitting import REFIT_TASK

PAGE_SIZE = 50


def _me(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user, merged_into=None).first()


def game_asked(request: HttpRequest) -> RatedGame:
    """The game a page's ``?game=`` names (Bilka when none); an unknown one is a page not found,
    saying which games there are."""
    name = request.GET.get("game", "")
    if not name:
        return BILKA_GAME
    game = rated_game(name)
    if game is None or name != game.slug:
        raise Http404(_("No rating for the game “%(game)s”: the games rated are %(games)s.") % {
            "game": name[:40], "games": ", ".join(g.slug for g in RATED_GAMES)})
    return game


def _board_page(request: HttpRequest, qs, *, title: str, scope: str, game: RatedGame,
                **extra) -> HttpResponse:
    """One board, paginated: its page of rows, each numbered by place, and the viewer's own place;
    above it, the switch to the same board of the other games."""
    page = Paginator(rating_selectors.with_seen_matches(qs, request.user, game.key), PAGE_SIZE).get_page(
        request.GET.get("page"))
    first = page.start_index()
    rows = [(first + i, r) for i, r in enumerate(page.object_list)]
    me = _me(request)
    mine = rating_selectors.place_in(qs, me.pk) if me is not None else None
    # provisional by the model's own uncertainty: a fixed pair's players keep a wide "±" (how
    # their strength splits is not known), but they are not new
    limit = rating_selectors.provisional_variance(game.key)
    for _place, r in [*rows, *([mine] if mine else [])]:
        r.provisional = r.var > limit
    return render(request, "ratings/board.html", {
        "title": title, "scope": scope, "page": page, "rows": rows, "me": me, "mine": mine,
        "min_matches": rating_selectors.min_matches(),
        "provisional_deviation": int(rating_selectors.model_params(game.key).provisional_deviation),
        "progress": rating_selectors.recompute_progress(), "game": game, "games": RATED_GAMES, **extra,
    })


@require_GET
def board(request: HttpRequest) -> HttpResponse:
    game = game_asked(request)
    return _board_page(request, rating_selectors.board(game=game.key), title=_("Ratings"), scope="global",
                       game=game, cities=rating_selectors.cities(game.key))


@require_GET
def club_board(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    game = game_asked(request)
    return _board_page(request, rating_selectors.board(club_id=club.pk, game=game.key),
                       title=_("Ratings: %(club)s") % {"club": club.name}, scope="club", game=game, club=club)


@require_GET
def city_board(request: HttpRequest, city: str) -> HttpResponse:
    key = search_key(city)
    if not rating_selectors.city_known(key):
        raise Http404  # a city no player wrote: not an empty board
    game = game_asked(request)
    spellings = rating_selectors.city_spellings(key, game.key)
    name = spellings[0] if spellings else city
    return _board_page(request, rating_selectors.board(city_key=key, game=game.key),
                       title=_("Ratings: %(city)s") % {"city": name}, scope="city", game=game, city=name)


#: The report the page's figures are read from (bench/ratings/data/; a test holds them to it).
HARNESS_REPORT = "report-2026-12-07-eyes-open-duty.txt"
#: The rating harness's figures on the shapes the model was never tuned on (bench/ratings/harness.py,
#: seeds 100-119; the whole table in ``HARNESS_REPORT``): the model and the best other system of
#: each shape (lowest log-loss): log-loss, gap closed, ECE over all seeds, Spearman@60, as printed.
HARNESS = (
    ("Bilka", "eyes-league", "0.3607", "+0.448", "0.0075", "0.972"),
    ("TrueSkill", "eyes-league", "0.3816", "−0.072", "0.0259", "0.960"),
    ("Bilka", "eyes-mix", "0.3958", "+0.338", "0.0050", "0.938"),
    ("TrueSkill", "eyes-mix", "0.4187", "−0.002", "0.0188", "0.914"),
    ("Bilka", "score-league", "0.3646", "+0.343", "0.0060", "0.969"),
    ("TrueSkill", "score-league", "0.3816", "−0.072", "0.0259", "0.960"),
    ("Bilka", "score-rotating", "0.3951", "+0.307", "0.0073", "0.954"),
    ("TrueSkill", "score-rotating", "0.4149", "−0.016", "0.0174", "0.934"),
    ("Bilka", "spread-half", "0.5312", "+0.286", "0.0058", "0.900"),
    ("elo", "spread-half", "0.5480", "0.000", "0.0066", "0.853"),
    ("Bilka", "spread-double", "0.2362", "+0.597", "0.0041", "0.979"),
    ("TrueSkill", "spread-double", "0.2782", "−0.004", "0.0256", "0.950"),
    ("Bilka", "drift-none", "0.3700", "+0.678", "0.0040", "0.985"),
    ("TrueSkill", "drift-none", "0.3951", "−0.083", "0.0304", "0.972"),
    ("Bilka", "drift-fast", "0.3368", "+0.389", "0.0042", "0.939"),
    ("elo", "drift-fast", "0.3888", "0.000", "0.0102", "0.899"),
    ("Bilka", "chemistry-strong", "0.3282", "+0.512", "0.0057", "0.979"),
    ("TrueSkill", "chemistry-strong", "0.3502", "−0.016", "0.0238", "0.967"),
    ("Bilka", "bots", "0.6492", "+0.350", "0.0076", "0.873"),
    ("elo", "bots", "0.6573", "0.000", "0.0053", "0.787"),
)

#: What each shape of season is, as the page names it: how it differs, and its field.
SHAPES = {
    "eyes-league": (_lazy("eyes only"), "league"),
    "eyes-mix": (_lazy("eyes only"), "mix"),
    "score-league": (_lazy("final score only"), "league"),
    "score-rotating": (_lazy("final score only"), "rotating"),
    "spread-half": (_lazy("half the spread of strength"), "rotating"),
    "spread-double": (_lazy("twice the spread of strength"), "mix"),
    "drift-none": (_lazy("strength never changes"), "league"),
    "drift-fast": (_lazy("strength changes fast"), "rotating"),
    "chemistry-strong": (_lazy("strong pair chemistry"), "league"),
    "bots": (_lazy("played out by bots"), "rotating"),
}


def _harness_rows() -> list[tuple[str, list[tuple[str, ...]]]]:
    """The figures grouped by shape of season: its name, then the model's row and the best other's."""
    kinds = {"league": _("fixed pairs"), "rotating": _("changing partners"), "mix": _("mixed")}
    names = {"Bilka": _("Bilka (this site)"), "elo": _("Elo for teams")}
    groups: dict[str, list[tuple[str, ...]]] = {}
    for system, shape, *figures in HARNESS:
        groups.setdefault(shape, []).append((str(names.get(system, system)), *figures))
    return [(f"{SHAPES[shape][0]} · {kinds[SHAPES[shape][1]]}", rows) for shape, rows in groups.items()]


@require_GET
def how(request: HttpRequest) -> HttpResponse:
    params = rating_selectors.model_params()
    return render(request, "ratings/how.html", {
        "harness": _harness_rows(), "fits": rating_selectors.latest_fits(),
        "refit_queued": request.GET.get("refit") == "queued",
        "base": int(params.base), "start_deviation": int(params.scale * params.initial_sd),
        "provisional_deviation": int(params.provisional_deviation),
        "min_matches": rating_selectors.min_matches(), "window_days": WINDOW_DAYS,
    })


@require_POST
def refit(request: HttpRequest) -> HttpResponse:
    """Staff ask for the model's parameters to be fitted on the archive now (the nightly task, at once)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied
    # On the archive notices' queue, as the recompute it asks for (the tests keep it off their worker).
    queue = getattr(settings, "ARCHIVE_NOTICE_QUEUE", None)
    task = current_app.signature(REFIT_TASK, kwargs={"reason": f"asked by {request.user.get_username()}"})
    task.apply_async(**({"queue": queue} if queue else {}))
    return redirect(reverse("ratings:how") + "?refit=queued#model")


@require_GET
def chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's rating in a game (``?game=``) after each rated match of it the viewer may see,
    with its band, as an SVG image (the card draws the same picture in its page)."""
    player = get_object_or_404(Player, pk=pk, merged_into=None)
    game = game_asked(request)
    lines = rating_selectors.change_lines(player.pk, viewer=request.user, limit=charts.CHART_MATCHES,
                                          game=game.key)
    drawn = charts.draw(charts.points_of(lines))
    if drawn is None:
        svg = render_to_string("ratings/_chart_empty_svg.html", {"player": player, "game": game},
                               request=request)
    else:
        svg = render_to_string("ratings/_chart_svg.html", {"chart": drawn, "player": player, "game": game},
                               request=request)
    response = HttpResponse('<?xml version="1.0" encoding="utf-8"?>\n' + svg,
                            content_type="image/svg+xml; charset=utf-8")
    # what it shows depends on who asks (the matches he may see): never kept by a shared cache
    response["Cache-Control"] = "private, max-age=60"
    patch_vary_headers(response, ("Cookie",))
    return response
