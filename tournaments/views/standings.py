"""Standings pages as each format shows them (a table, players, or the bracket), the crosstable, exports."""

from __future__ import annotations

import csv

from django.http import Http404, HttpResponse, JsonResponse

from ratings import selectors as rating_selectors

from .. import selectors
from ..core.tiebreaks import Tiebreak
from ..formats import format_of
from ..formats.base import points_of
from ..forms import TIEBREAK_HELP, TIEBREAK_LABELS
from ..models import Format, Tournament
from ..selectors import exports
from ..selectors.standings import round_crosstable, standings_columns
from .common import cached_for_visitors, page, tournament_or_404


def _bracket_page(request, tournament: Tournament, tab: str):
    """Double elimination and groups then playoff: the brackets (and group tables) with the places."""
    prizes = selectors.prize_list(tournament=tournament)
    if tournament.format == Format.DOUBLE_ELIM:
        view = selectors.double_elim_view(tournament=tournament)
        template = "tournaments/formats/double_elim.html"
    else:
        view = selectors.groups_view(tournament=tournament)
        template = "tournaments/formats/groups.html"
    return page(request, tournament, tab, template, view=view, prizes=prizes)


def _requested_bye_points(tournament: Tournament, columns) -> float | None:
    """What a requested bye scores, for the note under a table that counts them (None: no such column)."""
    if not any(c.key == "requested_byes" for c in columns):
        return None
    return float(points_of(tournament).requested_bye(tournament.bye_requests))


@cached_for_visitors
def standings(request, slug):
    tournament = tournament_or_404(slug)
    shown = format_of(tournament).standings_page
    if shown == "bracket":
        return _bracket_page(request, tournament, "standings")
    table = selectors.shown_standings(tournament=tournament)
    if shown == "duplicate":  # average percentages by matchpoints, and the boards behind them
        return page(request, tournament, "standings", "tournaments/duplicate_standings.html", table=table)
    template = "tournaments/individual/standings.html" if shown == "players" else "tournaments/standings.html"
    columns = standings_columns(tournament=tournament)
    entries = [line.entry for line in table.lines]
    rated = rating_selectors.entry_ratings(entries, individual=shown == "players")
    return page(
        request,
        tournament,
        "standings",
        template,
        table=table,
        columns=columns,
        lines=[(line, [getattr(line.row, c.key) for c in columns], rated.get(line.entry.pk))
               for line in table.lines],
        counts_byes=any(c.key in ("buchholz", "sonneborn_berger") for c in columns),
        by_bracket=format_of(tournament).places_from_bracket,
        bye_draw=(tournament.points_win + tournament.points_loss) / 2,
        requested_bye_points=_requested_bye_points(tournament, columns),
        tiebreak_labels=[TIEBREAK_LABELS.get(t, t) for t in table.tiebreaks],
        tiebreak_help=[(TIEBREAK_LABELS[Tiebreak(t)], TIEBREAK_HELP[Tiebreak(t)]) for t in table.tiebreaks],
        prizes=selectors.prize_list(tournament=tournament),
    )


@cached_for_visitors
def crosstable(request, slug):
    """The all-play-all grid of a round robin; for a Swiss, each pair's rounds (opponent, seat, score)."""
    tournament = tournament_or_404(slug)
    if "crosstable" not in format_of(tournament).pages:
        raise Http404
    if tournament.format == Format.SWISS:
        return page(
            request,
            tournament,
            "crosstable",
            "tournaments/crosstable_rounds.html",
            grid=round_crosstable(tournament=tournament),
        )
    return page(
        request,
        tournament,
        "crosstable",
        "tournaments/crosstable.html",
        grid=selectors.crosstable(tournament=tournament),
    )


@cached_for_visitors
def bracket(request, slug):
    tournament = tournament_or_404(slug)
    fmt = format_of(tournament)
    if "bracket" not in fmt.pages:
        raise Http404
    if fmt.standings_page == "bracket":
        return _bracket_page(request, tournament, "bracket")
    return page(
        request,
        tournament,
        "bracket",
        "tournaments/bracket.html",
        bracket=selectors.bracket(tournament=tournament),
        prizes=selectors.prize_list(tournament=tournament),
    )


def export(request, slug, what, fmt):
    tournament = tournament_or_404(slug)
    if what == "seats":
        if not tournament.is_individual:
            raise Http404
        rows = list(exports.seat_rows(tournament=tournament))
    elif what == "standings":
        rows = exports.standings_rows(tournament=tournament)
    else:
        rows = exports.result_rows(tournament=tournament)
    filename = f"{tournament.slug}-{what}.{fmt}"
    if fmt == "json":
        response = JsonResponse(
            {"tournament": tournament.name, what: rows},
            json_dumps_params={"ensure_ascii": False, "indent": 1},
        )
    else:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")  # Excel opens UTF-8 with a BOM correctly
        if rows:
            writer = csv.DictWriter(response, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
