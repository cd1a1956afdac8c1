"""Filters that word the table in the reader's language: `{{ s.seat|seat }}`, `{{ "NS"|pair }}`,
`{{ deal.outcome|outcome }}`, `{{ deal.trump|suit }}` (gameplay.words); the
bot levels a form offers (`{% bot_levels as levels %}`) and a level's name (`{{ s.level|bot_level }}`)."""

from django import template

from gameplay import words
from gameplay.words import BotLevel

register = template.Library()


@register.filter
def seat(value):
    """A seat letter (or number, or a pair code such as a replay's winner) in the reader's language."""
    if value in (None, ""):
        return ""
    return words.seat_letter(value) if isinstance(value, int) else words.seat_or_pair(value)


@register.filter
def pair(value):
    return "" if value in (None, "") else words.pair_name(value)


@register.filter
def outcome(value):
    return words.deal_outcome(str(value))


@register.filter
def suit(value):
    return words.suit_name(str(value))


@register.simple_tag
def bot_levels():
    """(value, name) of every bot level, the beginner first: the choices of a "which bot" select."""
    return BotLevel.choices


@register.filter
def bot_level(value):
    """A bot level's name in the reader's language ("" for none)."""
    return BotLevel(value).label if value in BotLevel.values else ""
