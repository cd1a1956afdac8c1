"""Events recorded from the tournaments' own rows, inside the transaction of the change they tell.

The tournaments never import this app: it listens to the audit rows their services write (whose
``action`` says exactly what happened) and to a tournament's status saved as finished. The event
rows are written in the same transaction as the change, while its service holds the tournament's
row lock, so one tournament's events commit in the order of their ids (the stream resumes by
id), and a change rolled back leaves no event. Each event gets one ``Delivery`` per active hook of
the tournament's club that asked for its type: a club hears only its own tournaments.

Only what the tournament's public pages show goes into an event: ids, tables, eyes, statuses,
never a name, a PIN, a dispute's note or a correction's reason.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction

from clubs.models import AuditEntry
from tournaments.models import Match, MatchStatus, Tournament

from ..models import Delivery, EventType, TournamentEvent, Webhook
from .queue import on_commit_delivery

log = logging.getLogger(__name__)

#: Audit actions that change a round's pairings, and the ``change`` they are told as.
ROUND_CHANGES = {
    "round.pair": "paired",
    "round.unpair": "unpaired",
    "round.swap": "swapped",
    "round.table_number": "tables",
}
RESULT_ACTIONS = {"match.report", "match.confirm", "match.auto_confirm", "match.correct", "match.live_result",
                  "match.withdrawal_forfeit"}
#: How long the cache keeps a tournament's newest event id, the stream's hint (``views.stream``).
NEWEST_NOTE_SECONDS = 3600
MATCH_FIELDS = ("id", "round__number", "table", "game", "bye", "status", "home_id", "away_id",
                "home_eyes", "away_eyes", "forfeit", "winner_id")


def record_audited(entry: AuditEntry) -> list[TournamentEvent]:
    """The events an audit row of a tournament's change calls for (none for most actions).

    Never raises: a fault here must not undo the organiser's change, so it is logged and the
    change goes on without its events (in a savepoint of its own)."""
    if entry.tournament_id is None or entry.action not in ROUND_CHANGES.keys() | RESULT_ACTIONS:
        return []
    try:
        with transaction.atomic():
            if entry.action in ROUND_CHANGES:
                return [_round_event(entry)]
            return _result_events(entry)
    except Exception:
        log.exception("webhooks: no event recorded for audit row %s (%s)", entry.pk, entry.action)
        return []


def record_finished(tournament: Tournament) -> list[TournamentEvent]:
    """``tournament.finished`` once its status is saved as finished (not again if nothing came after)."""
    try:
        with transaction.atomic():
            last = TournamentEvent.objects.filter(tournament=tournament).order_by("-id").first()
            if last is not None and last.type == EventType.TOURNAMENT_FINISHED:
                return []
            rounds = tournament.rounds.count()
            data = {"rounds": rounds}
            return [_record(tournament.pk, tournament.club_id, EventType.TOURNAMENT_FINISHED, data)]
    except Exception:
        log.exception("webhooks: no event recorded for the end of tournament %s", tournament.pk)
        return []


def newest_key(tournament_id: int) -> str:
    """The cache key of the tournament's newest committed event id, which the stream watches."""
    return f"webhooks:newest:{tournament_id}"


def _round_event(entry: AuditEntry) -> TournamentEvent:
    matches = (
        Match.objects.filter(round_id=int(entry.object_id)).order_by("table", "game", "id")
        .values("id", "table", "game", "bye", "home_id", "away_id")
    )
    data = {
        "round": entry.round_number,
        "change": ROUND_CHANGES[entry.action],
        "matches": [
            {"match": m["id"], "table": m["table"], "game": m["game"], "home": m["home_id"],
             "away": m["away_id"], "bye": m["bye"]}
            for m in matches
        ],
    }
    return _record(entry.tournament_id, entry.club_id, EventType.ROUND_PAIRED, data)


def _side(match: dict, winner_id: int | None) -> str | None:
    if winner_id is None:
        return None
    return "home" if winner_id == match["home_id"] else "away"


def _replaced(entry: AuditEntry) -> bool:
    """Whether the audited change replaced a result (its ``before`` has eyes)."""
    return isinstance(entry.before, dict) and entry.before.get("home_eyes") is not None


def _result_events(entry: AuditEntry) -> list[TournamentEvent]:
    match = Match.objects.filter(pk=int(entry.object_id)).values(*MATCH_FIELDS).first()
    if match is None:
        return []
    confirmed = match["status"] == MatchStatus.CONFIRMED
    data = {
        "match": match["id"],
        "round": match["round__number"],
        "table": match["table"],
        "game": match["game"],
        "home": match["home_id"],
        "away": match["away_id"],
        "status": match["status"],
        "home_eyes": match["home_eyes"],
        "away_eyes": match["away_eyes"],
        "forfeit": match["forfeit"],
        "winner": _side(match, match["winner_id"]),
    }
    types: list[str] = []
    if entry.action in ("match.report", "match.live_result"):
        types = [EventType.RESULT_ENTERED, *([EventType.RESULT_CONFIRMED] if confirmed else [])]
    elif entry.action in ("match.confirm", "match.auto_confirm"):
        types = [EventType.RESULT_CONFIRMED]
    elif entry.action == "match.withdrawal_forfeit" and not _replaced(entry):
        types = [EventType.RESULT_ENTERED, EventType.RESULT_CONFIRMED]  # an unplayed match, lost 0:12
    elif entry.action in ("match.correct", "match.withdrawal_forfeit"):  # the forfeit replaces a result
        before = entry.before if isinstance(entry.before, dict) else {}
        data = {**data, "before": {
            "home_eyes": before.get("home_eyes"), "away_eyes": before.get("away_eyes"),
            "forfeit": before.get("forfeit"), "winner": _side(match, before.get("winner_id")),
        }}
        types = [EventType.RESULT_CORRECTED]
    tid, club = entry.tournament_id, entry.club_id
    events = [_record(tid, club, kind, data) for kind in types]
    if confirmed and events:
        events.append(_record(tid, club, EventType.STANDINGS_CHANGED,
                              {"round": match["round__number"], "match": match["id"]}))
    return events


def _record(tournament_id: int, club_id: int | None, kind: str, data: dict) -> TournamentEvent:
    """The event row, and one delivery for each of the club's active hooks that asked for it."""
    event = TournamentEvent.objects.create(tournament_id=tournament_id, type=kind, data=data)
    transaction.on_commit(
        lambda: cache.set(newest_key(tournament_id), event.pk, NEWEST_NOTE_SECONDS), robust=True
    )
    if club_id is None:
        return event
    hooks = [h for h in Webhook.objects.filter(club_id=club_id, active=True) if h.wants(kind)]
    if hooks:
        deliveries = Delivery.objects.bulk_create(
            Delivery(hook=hook, event=event, next_attempt_at=event.created) for hook in hooks
        )
        for delivery in deliveries:
            on_commit_delivery(delivery.pk)
    return event
