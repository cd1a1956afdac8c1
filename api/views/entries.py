"""A tournament's entries, read as its entries page lists them and written with a write key through
the same services as that page: the services check who may (the club's organisers), keep to the
event's rules (a player entered once, a full or finished event) and write the audit row; the key
only narrows it to the clubs it names."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Player
from tournaments import selectors, services
from tournaments.models import Entry

from ..permissions import require_club
from ..serializers import EntrySerializer, PairEntrySerializer
from .tournaments import tournament_or_404

ENTRY_RELATED = ("tournament__club", "player_a", "player_b")
NOT_THIS_CLUB = _("This key may not change the entries of this club's tournaments.")


class TournamentEntries(generics.ListAPIView):
    """The event's pairs (in an individual event, its players) in the order of its entries page,
    withdrawn and waiting ones too, each with its status; the seed where the page shows it.
    A POST registers a pair: the club's organisers only, with a write key that names the club."""

    serializer_class = EntrySerializer
    filter_backends: list = []

    def get_queryset(self):
        tournament = tournament_or_404(self.kwargs["slug"])
        if tournament.is_individual:
            return selectors.players(tournament=tournament)
        return selectors.entries(tournament=tournament)

    @extend_schema(request=PairEntrySerializer, responses={201: EntrySerializer})
    def post(self, request, slug: str):
        tournament = tournament_or_404(slug)
        require_club(request, tournament.club, NOT_THIS_CLUB)
        services.require_manager(request.user, tournament)  # who may, before the body is read
        given = PairEntrySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        players = _players(given.validated_data)
        entry = services.register_entry(actor=request.user, tournament=tournament, **players)
        return Response(_shown(entry.pk), status=status.HTTP_201_CREATED)


def _players(ids: dict[str, int]) -> dict[str, Player]:
    """The players the ids name; an id no player has is refused by its field (409: the request
    was well formed, the site has no such player)."""
    found = Player.objects.in_bulk(set(ids.values()))
    missing = {name: [_("There is no player with this id.")] for name, pk in ids.items() if pk not in found}
    if missing:
        raise ValidationError(missing)
    return {name: found[pk] for name, pk in ids.items()}


def _entry(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related(*ENTRY_RELATED), pk=pk)
    require_club(request, entry.tournament.club, NOT_THIS_CLUB)
    return entry


def _shown(pk: int) -> dict:
    return EntrySerializer(Entry.objects.select_related(*ENTRY_RELATED).get(pk=pk)).data


class EntryApprove(APIView):
    """The organiser takes a pair that registered itself and waits for approval (as the entries
    page's Approve); a pair already approved stays as it is."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request, pk: int):
        entry = _entry(request, pk)
        services.approve_entry(actor=request.user, entry=entry)
        return Response(_shown(pk))


class EntryWithdraw(APIView):
    """The pair leaves (as the entries page's Withdraw): its unplayed matches are lost by forfeit,
    results already reported stay. The organiser withdraws at any time; a player of the pair only
    until round 1 is paired."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request, pk: int):
        entry = _entry(request, pk)
        services.withdraw_entry(actor=request.user, entry=entry)
        return Response(_shown(pk))
