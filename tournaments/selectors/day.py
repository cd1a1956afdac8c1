"""Reads of the tournament day: the organiser's dashboard, the "now playing" board, players' asks
to withdraw and what a withdrawal would do, and the later pairings a correction would leave
standing. No writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from gameplay.models import Table, TableStatus
from gameplay.selectors import visible_to

from ..models import (
    DaySettings,
    Entry,
    IndividualEntry,
    Match,
    MatchStatus,
    RequestStatus,
    Round,
    RoundStatus,
    ScheduledAction,
    Seat,
    Tournament,
    WithdrawalRequest,
)
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
    #: The SHA-256 the table's dealing is committed to (provably fair shuffles), shown to spectators.
    commitment: str = ""


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


def live_tables(*, tournament: Tournament, user: Any = None) -> list[LiveTable]:
    """The tournament's live tables still playing or waiting for players that `user` (None or
    anonymous: anyone) may watch (two queries). A private table is its players' alone, except a
    duplicate event's, which anyone signed in but the event's own players may watch
    (`gameplay.selectors.visible_to`)."""
    matches = list(
        Match.objects.filter(tournament=tournament, live_table__isnull=False, status=MatchStatus.SCHEDULED)
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "table")
    )
    user_id = user.pk if user is not None and user.is_authenticated else None
    live = Table.objects.filter(pk__in=[m.live_table for m in matches]).exclude(status=TableStatus.FINISHED)
    tables = {t.pk: t for t in live}
    board = []
    for m in matches:
        t = tables.get(m.live_table)
        if t is None or not visible_to(t, None, user_id):
            continue
        board.append(LiveTable(m, t.pk, t.status, t.get_absolute_url(), t.shuffle_commitment))
    return board


def round_started(rnd: Round, day: DaySettings | None) -> datetime:
    """When a round began: when it was paired, or its start time in the day settings if later
    (round 1 at "first round starts", each later one "later rounds start every N minutes" on)."""
    started = rnd.created_at
    if day is not None and day.first_round_at:
        if rnd.number == 1 or day.round_interval_minutes:
            planned = day.first_round_at + (rnd.number - 1) * timedelta(minutes=day.round_interval_minutes)
            started = max(started, planned)
    return started


def stuck_matches(*, tournament: Tournament, now: datetime | None = None) -> list[Match]:
    """Tables of rounds in play with no result yet that should have one by now: past the round's
    deadline, or ``TOURNAMENTS_STUCK_AFTER_MINUTES`` after the round started. Right after pairing
    every table is still playing, and listing them all with forfeit buttons invited a wrong tap."""
    now = now or timezone.now()
    after = timedelta(minutes=settings.TOURNAMENTS_STUCK_AFTER_MINUTES)
    day = DaySettings.objects.filter(tournament_id=tournament.pk).first()
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
    stuck, started = [], {}
    for m in rows:
        if m.round_id not in started:
            started[m.round_id] = round_started(m.round, day)
        deadline = m.round.deadline
        if (deadline is not None and deadline < now) or started[m.round_id] + after < now:
            stuck.append(m)
    return stuck


def withdrawal_requests(*, tournament: Tournament) -> list[WithdrawalRequest]:
    """Players' asks to withdraw still waiting for the organiser, oldest first."""
    return list(
        WithdrawalRequest.objects.filter(tournament=tournament, status=RequestStatus.PENDING).select_related(
            "entry__player_a", "entry__player_b", "individual_entry__player", "requested_by"
        )
    )


def asked_to_withdraw(*, tournament: Tournament) -> set[int]:
    """The pairs (in an individual event, the players) whose ask to withdraw waits for the organiser."""
    field = "individual_entry_id" if tournament.is_individual else "entry_id"
    rows = WithdrawalRequest.objects.filter(tournament=tournament, status=RequestStatus.PENDING)
    return set(rows.values_list(field, flat=True))


UNPLAYED = Q(status=MatchStatus.SCHEDULED, home_eyes__isnull=True)
"""A match nobody has reported a result for: the only kind a withdrawal forfeits."""


@dataclass
class WithdrawalEffects:
    """What withdrawing an entry does: the matches it loses by forfeit (nobody reported them yet),
    and how many of its results stay as they were reported."""

    forfeited: list[Match]
    kept: int


def withdrawal_effects(*, entry: Entry | IndividualEntry) -> WithdrawalEffects:
    """For the confirm page: the same matches ``services.withdrawals`` would forfeit and keep."""
    if isinstance(entry, IndividualEntry):
        matches = Match.objects.filter(seats__entry=entry)
    else:
        matches = Match.objects.filter(Q(home=entry) | Q(away=entry))
    matches = matches.filter(tournament_id=entry.tournament_id, bye=False)
    unplayed = Q(status=MatchStatus.SCHEDULED, home_eyes__isnull=True)
    forfeited = list(
        matches.filter(unplayed).select_related(*MATCH_RELATED).order_by("round__number", "table")
    )
    return WithdrawalEffects(forfeited, matches.exclude(UNPLAYED).count())


def later_pairings(*, match: Match) -> list[Match]:
    """The matches of later rounds that involve a pair (in an individual event, a player) of
    ``match``: drawn while its old result stood, they stay as they are when it is corrected."""
    later = Match.objects.filter(tournament_id=match.tournament_id, round__number__gt=match.round.number)
    players = list(Seat.objects.filter(match=match).values_list("entry_id", flat=True))
    if players:
        later = later.filter(seats__entry_id__in=players)
    else:
        later = later.filter(
            Q(home_id__in=(match.home_id, match.away_id)) | Q(away_id__in=(match.home_id, match.away_id))
        )
    return list(later.select_related(*MATCH_RELATED).distinct().order_by("round__number", "table", "game"))


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
