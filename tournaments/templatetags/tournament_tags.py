"""Template tags other apps' pages use to show tournaments (the club page's events section)."""

from django import template

from tournaments import selectors

register = template.Library()


@register.simple_tag
def club_events(club, limit: int = 5):
    """{"upcoming": [...], "recent": [...]} for the club page."""
    return selectors.club_events(club=club, limit=limit)
