"""Results written with a write key, through the same services as the match page: the services
check who may, write the audit row and apply the confirmation rules; the key only narrows it to
the clubs it names."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from tournaments import services
from tournaments.models import Match

from ..idempotency import WriteView
from ..permissions import require_club
from ..serializers import MatchSerializer, ResultSerializer
from .tournaments import MATCH_RELATED


def _match(request, pk: int) -> Match:
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED, "tournament__club"), pk=pk)
    require_club(request, match.tournament.club)
    return match


def _shown(pk: int) -> dict:
    return MatchSerializer(Match.objects.select_related(*MATCH_RELATED).get(pk=pk)).data


class MatchResult(WriteView):
    """Report the final eyes. An organiser's result is confirmed at once; a player's waits for the
    other pair (as on the match page)."""

    @extend_schema(request=ResultSerializer, responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _match(request, pk)
        services.require_reporter(actor=request.user, match=match)  # who may, before the body is read
        given = ResultSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.enter_result(actor=request.user, match=match, **given.validated_data)
        return Response(_shown(pk))


class MatchConfirm(WriteView):
    """The other pair (or the organiser) confirms a reported result."""

    @extend_schema(request=None, responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _match(request, pk)
        services.confirm_result(actor=request.user, match=match)
        return Response(_shown(pk))
