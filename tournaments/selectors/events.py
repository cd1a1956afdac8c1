"""Reads of events and who is in them: a tournament by its address, a club's events, entries, players."""

from __future__ import annotations

from django.db.models import Q

from clubs.models import Club, Player

from ..formats import format_of
from ..formats.base import ENTRY_PLAYERS
from ..models import (
    ACTIVE_STATUSES,
    INDIVIDUAL_FORMATS,
    Entry,
    EntryStatus,
    IndividualEntry,
    Match,
    MatchStatus,
    Tournament,
    TournamentStatus,
)

MATCH_RELATED = (
    "round",
    "tournament",
    "home__player_a",
    "home__player_b",
    "away__player_a",
    "away__player_b",
)


def tournament_by_slug(slug: str) -> Tournament:
    return Tournament.objects.select_related("club").get(slug=slug)


def club_tournaments(*, club: Club) -> list[Tournament]:
    return list(club.tournaments.order_by("-starts_on", "-id"))


def club_events(*, club: Club, limit: int = 5) -> dict[str, list[Tournament]]:
    """Upcoming (registration or running) and recent (finished) events for the club page."""
    qs = club.tournaments.order_by("-starts_on", "-id")
    return {
        "upcoming": list(qs.exclude(status=TournamentStatus.FINISHED)[:limit]),
        "recent": list(qs.filter(status=TournamentStatus.FINISHED)[:limit]),
    }


def entries(*, tournament: Tournament) -> list[Entry]:
    # who took the fee: the organisers' entries page shows it beside each pair that paid
    return list(tournament.entries.select_related(*ENTRY_PLAYERS, "paid_to").order_by("seed", "id"))


def players(*, tournament: Tournament) -> list[IndividualEntry]:
    return list(
        tournament.individual_entries.select_related("player", "substitute_for__player", "paid_to").order_by(
            "seed", "id"
        )
    )


# --- one entry, found inside its tournament ------------------------------------------------------
# An id in an address is looked up among the rows of the tournament the address names, and only
# among the kind of entry that tournament has: a fixed pair (``Entry``) in a pair event, a player
# (``IndividualEntry``) in an individual event, whose ``Entry`` rows are only the partnerships of
# its tables. An id of another event, or of the other kind, is not there (DoesNotExist).


def pair_entry(*, tournament: Tournament, pk: int) -> Entry:
    """A pair of this pair event."""
    if tournament.is_individual:
        raise Entry.DoesNotExist
    return tournament.entries.select_related("tournament__club", *ENTRY_PLAYERS).get(pk=pk)


def player_entry(*, tournament: Tournament, pk: int) -> IndividualEntry:
    """A player of this individual event."""
    if not tournament.is_individual:
        raise IndividualEntry.DoesNotExist
    return tournament.individual_entries.select_related("tournament__club", "player").get(pk=pk)


def own_entry(*, tournament: Tournament, pk: int) -> Entry | IndividualEntry:
    """The event's own kind of entry with this id: a pair, or a player in an individual event."""
    if tournament.is_individual:
        return player_entry(tournament=tournament, pk=pk)
    return pair_entry(tournament=tournament, pk=pk)


def pair_entry_by_id(pk: int) -> Entry:
    """A pair found by its id alone, as the API's first addresses (``/api/v1/entries/<id>/``) find it.

    Those addresses were made for the pairs of pair events, and a client that read an individual
    event's list holds ids of players (``IndividualEntry``), which the same number may give to a
    pair of another event. So the id reaches a pair only when it is no player's: a partnership of
    an individual event's table is not a pair, and an id both a pair and a player have (rows made
    before the two kinds drew their ids from one sequence) is nobody's here.
    """
    if IndividualEntry.objects.filter(pk=pk).exists():
        raise Entry.DoesNotExist
    return (
        Entry.objects.exclude(tournament__format__in=INDIVIDUAL_FORMATS)
        .select_related("tournament__club", *ENTRY_PLAYERS)
        .get(pk=pk)
    )


def takes_entries(tournament: Tournament) -> bool:
    """Whether players may still enter themselves: the one rule that the event's page, its entries
    page and the lists of tournaments all show, and that ``services.refuse_late`` applies. Before
    round 1 is paired, any event whose organiser allows it; once it runs, only one whose format
    takes late entries (Swiss rounds) while a round is still to be paired."""
    if not tournament.self_registration:
        return False
    if tournament.status == TournamentStatus.REGISTRATION:
        return True
    return tournament.status == TournamentStatus.RUNNING and format_of(tournament).takes_late_entries()


def active_count(*, tournament: Tournament) -> int:
    """Pairs (or, in an individual event, players) approved or checked in."""
    return format_of(tournament).entries().filter(status__in=ACTIVE_STATUSES).count()


def is_registered(*, tournament: Tournament, player_id: int | None) -> bool:
    """Whether the player is in the event (in a pair, or alone) and not withdrawn."""
    if player_id is None:
        return False
    if tournament.is_individual:
        rows = tournament.individual_entries.filter(player_id=player_id)
    else:  # a partner asked to play is not in the pair until she accepts
        rows = tournament.entries.filter(
            Q(player_a_id=player_id) | (Q(player_b_id=player_id) & ~Q(status=EntryStatus.PARTNER))
        )
    return rows.exclude(status=EntryStatus.WITHDRAWN).exists()


def partner_choices(*, tournament: Tournament, exclude: int | None):
    """The club's active roster players a pair may be made of (merged records left out)."""
    return (
        Player.objects.filter(
            roster_entries__club=tournament.club, roster_entries__active=True, merged_into__isnull=True
        )
        .exclude(pk=exclude)
        .distinct()
        .order_by("display_name")
    )


def substitute_choices(*, tournament: Tournament):
    """Roster players who may come in as a substitute in an individual event: those not entered."""
    entered = tournament.individual_entries.values("player_id")
    return partner_choices(tournament=tournament, exclude=None).exclude(pk__in=entered)


def partner_requests(*, user, tournament: Tournament | None = None) -> list[Entry]:
    """The pairs waiting for this account to accept being the partner, newest first (in one
    tournament, or in all of them)."""
    if not user.is_authenticated:
        return []
    rows = Entry.objects.filter(status=EntryStatus.PARTNER, player_b__user=user)
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    return list(rows.select_related("tournament", *ENTRY_PLAYERS).order_by("-created_at", "-id"))


def pending_entries(*, tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=EntryStatus.PENDING).select_related(*ENTRY_PLAYERS))


def open_matches(*, tournament: Tournament) -> list[Match]:
    """Results the organiser should look at: disputed first, then waiting for confirmation."""
    return list(
        Match.objects.filter(
            tournament=tournament, status__in=(MatchStatus.DISPUTED, MatchStatus.UNCONFIRMED)
        )
        .select_related(*MATCH_RELATED)
        .order_by("status", "round__number", "table")
    )
