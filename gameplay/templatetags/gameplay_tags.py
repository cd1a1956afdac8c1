"""Template tags other apps' pages use to show live tables (the home page's "Playing now")."""

from django import template

from gameplay import selectors

register = template.Library()


@register.simple_tag
def live_tables(limit: int = 5):
    """Tables being played now, for spectators to open."""
    return selectors.live_tables(limit=limit)
