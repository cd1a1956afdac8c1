"""Template tags other apps' pages use to show ratings: the card on the player's archive page, the
one line on the clubs player page, the chances before a casual rated table's match (those apps know
nothing of ratings in Python). What a card lists of a player's matches is what its viewer may see."""

from django import template

from ratings import charts
from ratings import selectors as rating_selectors
from ratings.models import BILKA_GAME, rated_game

register = template.Library()

#: Changes the card lists, at most (the newest).
LISTED_CHANGES = 10


def _viewer(context):
    request = context.get("request")
    return getattr(request, "user", None)


@register.inclusion_tag("ratings/_card.html", takes_context=True)
def rating_card(context, player):
    """The player's rating in each game he has one in, labelled by game; for the game chosen
    (``?rating=``, else Bilka, else the first he has) its place, chart and last changes, from the
    matches the viewer may see."""
    viewer = _viewer(context)
    request = context.get("request")
    standings = rating_selectors.player_ratings(player.pk)
    asked = rated_game(request.GET.get("rating", "")) if request is not None else None
    has = [s.game for s in standings]
    game = asked or (BILKA_GAME if BILKA_GAME in has or not has else has[0])
    lines = rating_selectors.change_lines(player.pk, viewer=viewer, limit=charts.CHART_MATCHES, game=game.key)
    return {
        "player": player,
        "game": game,
        "standings": standings,
        "standing": next((s for s in standings if s.game == game), None),
        "seen": rating_selectors.seen_count(player.pk, viewer=viewer, game=game.key),
        "chart": charts.draw(charts.points_of(lines)),
        # his matches and the moves recomputes made without a match of his, newest first
        "changes": rating_selectors.with_moves(
            lines[:LISTED_CHANGES],
            rating_selectors.move_lines(player.pk, viewer=viewer, limit=LISTED_CHANGES, game=game.key),
            LISTED_CHANGES),
        "min_matches": rating_selectors.min_matches(),
        "request": request,
    }


@register.simple_tag
def player_rating(player):
    """The player's Bilka rating now (None when never rated), for a one-line mention."""
    return rating_selectors.player_rating(player.pk)


@register.simple_tag
def player_ratings(player):
    """The player's rating in each game he has one in (Bilka first), for a line per game."""
    return rating_selectors.player_ratings(player.pk)


@register.inclusion_tag("ratings/_table_odds.html")
def table_odds(table):
    """Before a casual rated table's match: each side's chance and each player's +x / −y."""
    return {"odds": rating_selectors.table_odds(table), "table": table}


@register.filter
def signed(change):
    """A change as the pages write it: +14, −3, 0."""
    return charts.signed(change)


@register.filter
def change_class(change):
    """The colour of a change as ``signed`` writes it: "gain", "loss", or none for 0."""
    value = round(change)
    return "gain" if value > 0 else ("loss" if value < 0 else "")


@register.filter
def event_words(line):
    """Where a changes line's match was played: the event and round, or a casual match."""
    return charts.event_words(line)
