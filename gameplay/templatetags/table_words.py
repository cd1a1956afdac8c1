"""Filters that word the table in the reader's language: `{{ s.seat|seat }}`, `{{ "NS"|pair }}`,
`{{ deal.outcome|outcome }}`, `{{ deal.trump|suit }}` (gameplay.words); the
bot levels a form offers (`{% bot_levels as levels %}`) and a level's name (`{{ s.level|bot_level }}`)."""

from django import template
from django.utils.html import format_html, format_html_join

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


@register.simple_tag
def card(code, win=False):
    """A card drawn the way the live table and the replay draw it (`bt-card` of table.css), from its
    code of RULES.md (`JC`, `TH`), its rank and suit in the reader's words; `win` marks the card that
    takes the trick in an example."""
    ranks = words.rank_words()
    rank, suit = ranks[code[0]], code[1]
    return format_html(
        '<span class="bt-card{}{}" role="img" aria-label="{} {}"><span class="bt-rank">{}</span>'
        '<span class="bt-suit">{}</span></span>',
        " bt-red" if suit in "HD" else "",
        " guide-win" if win else "",
        rank,
        words.suit_name(suit),
        rank,
        words.SUIT_SYMBOL[suit],
    )


@register.simple_tag
def cards(codes, win=""):
    """Several cards in a row (`{% cards "JC JS JH JD" %}`), `win` the one that takes the trick."""
    return format_html_join("", "{}", ((card(c, win=c == win),) for c in codes.split()))
