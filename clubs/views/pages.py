"""Pages anyone may read: the home page, the club list and a club's page, player search and profiles."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from .. import permissions, selectors
from ..forms import SearchForm
from ..models import Player, Role
from .common import club_or_404

EVENTS_TEMPLATE = "tournaments/_club_events.html"
HOME_TABLES_TEMPLATE = "gameplay/_home_tables.html"
HOME_EVENTS_TEMPLATE = "tournaments/_home_events.html"
HOME_PUZZLE_TEMPLATE = "archive/_home_puzzle.html"


def home(request):
    clubs = list(selectors.club_list()[:12])
    own = selectors.own_player(user=request.user)
    context = {
        "clubs": clubs,
        "my_memberships": selectors.clubs_of_user(user=request.user),
        # A fresh account's player is named after the username; ask for the real name.
        "ask_for_name": own is not None and own.display_name == request.user.get_username(),
        # The apps above the clubs fill their own sections: tables to watch, tournaments to follow,
        # the puzzle of the day.
        "tables_html": _fragment(request, HOME_TABLES_TEMPLATE, {}),
        "events_html": _fragment(request, HOME_EVENTS_TEMPLATE, {}),
        "puzzle_html": _fragment(request, HOME_PUZZLE_TEMPLATE, {}),
    }
    return render(request, "clubs/home.html", context)


def club_list(request):
    return render(request, "clubs/club_list.html", {"clubs": selectors.club_list()})


def _fragment(request, name: str, context: dict) -> str | None:
    """A section another app provides (the clubs import no other app), or None when it has none."""
    try:
        template = get_template(name)
    except TemplateDoesNotExist:
        return None
    return template.render(context, request)


def club_detail(request, slug):
    club = club_or_404(slug)
    role = permissions.role_of(request.user, club)
    context = {
        "club": club,
        "role": role,
        "role_label": Role(role).label if role else "",
        "members": selectors.club_members(club=club),
        "roster": selectors.club_roster(club=club),
        "can_manage_roster": permissions.can_manage_roster(request.user, club),
        "can_manage_members": permissions.can_manage_members(request.user, club),
        "can_edit": permissions.can_edit_club(request.user, club),
        "events_html": _fragment(request, EVENTS_TEMPLATE, {"club": club}),
    }
    return render(request, "clubs/club_detail.html", context)


def player_search(request):
    form = SearchForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    players = selectors.search_players(query=query) if query else []
    return render(request, "clubs/player_search.html", {"form": form, "query": query, "players": players})


def player_detail(request, pk):
    try:
        player = selectors.player_detail(pk=pk)
    except Player.DoesNotExist:
        raise Http404 from None
    if player.merged_into_id is not None:
        return redirect(player.merged_into)
    can_edit = (
        request.user.is_authenticated
        and player.user_id is None
        and any(permissions.can_manage_roster(request.user, e.club) for e in player.roster_entries.all())
    )
    context = {"player": player, "is_me": player.user_id == request.user.pk, "can_edit": can_edit}
    return render(request, "clubs/player_detail.html", context)
