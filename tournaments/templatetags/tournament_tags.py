"""Template tags other apps' pages use to show tournaments (the club page's events, the home page)."""

from functools import lru_cache

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.services.live import refusal_text

register = template.Library()


@register.simple_tag
def club_events(club, limit: int = 5):
    """{"upcoming": [...], "recent": [...]} for the club page."""
    return selectors.club_events(club=club, limit=limit)


OUTCOMES = {
    "win": _("won"),
    "rout": _("won big"),
    "eggs": _("60:60, eggs"),
    "lucy": _("Lucy: every trick"),
}


@register.filter
def outcome_label(outcome: str) -> str:
    """A deal's outcome as the score sheet says it (RULES.md, "Scoring a deal")."""
    return str(OUTCOMES.get(outcome, outcome))


@register.filter
def live_refusal(refusal) -> str:
    """Why a live table's result was not taken (``Match.live_refusal``), in the reader's language."""
    return refusal_text(refusal)


@register.simple_tag
def home_tournaments(limit: int = 5):
    """{"live": [...], "open": [...]} for the site's home page: events under way, and those to enter."""
    return selectors.home_tournaments(limit=limit)


@register.filter
def surname(display_name: str) -> str:
    """The last word of a player's name, as a pair's short name shows it on a phone."""
    return (display_name or "").split()[-1] if (display_name or "").split() else ""


@lru_cache(maxsize=8)
def _archive_address(script_prefix: str) -> str:
    return reverse("gameplay:player_archive", args=[0]).removesuffix("0/")


@register.filter
def archive_url(player_id: int) -> str:
    """A player's match archive, as ``{% url 'gameplay:player_archive' id %}`` gives it: a big
    event's standings link each of its players twice, and reversing each address afresh took a
    fifth of the page's time (bench/web_load.py)."""
    return f"{_archive_address(get_script_prefix())}{int(player_id)}/"
