"""An event's rounds run with an organising key, through the same services as the round pages:
pairing the next round, unpairing the last, swapping two pairs (which also moves a bye) and
renumbering a table. The services check who may, keep the game's rules, write the audit row and
tell the players; the key only narrows it to the clubs it names.

What a page asks as a second step (a rematch after a swap, the reported results an unpairing
loses) is the request's ``accept_warnings``: without it the answer is 409 with the warnings, and
nothing is changed."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.models import Match, Round, Tournament

from ..idempotency import WriteView
from ..permissions import OrganiseScope, require_organiser
from ..serializers import (
    MatchSerializer,
    RoundSerializer,
    SwapSerializer,
    TableSerializer,
    UnpairedSerializer,
    UnpairSerializer,
    WarningsSerializer,
)
from .tournaments import MATCH_RELATED, tournament_or_404

WARNINGS = OpenApiResponse(WarningsSerializer, description="Refused until accepted (accept_warnings).")


def organised(request, tournament: Tournament) -> Tournament:
    """The event, once the key names its club and its owner may run it (before the body is read)."""
    require_organiser(request, tournament)
    return tournament


def to_accept(warnings: list[str]) -> Response:
    """The 409 a client overrules by sending the same request with ``accept_warnings``."""
    return Response(
        {"detail": " ".join(warnings), "warnings": list(warnings)}, status=status.HTTP_409_CONFLICT
    )


def _round_shown(tournament: Tournament, number: int) -> dict:
    return RoundSerializer(selectors.round_detail(tournament=tournament, number=number)).data


class RoundPairNext(WriteView):
    """Pair (in an individual event, seat) the next round, as the event page's "Pair the next round".
    Refused (409) while a round still has results missing or unconfirmed, so sending it twice
    never pairs twice; with an ``Idempotency-Key`` a retry gets the first answer."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Pair the next round",
        request=None,
        responses={201: RoundSerializer},
    )
    def post(self, request, slug: str):
        tournament = organised(request, tournament_or_404(slug))
        rnd = services.pair_next_round(actor=request.user, tournament=tournament)
        return Response(_round_shown(tournament, rnd.number), status=status.HTTP_201_CREATED)


class RoundUnpair(WriteView):
    """Unpair the last round so that it can be paired again, as the round's unpair page: refused
    once a result of it is confirmed; the results reported but unconfirmed are lost only with
    ``accept_warnings``."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Unpair the last round",
        request=UnpairSerializer,
        responses={200: UnpairedSerializer, 409: WARNINGS},
    )
    def post(self, request, slug: str, number: int):
        tournament = organised(request, tournament_or_404(slug))
        try:
            preview = selectors.unpair_preview(tournament=tournament, number=number)
        except Round.DoesNotExist:
            raise Http404 from None
        given = UnpairSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        # With a confirmed result the service refuses the whole unpairing: nothing to accept then.
        reported = [] if preview.confirmed else preview.reported
        if reported and not given.validated_data["accept_warnings"]:
            return to_accept(
                [
                    _("Table %(n)d has a reported result that is lost with the pairing.") % {"n": m.table}
                    for m in reported
                ]
            )
        services.unpair_round(actor=request.user, round=preview.round, discard={m.pk for m in reported})
        return Response({"number": number})


class RoundSwap(WriteView):
    """Two pairs (in an individual event, two players) change places in the round: tables, sides,
    or the bye, as the round page's swap. A rematch, a second bye or a repeated partnership is
    refused with 409 and its warnings until ``accept_warnings``."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Swap two pairs (or players) in a round; this also moves a bye",
        request=SwapSerializer,
        responses={200: RoundSerializer, 409: WARNINGS},
    )
    def post(self, request, slug: str, number: int):
        tournament = organised(request, tournament_or_404(slug))
        rnd = get_object_or_404(tournament.rounds, number=number)
        given = SwapSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        try:
            services.swap_in_round(
                actor=request.user,
                round=rnd,
                first=data["first"],
                second=data["second"],
                accept=data["accept_warnings"],
            )
        except services.PairingWarning as warning:
            return to_accept(warning.messages)
        return Response(_round_shown(tournament, number))


class MatchTable(WriteView):
    """Give a match another table number, as the round page's table numbers: the match that had
    that number takes the old one."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Give a match another table number", request=TableSerializer, responses={200: MatchSerializer}
    )
    def post(self, request, pk: int):
        match = get_object_or_404(Match.objects.select_related("tournament__club", "round"), pk=pk)
        organised(request, match.tournament)
        given = TableSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.set_table_number(actor=request.user, match=match, table=given.validated_data["table"])
        return Response(MatchSerializer(Match.objects.select_related(*MATCH_RELATED).get(pk=pk)).data)
