"""Pages of double elimination and groups then playoff (issue 6): the brackets, the group tables, exports.

The pairs views hand these formats' bracket, standings and standings-export pages to the
functions here; entries, rounds, match pages, print views and results stay the pairs' own.
"""

from __future__ import annotations

from django.shortcuts import render

from . import bracket_selectors
from .models import Format, Tournament
from .views import _context


def bracket(request, tournament: Tournament, tab: str = "bracket"):
    prizes = bracket_selectors.prize_list(tournament=tournament)
    if tournament.format == Format.DOUBLE_ELIM:
        view = bracket_selectors.double_elim_view(tournament=tournament)
        template = "tournaments/formats/double_elim.html"
    else:
        view = bracket_selectors.groups_view(tournament=tournament)
        template = "tournaments/formats/groups.html"
    return render(request, template, _context(request, tournament, tab, view=view, prizes=prizes))


def standings(request, tournament: Tournament):
    return bracket(request, tournament, tab="standings")


def standings_rows(tournament: Tournament):
    """Places (and, for groups, each pair's group line) for the CSV/JSON export."""
    prizes = tournament.prizes or []
    if tournament.format == Format.DOUBLE_ELIM:
        view = bracket_selectors.double_elim_view(tournament=tournament)
        for place, entry in view.places if view else []:
            yield {
                "place": place,
                "pair": entry.name,
                "entry_id": entry.pk,
                "prize": prizes[place - 1] if place <= len(prizes) else "",
            }
        return
    view = bracket_selectors.groups_view(tournament=tournament)
    if view is None:
        return
    final_place = {entry.pk: place for place, entry in view.places}
    for group in view.groups:
        for line in group.lines:
            r = line.row
            place = final_place.get(line.entry.pk)
            yield {
                "group": group.letter,
                "group_place": r.place,
                "pair": line.entry.name,
                "entry_id": line.entry.pk,
                "match_points": r.match_points,
                "played": r.played,
                "eye_difference": r.eye_difference,
                "eyes_for": r.eyes_for,
                "withdrawn": r.withdrawn,
                "playoff_place": place,
                "prize": prizes[place - 1] if place and place <= len(prizes) else "",
            }
