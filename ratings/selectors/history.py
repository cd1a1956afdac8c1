"""A player's rating history as one viewer may read it.

The rating itself is public; the matches behind it are not all. Every page, chart, count and API
answer that shows what a match did to a rating reads it here, through the archive's one visibility
rule (``archive.selectors.visible_matches``): a private invitation match, or one of a tournament
round still running, lends a viewer who may not see it no line, no link, no date, no opponent, no
change and no place in a count. Each function runs a fixed number of queries (tested).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from archive.models import ArchivedMatch, ArchivedSeat, SeatKind
from archive.selectors import visible_matches
from ratings.models import BILKA_FOUR, PlayerRating, RatingChange


def seen_changes(player_id: int, viewer: Any, game: str = BILKA_FOUR) -> QuerySet[RatingChange]:
    """The player's rating changes in ``game`` from the matches ``viewer`` may see."""
    return RatingChange.objects.filter(
        game=game, player_id=player_id, match__in=visible_matches(viewer)
    )


def history(player_id: int, *, viewer: Any, limit: int | None = None,
            game: str = BILKA_FOUR) -> list[RatingChange]:
    """The player's changes in ``game`` that ``viewer`` may see, oldest first (the last ``limit``
    when given), each with its match."""
    qs = seen_changes(player_id, viewer, game).select_related("match")
    if limit is None:
        return list(qs.order_by("seq"))
    return list(reversed(qs.order_by("-seq")[:limit]))


def seen_count(player_id: int, *, viewer: Any, game: str = BILKA_FOUR) -> int:
    """How many rated matches of the player in ``game`` ``viewer`` may see."""
    return seen_changes(player_id, viewer, game).count()


def with_seen_matches(qs: QuerySet[PlayerRating], viewer: Any,
                      game: str = BILKA_FOUR) -> QuerySet[PlayerRating]:
    """Board or API rows of ``game`` with ``seen_matches`` (its rated matches ``viewer`` may see)
    and ``seen_last_played`` (the last of them), in the rows' own query."""
    changes = RatingChange.objects.filter(
        game=game, player_id=OuterRef("player_id"), match__in=visible_matches(viewer)
    )
    count = changes.order_by().values("player_id").annotate(n=Count("id")).values("n")
    last = changes.order_by("-played_at").values("played_at")[:1]
    return qs.annotate(
        seen_matches=Coalesce(Subquery(count, output_field=IntegerField()), Value(0)),
        seen_last_played=Subquery(last),
    )


@dataclass(frozen=True)
class Person:
    """Someone at the table as a list names him: his player page when he has one."""

    name: str
    player_id: int | None = None


@dataclass(frozen=True)
class ChangeLine:
    """One line of a player's changes: when, where, with and against whom, the score from his
    side, and what it did to his rating."""

    match_id: int
    played_at: datetime.datetime
    event: str  # the event's name, "" for a casual match or an upload
    event_url: str
    round_number: int | None
    source: str
    partner: Person | None
    opponents: tuple[Person, ...]
    score: tuple[int, int]  # his pair's eyes, the other pair's
    won: bool
    reason: str
    before: float
    after: float
    deviation: float  # after the match
    weight: float

    @property
    def change(self) -> float:
        return self.after - self.before


def _person(seat: ArchivedSeat) -> Person:
    if seat.kind == SeatKind.BOT or seat.player is None:
        return Person(seat.name)
    return Person(seat.player.display_name, seat.player_id)


def change_lines(player_id: int, *, viewer: Any, limit: int | None = None,
                 game: str = BILKA_FOUR) -> list[ChangeLine]:
    """The player's changes in ``game`` ``viewer`` may see, newest first, each with its match's
    people and score (three queries, however many lines)."""
    rows = list(reversed(history(player_id, viewer=viewer, limit=limit, game=game)))
    seats: dict[int, list[ArchivedSeat]] = {}
    for seat in (
        ArchivedSeat.objects.filter(match_id__in=[r.match_id for r in rows])
        .select_related("player")
        .order_by("seat")
    ):
        seats.setdefault(seat.match_id, []).append(seat)
    return [_line(r, r.match, seats.get(r.match_id, []), player_id) for r in rows]


def _line(row: RatingChange, match: ArchivedMatch, seats: list[ArchivedSeat], player_id: int) -> ChangeLine:
    mine = next((s.seat for s in seats if s.player_id == player_id), 0)
    if len(seats) == 2:  # Bilka for two: N (seat 0) against S (seat 2), each for himself
        partner = None
        opponents = tuple(_person(s) for s in seats if s.seat != mine)
        first = mine == 0
        won = match.winner == ("N" if first else "S")
    else:
        partner = next((_person(s) for s in seats if s.seat % 2 == mine % 2 and s.seat != mine), None)
        opponents = tuple(_person(s) for s in seats if s.seat % 2 != mine % 2)
        first = mine % 2 == 0
        won = match.winner == ("NS" if first else "EW")
    eyes = (match.ns_eyes, match.ew_eyes) if first else (match.ew_eyes, match.ns_eyes)
    return ChangeLine(
        match.pk,
        match.played_at,
        match.event_name,
        match.event_url,
        match.round_number,
        match.source,
        partner,
        opponents,
        eyes,
        won,
        match.reason,
        row.before,
        row.after,
        row.deviation_after,
        row.weight,
    )
