"""Reads of the tournament day: the organiser's dashboard and the "now playing" board. No writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from gameplay.models import Table, TableStatus

from ..models import Match, MatchStatus, Round, RoundStatus, ScheduledAction, Tournament
from .events import MATCH_RELATED


@dataclass
class RoundState:
    round: Round
    total: int
    confirmed: int
    waiting: int
    disputed: int
    live: int


@dataclass
class LiveTable:
    match: Match
    table_id: int
    status: str
    url: str


def round_states(*, tournament: Tournament) -> list[RoundState]:
    rounds = tournament.rounds.annotate(
        n_total=Count("matches", filter=Q(matches__bye=False)),
        n_confirmed=Count("matches", filter=Q(matches__bye=False, matches__status=MatchStatus.CONFIRMED)),
        n_waiting=Count("matches", filter=Q(matches__status=MatchStatus.UNCONFIRMED)),
        n_disputed=Count("matches", filter=Q(matches__status=MatchStatus.DISPUTED)),
        n_live=Count(
            "matches", filter=Q(matches__live_table__isnull=False, matches__status=MatchStatus.SCHEDULED)
        ),
    ).order_by("number")
    return [
        RoundState(r, r.n_total, r.n_confirmed, r.n_waiting, r.n_disputed, r.n_live)  # type: ignore[attr-defined]
        for r in rounds
    ]


def live_tables(*, tournament: Tournament) -> list[LiveTable]:
    """The tournament's live tables still playing or waiting for players, for spectators (two queries)."""
    matches = list(
        Match.objects.filter(tournament=tournament, live_table__isnull=False, status=MatchStatus.SCHEDULED)
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "table")
    )
    tables = {
        t.pk: t
        for t in Table.objects.filter(pk__in=[m.live_table for m in matches]).exclude(
            status=TableStatus.FINISHED
        )
    }
    board = []
    for m in matches:
        t = tables.get(m.live_table)
        if t is None:
            continue
        board.append(LiveTable(m, t.pk, t.status, t.get_absolute_url()))
    return board


def stuck_matches(*, tournament: Tournament) -> list[Match]:
    """Matches of rounds in play with no result yet: overdue, or online without a table."""
    now = timezone.now()
    rows = (
        Match.objects.filter(
            tournament=tournament,
            bye=False,
            status=MatchStatus.SCHEDULED,
            round__status=RoundStatus.PLAYING,
        )
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "table")
    )
    return [m for m in rows if m.live_table is None or (m.round.deadline and m.round.deadline < now)]


def disputes(*, tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=tournament, status=MatchStatus.DISPUTED)
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "table")
    )


def plans(*, tournament: Tournament, limit: int = 30) -> list[ScheduledAction]:
    """Plans still to come first, then the last ones done (what fired, and what it did)."""
    coming = list(
        ScheduledAction.objects.filter(tournament=tournament, done_at__isnull=True).order_by("due_at")[:limit]
    )
    done = list(
        ScheduledAction.objects.filter(tournament=tournament, done_at__isnull=False).order_by("-done_at")[
            :limit
        ]
    )
    return coming + done
