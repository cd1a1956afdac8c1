"""Results written with a write key, through the same services as the match page: the services
check who may, write the audit row and apply the confirmation rules; the key only narrows it to
the clubs it names."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from tournaments import permissions, services
from tournaments.models import Match, MatchStatus

from ..idempotency import WriteView
from ..permissions import OrganiseScope, require_club, require_organiser
from ..serializers import (
    CorrectionSerializer,
    DisputeSerializer,
    ForfeitSerializer,
    MatchSerializer,
    ResultSerializer,
    SettleSerializer,
)
from .tournaments import MATCH_RELATED


def _match(request, pk: int) -> Match:
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED, "tournament__club"), pk=pk)
    require_club(request, match.tournament.club)
    return match


def _organised_match(request, pk: int) -> Match:
    """The match, once the organising key names its club and its owner runs the event (before the
    body is read)."""
    match = get_object_or_404(Match.objects.select_related(*MATCH_RELATED, "tournament__club"), pk=pk)
    require_organiser(request, match.tournament)
    return match


def _shown(pk: int) -> dict:
    return MatchSerializer(Match.objects.select_related(*MATCH_RELATED).get(pk=pk)).data


class MatchResult(WriteView):
    """Report the final eyes. An organiser's result is confirmed at once; a player's waits for the
    other pair (as on the match page)."""

    @extend_schema(summary="Report a match's final eyes", request=ResultSerializer,
                   responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _match(request, pk)
        services.require_reporter(actor=request.user, match=match)  # who may, before the body is read
        confirmed = match.status == MatchStatus.CONFIRMED and not match.bye
        if confirmed and permissions.can_manage(request.user, match.tournament):
            raise ValidationError(  # the organiser's way to change it, rather than "ask the organiser"
                _("This result is already confirmed. Correct it with a reason: POST %(url)s")
                % {"url": reverse("api:match_correct", kwargs={"pk": match.pk})}
            )
        given = ResultSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.enter_result(actor=request.user, match=match, **given.validated_data)
        return Response(_shown(pk))


class MatchConfirm(WriteView):
    """The other pair (or the organiser) confirms a reported result."""

    @extend_schema(summary="Confirm a reported result", request=None, responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _match(request, pk)
        services.confirm_result(actor=request.user, match=match)
        return Response(_shown(pk))


class MatchDispute(WriteView):
    """The other pair says the reported score is wrong, as the match page's "No, dispute it": the
    organiser settles it. A results key of a player of the other pair (or of the organiser)."""

    @extend_schema(summary="Dispute a reported result", request=DisputeSerializer,
                   responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _match(request, pk)
        given = DisputeSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.dispute_result(actor=request.user, match=match, note=given.validated_data["note"])
        return Response(_shown(pk))


class MatchCorrect(WriteView):
    """The organiser sets the result, whatever it was, as the match page's "Correct the result":
    logged with its reason, which a confirmed result (or one later rounds were paired on) needs;
    the standings follow."""

    permission_classes = [OrganiseScope]

    @extend_schema(summary="Correct a match's result", request=CorrectionSerializer,
                   responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _organised_match(request, pk)
        given = CorrectionSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        services.correct_result(actor=request.user, match=match, **given.validated_data)
        return Response(_shown(pk))


class MatchForfeit(WriteView):
    """A forfeit or a no-show, as the organiser's forfeit page: the ``loser`` pair loses 0:12,
    confirmed at once; a result it replaces is logged as a correction. In a best-of tie it loses
    that one game, not the tie: the next game follows unless this one decided it."""

    permission_classes = [OrganiseScope]

    @extend_schema(summary="Record a forfeit", request=ForfeitSerializer, responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _organised_match(request, pk)
        given = ForfeitSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        loser = {match.home_id: match.home, match.away_id: match.away}.get(given.validated_data["loser"])
        if match.bye or loser is None:
            raise ValidationError({"loser": [_("That pair does not play in this match.")]})
        services.record_forfeit(
            actor=request.user, match=match, loser=loser, reason=given.validated_data["reason"]
        )
        return Response(_shown(pk))


class MatchSettle(WriteView):
    """The organiser settles a disputed result, as on the match page: without eyes the reported
    result stands and is confirmed; with them, the organiser's score replaces it (a correction,
    logged)."""

    permission_classes = [OrganiseScope]

    @extend_schema(summary="Settle a disputed result", request=SettleSerializer,
                   responses={200: MatchSerializer})
    def post(self, request, pk: int):
        match = _organised_match(request, pk)
        given = SettleSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        if match.status != MatchStatus.DISPUTED:
            raise ValidationError(_("This result is not disputed; there is nothing to settle."))
        if ("home_eyes" in data) != ("away_eyes" in data):
            raise ValidationError(_("Give both pairs' eyes, or neither to keep the reported result."))
        if "home_eyes" in data:
            services.correct_result(actor=request.user, match=match, **data)
        elif match.has_result:
            services.confirm_result(actor=request.user, match=match)
        else:
            raise ValidationError(_("No result was reported; give both pairs' eyes."))
        return Response(_shown(pk))
