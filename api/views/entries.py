"""A tournament's entries, read as its entries page lists them and written with a write key through
the same services as that page: the services check who may (the club's organisers), keep to the
event's rules (a player entered once, a full or finished event) and write the audit row; the key
only narrows it to the clubs it names."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response

from clubs.models import Player
from tournaments import selectors, services
from tournaments.models import Entry, IndividualEntry

from ..idempotency import Idempotent, WriteView
from ..organiser_serializers import CheckInSerializer
from ..permissions import NOT_ORGANISING_HERE, OrganiseScope, require_club
from ..serializers import EntrySerializer, PairEntrySerializer
from .tournaments import tournament_or_404

ENTRY_RELATED = ("tournament__club", "player_a", "player_b")
NOT_THIS_CLUB = _("This key may not change the entries of this club's tournaments.")


class TournamentEntries(Idempotent, generics.ListAPIView):
    """The event's pairs (in an individual event, its players) in the order of its entries page,
    withdrawn and waiting ones too, each with its status; the seed where the page shows it.
    A POST registers a pair of the club's roster players: the club's organisers only, with a write
    key that names the club."""

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
        players = _players(tournament.club, given.validated_data)
        entry = services.register_entry(actor=request.user, tournament=tournament, **players)
        return Response(_shown(entry), status=status.HTTP_201_CREATED)


def _players(club, ids: dict[str, int]) -> dict[str, Player]:
    """The players the ids name, found on the club's roster as the entries page finds pasted names
    (a player of another club's roster is not there); an id not there is refused by its field
    (409: the request was well formed, the club has no such player)."""
    roster = Player.objects.filter(roster_entries__club=club, roster_entries__active=True)
    found = roster.in_bulk(set(ids.values()))
    missing = {
        name: [_("The club's roster has no player with this id.")]
        for name, pk in ids.items()
        if pk not in found
    }
    if missing:
        raise ValidationError(missing)
    return {name: found[pk] for name, pk in ids.items()}


_RELATED = {Entry: ENTRY_RELATED, IndividualEntry: ("tournament__club", "player")}


def _shown(entry: Entry | IndividualEntry) -> dict:
    """The entry as it now stands, read again after the service's change."""
    fresh = type(entry).objects.select_related(*_RELATED[type(entry)]).get(pk=entry.pk)
    return EntrySerializer(fresh).data


# --- the first addresses, without the event: pairs of pair events only ---------------------------


def _pair(request, pk: int) -> Entry:
    """The pair this id names (``selectors.pair_entry_by_id``: never a player of an individual
    event, nor a partnership of its tables); 404 alike for no such pair and any other kind."""
    try:
        entry = selectors.pair_entry_by_id(pk)
    except Entry.DoesNotExist:
        raise Http404 from None
    require_club(request, entry.tournament.club, NOT_THIS_CLUB)
    return entry


class EntryApprove(WriteView):
    """The organiser takes a pair that registered itself and waits for approval (as the entries
    page's Approve); a pair already approved stays as it is. For pairs of pair events only: the id
    of a player of an individual event is not found here (404), whatever pair has the same number;
    ``/api/v1/tournaments/{slug}/entries/{id}/approve/`` takes either kind, inside its event."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request, pk: int):
        entry = _pair(request, pk)
        return Response(_shown(services.approve_entry(actor=request.user, entry=entry)))


class EntryWithdraw(WriteView):
    """The pair leaves (as the entries page's Withdraw): its unplayed matches are lost by forfeit,
    results already reported stay. The organiser withdraws at any time; a player of the pair only
    until round 1 is paired. For pairs of pair events only, as ``approve``."""

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request, pk: int):
        entry = _pair(request, pk)
        return Response(_shown(services.withdraw_entry(actor=request.user, entry=entry)))


# --- an entry inside its event: a pair, or a player of an individual event -----------------------

#: The service the entries page calls for each step, for a pair and for a player.
_STEPS = {
    "approve": (services.approve_entry, services.approve_player),
    "withdraw": (services.withdraw_entry, services.withdraw_player),
    "reinstate": (services.reinstate_entry, services.reinstate_player),
    "check-in": (services.check_in_entry, services.check_in_player),
}


class _EventEntryStep(WriteView):
    """One step on one entry of the event: the id is looked up among the event's own entries, of
    its own kind (``selectors.own_entry``), so an id of another event or of the other kind is 404
    for every write key; then the key must name the event's club, and the page's service does the
    rest (who may, the event's rules, the audit row, the notices)."""

    step = ""
    refusal = NOT_THIS_CLUB

    @extend_schema(request=None, responses={200: EntrySerializer})
    def post(self, request, slug: str, pk: int):
        tournament = tournament_or_404(slug)
        try:
            entry = selectors.own_entry(tournament=tournament, pk=pk)
        except (Entry.DoesNotExist, IndividualEntry.DoesNotExist):
            raise Http404 from None
        require_club(request, tournament.club, self.refusal)
        for_pair, for_player = _STEPS[self.step]
        service = for_player if tournament.is_individual else for_pair
        return Response(_shown(service(actor=request.user, entry=entry)))


class EventEntryApprove(_EventEntryStep):
    """The organiser takes a pair (in an individual event, a player) that registered itself and
    waits for approval, as the entries page's Approve; one already approved stays as it is."""

    step = "approve"


class EventEntryWithdraw(_EventEntryStep):
    """The pair (in an individual event, the player) leaves, as the entries page's Withdraw: its
    matches nobody has reported yet are lost by forfeit (a player's table a no-show), results
    already reported stay. The organiser withdraws at any time; the entry's own player only until
    round 1 is paired (then he asks the organiser, on the entries page)."""

    step = "withdraw"


class EventEntryReinstate(_EventEntryStep):
    """The organiser brings a withdrawn pair (or player) back before round 1 is paired, as the
    entries page's Reinstate: approved, or checked in once check-in has closed; refused once round 1
    is paired, when the event is full, or when one of its players has entered again meanwhile. One
    that is not withdrawn stays as it is."""

    step = "reinstate"


class EventEntryCheckIn(_EventEntryStep):
    """The organiser checks in a pair (in an individual event, a player) at the venue, as the
    entries page's Check in: once anyone has checked in, round 1 takes only those checked in.
    Refused once check-in has closed (its time in the day settings, or round 1 paired). Running
    the event's day needs an organising key."""

    step = "check-in"
    permission_classes = [OrganiseScope]
    refusal = NOT_ORGANISING_HERE

    @extend_schema(
        summary="Check in a pair or player",
        description="An optional `paid` writes down the entry fee in the same step, as the select"
        " beside the page's Check in button: `cash` or `transfer` (with `amount`, the event's fee"
        " when left out) or `waived`. What an entry paid is never shown in the API's reads.",
        request=CheckInSerializer,
        responses={200: EntrySerializer},
    )
    def post(self, request, slug: str, pk: int):
        tournament = tournament_or_404(slug)
        try:
            entry = selectors.own_entry(tournament=tournament, pk=pk)
        except (Entry.DoesNotExist, IndividualEntry.DoesNotExist):
            raise Http404 from None
        require_club(request, tournament.club, self.refusal)
        given = CheckInSerializer(data=request.data or {})
        given.is_valid(raise_exception=True)
        fee = {k: v for k, v in given.validated_data.items() if v is not None}
        if "paid" in fee:
            fee["paid"] = str(fee["paid"])
        service = services.check_in_player if tournament.is_individual else services.check_in_entry
        return Response(_shown(service(actor=request.user, entry=entry, **fee)))
