"""Clubs, players and the rating leaderboard: what the club and player pages show, as JSON."""

from __future__ import annotations

from django.db.models import Prefetch
from rest_framework import generics

from clubs.models import Club, ClubPlayer, Player
from ratings import selectors as rating_selectors
from ratings.models import BILKA_GAME, PlayerRating, rated_game

from ..filters import ClubFilter, PlayerFilter, RatingFilter
from ..serializers import ClubSerializer, PlayerSerializer, RatingSerializer


class ClubList(generics.ListAPIView):
    """Every club, by name."""

    serializer_class = ClubSerializer
    filterset_class = ClubFilter
    queryset = Club.objects.order_by("name", "id")


class ClubDetail(generics.RetrieveAPIView):
    serializer_class = ClubSerializer
    queryset = Club.objects.all()
    lookup_field = "slug"


def _players():
    """Players as their page shows them (merged records lead to the one they became, so are left out)."""
    return (
        Player.objects.filter(merged_into__isnull=True)
        .prefetch_related(
            Prefetch(
                "roster_entries",
                queryset=ClubPlayer.objects.select_related("club").order_by("-active", "club__name"),
            )
        )
        .order_by("display_name", "id")
    )


class PlayerList(generics.ListAPIView):
    """Players by name; ``club`` lists a club's roster."""

    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter

    def get_queryset(self):
        return _players()


class PlayerDetail(generics.RetrieveAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        return _players()


class RatingList(generics.ListAPIView):
    """The leaderboard of one game's rating (``game``: bilka, the default, kozyol or bilka2; each
    game has a rating of its own): players by rating, highest first; ``min_matches`` leaves out
    players with too few rated matches for their rating to mean much (by default as many as the
    site's boards ask, the setting ``RATING_BOARD_MIN_MATCHES``). Each row's ``matches`` and
    ``last_played`` count only the rated matches of that game the caller may see."""

    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    def get_queryset(self):
        # an unknown game is refused with 400 by the filter; until then Bilka's rows stand in
        game = rated_game(self.request.query_params.get("game", "")) or BILKA_GAME
        qs = PlayerRating.objects.filter(game=game.key, player__merged_into__isnull=True)
        qs = qs.select_related("player")
        if "min_matches" not in self.request.query_params:
            qs = qs.filter(matches__gte=rating_selectors.min_matches())
        qs = rating_selectors.with_seen_matches(qs, self.request.user, game.key)
        return qs.order_by("-rating", "deviation", "player_id")
