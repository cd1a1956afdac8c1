"""The archive's one writer: every final match is archived here, updated when its result is
corrected, removed when it is; each change sends one "match changed" notice once it commits.

Its callers: a casual table when its match ends (`gameplay.services.archiving`), the tournaments
when a result is confirmed, corrected or removed, and an organiser's upload (`uploads`). They say
what happened (`PlayedMatch`); this module checks it, keeps the four seats and each deal's eyes, and tells the
listeners (ratings, analysis) by the match's id: the signal `match_changed`, sent by the task
`gameplay.match_changed` queued on commit, so a listener runs once per change and in a worker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext

from archive.models import ArchivedDeal, ArchivedMatch, ArchivedSeat, MatchSource, SeatKind
from archive.selectors import against_bots, sat_in
from clubs.models import Player
from clubs.translit import search_key
from gameplay.engine import EngineError
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.cards import PAIRS, SEATS
from gameplay.engine.games import game_of, rules_from_json
from gameplay.engine.record_games import TWO_SEATS, read_game_record, score_game_state

#: Sent (by the task `gameplay.match_changed`) after an archived match was created, updated or
#: removed: ``match_id``, ``change`` ("created", "updated", "removed") and ``players``, the ids of
#: the clubs.Player rows who sat in it before or after the change; and ``about``, what the change
#: concerns as a listener may tell people (``about_match``): the event, round, source and time
#: played, and for a merge ``cause`` "merged" with the player's name.
match_changed = Signal()
MATCH_CHANGED_TASK = "gameplay.match_changed"
REASONS = frozenset({"eyes", "resign", "timeout", "forfeit", "boards"})
#: A duplicate event's online table played to its last board: each board is scored apart (by
#: matchpoints, in its event), so the table has no winner; archived with ``winner`` "" and never rated.
BOARDS = "boards"


class ArchiveError(ValueError):
    """What was given cannot be archived (a caller's mistake or a broken record)."""


@dataclass(frozen=True)
class SeatIn:
    """Who sat at `seat` (0 N, 1 E, 2 S, 3 W)."""

    seat: int
    name: str
    kind: str = SeatKind.PLAYER
    player_id: int | None = None
    user_id: int | None = None
    bot_level: str = ""


@dataclass(frozen=True)
class SheetDeal:
    """A line of a score sheet, by pairs (0 NS, 1 EW)."""

    outcome: str
    pair_on_duty: int | None
    ns_points: int | None
    ew_points: int | None
    ns_eyes: int
    ew_eyes: int
    ns_score: int
    ew_score: int


@dataclass(frozen=True)
class PlayedMatch:
    """A final match as its source knows it. The result (`ns_eyes`, `ew_eyes`, `winner`,
    `reason`) is the source's own, kept apart from the record so that the archive check can
    compare them; `sheet` is used only when there is no record."""

    source: str
    seats: Sequence[SeatIn]
    rules: dict[str, Any]
    played_at: datetime
    ns_eyes: int
    ew_eyes: int
    winner: str
    reason: str = "eyes"
    reason_seat: int | None = None
    record: dict[str, Any] | None = None
    sheet: Sequence[SheetDeal] = field(default_factory=tuple)
    table_id: int | None = None
    tournament_match: int | None = None
    tournament: int | None = None
    event_name: str = ""
    event_url: str = ""
    round_number: int | None = None
    club_id: int | None = None
    public: bool = True
    rated: bool = False
    uploaded_by_id: int | None = None


def rules_key(rules: dict[str, Any]) -> str:
    """A short key of the full rules (defaults filled in): equal rules, equal keys (Bilka's keep
    their keys; another game's rules name their game, so they never share a key with Bilka's)."""
    text = json.dumps(rules_from_json(rules).to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record_hash(record: dict[str, Any]) -> str:
    """The SHA-256 of a record's game: its rules, deals, shuffle, end and penalties, not the
    players' names (a name typed differently is still the same match). A duplicate table's record
    keeps its players: every table of the event is dealt the same boards, and two tables may play
    them card for card alike (or both end before a card) and still be two matches."""
    game = record if "duplicate" in record else {k: v for k, v in record.items() if k != "players"}
    text = json.dumps(game, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def archived_with_record(record: dict[str, Any]) -> ArchivedMatch | None:
    """The archived match that already holds this record's game, if any."""
    return ArchivedMatch.objects.filter(record_hash=record_hash(record)).first()


def _check(played: PlayedMatch) -> None:
    try:
        two = game_of(played.rules) == BILKA2
    except EngineError as error:
        raise ArchiveError(str(error)) from error
    if two:  # Bilka for two: N (seat 0) against S (seat 2), the winner a player
        if sorted(s.seat for s in played.seats) != [0, 2]:
            raise ArchiveError("a match of Bilka for two has two seats, N and S")
        if played.winner not in tuple(TWO_SEATS):
            raise ArchiveError(f"the winner must be N or S, not {played.winner!r}")
    elif sorted(s.seat for s in played.seats) != [0, 1, 2, 3]:
        raise ArchiveError("a match has four seats, N, E, S and W")
    elif played.reason == BOARDS:
        if played.winner or played.rated:
            raise ArchiveError("a board set played out has no winner and is not rated")
    elif played.winner not in PAIRS:
        raise ArchiveError(f"the winner must be NS or EW, not {played.winner!r}")
    if played.reason not in REASONS:
        raise ArchiveError(f"unknown end reason {played.reason!r}")
    if played.source not in MatchSource.values:
        raise ArchiveError(f"unknown source {played.source!r}")
    if played.source == MatchSource.TOURNAMENT and played.tournament_match is None:
        raise ArchiveError("a tournament match needs its match")


def _deals_of(record: dict[str, Any]) -> list[ArchivedDeal]:
    """Each deal's figures, by replaying the record through its game's engine (a broken one is
    refused). Kozyol has no pair on duty and no jack of clubs' holder: those stay empty. In Bilka
    for two the `ns_` figures are N's and the `ew_` figures S's."""
    first, second = ("N", "S") if record.get("game") == BILKA2 else ("NS", "EW")
    try:
        report = score_game_state(read_game_record(record))
    except EngineError as error:
        raise ArchiveError(str(error)) from error
    rows = []
    for number, (deal, written) in enumerate(zip(report["deals"], record["deals"], strict=True), start=1):
        redeal = written.get("redeal")
        # Bilka for two's sides are its players, N and S: kept as the NS and EW columns
        first, second = PAIRS if PAIRS[0] in deal["eyes"] else tuple(TWO_SEATS)
        rows.append(ArchivedDeal(
            number=number,
            outcome=deal["outcome"],
            pair_on_duty=PAIRS.index(deal["on_duty"]) if "on_duty" in deal else None,
            jack_holder=SEATS.index(deal["jack_holder"]) if "jack_holder" in deal else None,
            redeal_seat=SEATS.index(redeal) if redeal else None,
            ns_points=deal["points"][first] if "points" in deal else None,
            ew_points=deal["points"][second] if "points" in deal else None,
            ns_eyes=deal["eyes"][first], ew_eyes=deal["eyes"][second],
            ns_score=deal["score"][first], ew_score=deal["score"][second],
        ))
    return rows


def _sheet_rows(sheet: Sequence[SheetDeal]) -> list[ArchivedDeal]:
    return [
        ArchivedDeal(number=n, outcome=d.outcome, pair_on_duty=d.pair_on_duty, ns_points=d.ns_points,
                     ew_points=d.ew_points, ns_eyes=d.ns_eyes, ew_eyes=d.ew_eyes, ns_score=d.ns_score,
                     ew_score=d.ew_score)
        for n, d in enumerate(sheet, start=1)
    ]


def _existing(played: PlayedMatch) -> ArchivedMatch | None:
    rows = ArchivedMatch.objects.select_for_update()
    if played.tournament_match is not None:
        found = rows.filter(tournament_match=played.tournament_match).first()
        if found is not None:
            return found
    if played.table_id is not None:
        return rows.filter(table_id=played.table_id).first()
    return None


def _players_of(match: ArchivedMatch) -> set[int]:
    return set(match.seats.exclude(player=None).values_list("player_id", flat=True))


def about_match(match: ArchivedMatch, *, earlier: datetime | None = None, **extra: Any) -> dict[str, Any]:
    """What a change of ``match`` concerns, in plain values for a notice: its event, round, source,
    address and time played (``earlier``, when its time moved, if that was before)."""
    at = match.played_at if earlier is None else min(earlier, match.played_at)
    return {"event": match.event_name, "url": match.event_url, "round": match.round_number,
            "source": match.source, "played_at": at.isoformat(), **extra}


def notify_changed(match_id: int, change: str, players: set[int],
                   about: dict[str, Any] | None = None) -> None:
    """Queue the one "match changed" notice for when the transaction commits (nothing if it rolls back)."""

    def send() -> None:
        queue = getattr(settings, "ARCHIVE_NOTICE_QUEUE", None)
        notice = current_app.signature(MATCH_CHANGED_TASK, args=(match_id, change, sorted(players)),
                                       kwargs={"about": about or {}})
        notice.apply_async(**({"queue": queue} if queue else {}))

    transaction.on_commit(send, robust=True)


@transaction.atomic
def archive_match(*, played: PlayedMatch) -> ArchivedMatch:
    """Archive a final match, or update its archived match (the same tournament match or table)."""
    _check(played)
    deals = _deals_of(played.record) if played.record is not None else _sheet_rows(played.sheet)
    match = _existing(played)
    digest = record_hash(played.record) if played.record is not None else ""
    if digest:
        twin = ArchivedMatch.objects.filter(record_hash=digest).exclude(
            pk=match.pk if match is not None else None).first()
        if twin is not None:
            raise ArchiveError(f"already in the archive (#{twin.pk})")
    change = "updated" if match is not None else "created"
    before = _players_of(match) if match is not None else set()
    earlier = match.played_at if match is not None else None
    if match is None:
        match = ArchivedMatch()
    match.source = played.source
    match.table_id = played.table_id
    match.tournament_match = played.tournament_match
    match.tournament = played.tournament
    match.event_name = played.event_name[:200]
    match.event_url = played.event_url[:300]
    match.round_number = played.round_number
    match.club_id = played.club_id
    match.played_at = played.played_at
    match.rules = rules_from_json(played.rules).to_json()
    match.rules_key = rules_key(played.rules)
    match.ns_eyes, match.ew_eyes = played.ns_eyes, played.ew_eyes
    match.winner, match.reason, match.reason_seat = played.winner, played.reason, played.reason_seat
    match.record = played.record
    match.has_record = played.record is not None
    match.record_hash = digest
    match.deal_count = len(deals)
    match.public = played.public
    # each game is rated in a rating of its own (docs/ratings.md): a match of people alone counts
    match.rated = played.rated and all(
        s.player_id is not None and s.kind == SeatKind.PLAYER for s in played.seats)
    match.uploaded_by_id = played.uploaded_by_id
    match.save()
    match.seats.all().delete()
    match.deals.all().delete()
    ArchivedSeat.objects.bulk_create(
        ArchivedSeat(match=match, seat=s.seat, kind=s.kind, player_id=s.player_id, user_id=s.user_id,
                     name=s.name[:120], bot_level=s.bot_level if s.kind == SeatKind.BOT else "",
                     search_name=search_key(s.name)[:300])
        for s in sorted(played.seats, key=lambda s: s.seat)
    )
    for row in deals:
        row.match = match
    ArchivedDeal.objects.bulk_create(deals)
    notify_changed(match.pk, change, before | _players_of(match), about_match(match, earlier=earlier))
    return match


@transaction.atomic
def remove_match(*, tournament_match: int | None = None, table_id: int | None = None) -> bool:
    """Remove the archived match of a tournament match (or table) whose result is gone."""
    rows = ArchivedMatch.objects.select_for_update()
    if tournament_match is not None:
        match = rows.filter(tournament_match=tournament_match).first()
    elif table_id is not None:
        match = rows.filter(table_id=table_id).first()
    else:
        raise ArchiveError("say which match to remove")
    if match is None:
        return False
    players, pk, about = _players_of(match), match.pk, about_match(match)
    match.delete()
    notify_changed(pk, "removed", players, about)
    return True


def set_public(*, tournament_matches: Sequence[int], public: bool) -> int:
    """Open (or close) the archived matches of these tournament matches to everyone: a
    tournament's matches become public once their round is over. Not a change of any result,
    so no notice."""
    return ArchivedMatch.objects.filter(tournament_match__in=list(tournament_matches)).update(public=public)


@transaction.atomic
def share_casual_match(*, user: Any, match: ArchivedMatch, public: bool) -> ArchivedMatch:
    """A player of a casual game against bots shows it to everyone, or keeps it to its players
    again. Such games are private when archived (``gameplay.services.archiving``); a tournament's
    matches follow their round, and a table's game between people follows the table's choice."""
    match = ArchivedMatch.objects.select_for_update().prefetch_related("seats__player").get(pk=match.pk)
    if not sat_in(match, user):
        raise PermissionDenied(gettext("Only the players of this game can share it."))
    if not against_bots(match):
        raise ArchiveError(gettext("Only a casual game against bots is shared by its players."))
    if match.public != public:
        match.public = public
        match.save(update_fields=["public"])
    return match


def players_merged(sender: object, source: Player, target: Player, **kwargs: Any) -> None:
    """Receiver of `clubs.services.merging.players_merged`: the merge has already pointed the
    archived seats of `source` at `target`; each of his archived matches changed hands."""
    ids = ArchivedMatch.objects.filter(seats__player=target).values_list("pk", flat=True).distinct()
    about = {"cause": "merged", "player": target.display_name}
    for pk in ids:
        notify_changed(pk, "updated", {source.pk, target.pk}, about)
