"""Tournaments with their rounds, pairings, results and standings, read as the event's pages are."""

from __future__ import annotations

from functools import partial

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config import fresh
from config.visitors import Shareable
from tournaments import selectors
from tournaments.models import Match, Tournament

from ..filters import TournamentFilter
from ..idempotency import Idempotent
from ..permissions import OrganiseScope
from ..serializers import MatchSerializer, RoundSerializer, StandingsSerializer, TournamentSerializer
from .events import CreateEvent, EditEvent

MATCH_RELATED = (
    "tournament", "round", "home__player_a", "home__player_b", "away__player_a", "away__player_b"
)


class TournamentList(Idempotent, CreateEvent, generics.ListAPIView):
    """Every tournament, newest first; a POST with an organising key creates one (``events``)."""

    permission_classes = [OrganiseScope]  # reads stay open to anyone
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    queryset = Tournament.objects.select_related("club").order_by("-starts_on", "-id")


class TournamentDetail(EditEvent, generics.RetrieveAPIView):
    """One tournament; PATCH and DELETE with an organising key change or delete it (``events``)."""

    permission_classes = [OrganiseScope]  # reads stay open to anyone
    serializer_class = TournamentSerializer
    queryset = Tournament.objects.select_related("club")
    lookup_field = "slug"


def tournament_or_404(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


class RoundList(generics.ListAPIView):
    """The event's rounds in order, each with its pairings and their results."""

    serializer_class = RoundSerializer
    pagination_class = None
    filter_backends: list = []

    def get_queryset(self):
        return selectors.rounds_with_matches(tournament=tournament_or_404(self.kwargs["slug"]))


class StandingsView(APIView):
    """The standings as the event's format reckons them (match points, then its tiebreaks)."""

    @extend_schema(responses=StandingsSerializer)
    def get(self, request, slug):
        def data():
            return StandingsSerializer(selectors.shown_standings(tournament=tournament_or_404(slug))).data

        # Kept until the tournament changes, as its standings page (config.fresh).
        renderer = request.accepted_renderer
        if isinstance(renderer, JSONRenderer) and request.accepted_media_type == renderer.media_type:
            # Plain JSON, as every client but the browsable page asks: kept as sent, for encoding
            # a 256-pair table took as long again as the rest of the request.
            body, stamp = fresh.kept("api-standings-json", slug, lambda: (
                renderer.render(data(), renderer.media_type, self.get_renderer_context()), True),
                get_language())
            response = HttpResponse(body, content_type=renderer.media_type)
            if stamp is not None and not request.auth:
                # the same for every caller without a key: the server answers the next from it,
                # counting him against the same allowances (config.visitors)
                response.shareable = Shareable(stamp=stamp, current=partial(fresh.stamp, slug),
                                               covers=fresh.covers, body=body,
                                               throttles=tuple(self.throttle_classes))
            return response
        return Response(fresh.cached("api-standings", slug, lambda: (data(), True), get_language()))


class MatchDetail(generics.RetrieveAPIView):
    """One match: the pairs, the status of its result, the eyes."""

    serializer_class = MatchSerializer
    queryset = Match.objects.select_related(*MATCH_RELATED)


@csrf_exempt  # an answer, not a form: nothing is changed here
def not_found(request, *args, **kwargs):
    """Any other address under /api/: JSON, as every answer of the API is."""
    return JsonResponse({"detail": _("Not found.")}, status=404)
