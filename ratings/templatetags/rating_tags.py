"""Template tags other apps' pages use to show a player's rating: the card on the player's archive
page, the one line on the clubs player page (those apps know nothing of tournaments in Python)."""

from django import template

from ratings import selectors as rating_selectors

register = template.Library()


@register.inclusion_tag("ratings/_card.html", takes_context=True)
def rating_card(context, player):
    """The player's rating, place, chart and last changes."""
    return {
        "player": player, "standing": rating_selectors.player_rating(player.pk),
        "changes": list(reversed(rating_selectors.history(player.pk, limit=10))),
        "min_matches": rating_selectors.min_matches(), "request": context.get("request"),
    }


@register.simple_tag
def player_rating(player):
    """The player's rating now (None when never rated), for a one-line mention."""
    return rating_selectors.player_rating(player.pk)
