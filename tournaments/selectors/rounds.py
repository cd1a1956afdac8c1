"""Reads of rounds and matches: every round with its tables, one round, a match, a player's matches, seats."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Case, Prefetch, Q, QuerySet, When

from .. import permissions
from ..formats.players import TABLE_SEATS
from ..models import Match, Round, Seat, SeatName, Substitution, Tournament, TournamentStatus
from .events import MATCH_RELATED

SEAT_ORDER = {seat: i for i, seat in enumerate(TABLE_SEATS)}


def rounds_with_matches(*, tournament: Tournament) -> list[Round]:
    """Every round with its matches and the players at each table. Three queries."""
    return list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related(*MATCH_RELATED).order_by(
                    "bye", "table", "slot", "game"
                ),
            )
        )
    )


def round_detail(*, tournament: Tournament, number: int) -> Round:
    return tournament.rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.select_related(*MATCH_RELATED).order_by("bye", "table", "slot", "game"),
        ),
        Prefetch("substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")),
    ).get(number=number)


def match_detail(*, tournament: Tournament, pk: int) -> Match:
    return (
        Match.objects.select_related(*MATCH_RELATED, "reported_by__player", "confirmed_by__player")
        .prefetch_related(
            "deals",
            "corrections__actor",
            Prefetch(
                "home__substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")
            ),
            Prefetch(
                "away__substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")
            ),
        )
        .get(tournament=tournament, pk=pk)
    )


def results(*, tournament: Tournament) -> QuerySet[Match]:
    return (
        Match.objects.filter(tournament=tournament)
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "bye", "table", "slot", "game")
    )


def my_matches(*, user) -> list[Match]:
    """The user's matches in every tournament (his pairs, and rounds he plays as a substitute):
    events still being played first, so that on a phone the match to play now is at the top and a
    finished event's, however recent, below it; then the newest event first, rounds in playing order."""
    pid = permissions.player_id_of(user)
    if pid is None:
        return []
    subs = Substitution.objects.filter(player_in_id=pid).values_list("entry_id", "round_id")
    sub_q = Q()
    for entry_id, round_id in subs:
        sub_q |= Q(round_id=round_id) & (Q(home_id=entry_id) | Q(away_id=entry_id))
    mine = (
        Q(home__player_a_id=pid)
        | Q(home__player_b_id=pid)
        | Q(away__player_a_id=pid)
        | Q(away__player_b_id=pid)
    )
    return list(
        Match.objects.filter(mine | sub_q)
        .select_related("tournament__club", *MATCH_RELATED)
        .prefetch_related("home__substitutions", "away__substitutions")
        .annotate(over=Case(When(tournament__status=TournamentStatus.FINISHED, then=1), default=0))
        .order_by("over", "-tournament__starts_on", "tournament_id", "round__number", "game")
    )


@dataclass
class SeatedTable:
    number: int
    match: Match
    seats: list[Seat] = field(default_factory=list)

    @property
    def north_south(self) -> list[Seat]:
        return self.seats[:2]

    @property
    def east_west(self) -> list[Seat]:
        return self.seats[2:]


@dataclass
class SeatedRound:
    round: Round
    tables: list[SeatedTable]
    byes: list[Seat]


def seated_round(*, tournament: Tournament, number: int) -> SeatedRound:
    """A round's tables with each player's seat (N, S, E, W) and the players sitting out. Three queries."""
    rnd = tournament.rounds.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
        Prefetch("matches", queryset=Match.objects.select_related("home", "away").order_by("table")),
    ).get(number=number)
    tables = {m.pk: SeatedTable(number=m.table, match=m) for m in rnd.matches.all()}
    byes = []
    for s in rnd.seats.all():
        if s.seat == SeatName.BYE:
            byes.append(s)
        elif s.match_id in tables:
            tables[s.match_id].seats.append(s)
    for t in tables.values():
        t.seats.sort(key=lambda s: SEAT_ORDER[s.seat])
    return SeatedRound(
        round=rnd,
        tables=sorted(tables.values(), key=lambda t: t.number),
        byes=sorted(byes, key=lambda s: s.entry.player.display_name),
    )
