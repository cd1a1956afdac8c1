"""Running an event with an organising key, through the services the organiser's pages call: the
event created, its settings changed, deleted before it starts, started; its entries made from a
list with their seeds. The key must name the event's club (403) and its owner must organise there
(403, the service's own check); what the event's state or rules refuse is 409, worded by the
service as the page words it."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from clubs.models import Club, Player
from tournaments import permissions as tournament_permissions
from tournaments import services
from tournaments.models import Entry, IndividualEntry, Tournament

from ..idempotency import WriteView
from ..organiser_serializers import (
    ClubOfNewTournamentSerializer,
    EntryListSerializer,
    NewTournamentSerializer,
    TournamentSettingsSerializer,
)
from ..permissions import NOT_ORGANISING_HERE, OrganiseScope, require_club, require_organiser
from ..serializers import EntrySerializer, TournamentSerializer

NO_SUCH_CLUB = _("There is no club with this address.")
NOT_ON_ROSTER = _("The club's roster has no player with this id.")
MAY_NOT_CREATE = _("Only the club's owners and organisers create tournaments.")
NEEDED = _("This field is required.")


def _event(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _shown(tournament: Tournament) -> dict:
    return TournamentSerializer(Tournament.objects.select_related("club").get(pk=tournament.pk)).data


class CreateEvent:
    """``POST /api/v1/tournaments/``, mixed into the list of tournaments."""

    @extend_schema(
        summary="Create a tournament for a club",
        request=NewTournamentSerializer,
        responses={201: TournamentSerializer},
    )
    def post(self, request):
        named = ClubOfNewTournamentSerializer(data=request.data)
        named.is_valid(raise_exception=True)
        club = Club.objects.filter(slug=named.validated_data["club"]).first()
        if club is None:
            raise ValidationError({"club": [NO_SUCH_CLUB]})
        require_club(request, club, NOT_ORGANISING_HERE)
        if not tournament_permissions.can_create(request.user, club):  # the service's check, before the body
            raise PermissionDenied(MAY_NOT_CREATE)
        given = NewTournamentSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        values = dict(given.validated_data)
        values.pop("club")
        tournament = services.create_tournament(actor=request.user, club=club, **values)
        return Response(_shown(tournament), status=status.HTTP_201_CREATED)


class EditEvent:
    """``PATCH`` and ``DELETE /api/v1/tournaments/<slug>/``, mixed into the tournament's read view."""

    @extend_schema(
        summary="Change a tournament's settings",
        request=TournamentSettingsSerializer,
        responses={200: TournamentSerializer},
    )
    def patch(self, request, slug: str):
        tournament = _event(slug)
        require_organiser(request, tournament)
        given = TournamentSettingsSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        values = dict(given.validated_data)
        if "rules" in values:  # the rules left out keep their present values, as on the page
            values["rules"] = {**(tournament.rules or {}), **values["rules"]}
        if values:
            tournament = services.update_tournament(actor=request.user, tournament=tournament, **values)
        return Response(_shown(tournament))

    @extend_schema(summary="Delete a tournament that has not started", request=None, responses={204: None})
    def delete(self, request, slug: str):
        tournament = _event(slug)
        require_organiser(request, tournament)
        services.delete_tournament(actor=request.user, tournament=tournament)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventStart(WriteView):
    """Start the event: registration closes and round 1 is paired (in an individual event, seated),
    as the organiser's "pair round 1" does; once anyone has checked in, the entries that did not
    are withdrawn. Refused (409) once it has started: the next rounds are paired one by one."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Start a tournament: pair round 1", request=None, responses={200: TournamentSerializer}
    )
    def post(self, request, slug: str):
        tournament = _event(slug)
        require_organiser(request, tournament)
        services.start_tournament(actor=request.user, tournament=tournament)
        return Response(_shown(tournament))


def _kind_errors(tournament: Tournament, lines: list[dict]) -> dict[str, list[str]]:
    """Each line names the event's own kind: two players of a pair, or one player. The schema
    cannot say which the event takes, so a line of the other kind is 409, as the event refuses it."""
    needed, unwanted = (
        (("player",), ("player_a", "player_b"))
        if tournament.is_individual
        else (("player_a", "player_b"), ("player",))
    )
    errors: dict[str, list[str]] = {}
    for number, line in enumerate(lines):
        for name in needed:
            if name not in line:
                errors[f"entries.{number}.{name}"] = [str(NEEDED)]
        for name in unwanted:
            if name in line:
                errors[f"entries.{number}.{name}"] = [
                    str(_('Players enter this event alone: give "player".'))
                    if tournament.is_individual
                    else str(_('This event is for pairs: give "player_a" and "player_b".'))
                ]
    return errors


def _lines(tournament: Tournament, lines: list[dict]) -> list[services.SeededLine]:
    """The players the ids name, found on the club's roster as the entries page finds them; an id
    not there is refused by its field (409: the request was well formed, the club has no such player)."""
    names = ("player",) if tournament.is_individual else ("player_a", "player_b")
    roster = Player.objects.filter(roster_entries__club=tournament.club, roster_entries__active=True)
    found = roster.in_bulk({line[name] for line in lines for name in names})
    missing = {
        f"entries.{number}.{name}": [str(NOT_ON_ROSTER)]
        for number, line in enumerate(lines)
        for name in names
        if line[name] not in found
    }
    if missing:
        raise ValidationError(missing)
    return [
        services.SeededLine(*(found[line[name]] for name in names), seed=line.get("seed")) for line in lines
    ]


class EntriesBulk(WriteView):
    """Enter a list of pairs (in an individual event, of players) of the club's roster, all or none,
    each approved at once as the organiser's own entries are; a seed puts it at that place of an
    event seeded by hand. A refused line is named by its place: ``entries.3.player_b``."""

    permission_classes = [OrganiseScope]

    @extend_schema(
        summary="Enter a list of pairs or players with their seeds",
        request=EntryListSerializer,
        responses={201: EntrySerializer(many=True)},
    )
    def post(self, request, slug: str):
        tournament = _event(slug)
        require_organiser(request, tournament)
        given = EntryListSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        lines = [{k: v for k, v in line.items() if v is not None} for line in given.validated_data["entries"]]
        errors = _kind_errors(tournament, lines)
        if errors:
            raise ValidationError(errors)
        created = services.register_seeded(
            actor=request.user, tournament=tournament, lines=_lines(tournament, lines)
        )
        model, related = (
            (IndividualEntry, ("tournament__club", "player"))
            if tournament.is_individual
            else (Entry, ("tournament__club", "player_a", "player_b"))
        )
        rows = model.objects.select_related(*related).in_bulk([entry.pk for entry in created])
        shown = EntrySerializer([rows[entry.pk] for entry in created], many=True).data
        return Response(shown, status=status.HTTP_201_CREATED)
