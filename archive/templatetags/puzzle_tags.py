"""Template tags of the archive for pages of other apps (the home page's puzzle of the day)."""

from django import template
from django.utils import timezone

from archive import puzzle_selectors

register = template.Library()


@register.simple_tag
def daily_puzzle():
    """Today's puzzle (the same for everyone all day), or None when the archive has none."""
    return puzzle_selectors.daily_puzzle(timezone.localdate())
