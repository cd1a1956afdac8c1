"""What every tournament service shares: permission checks, the lock order, the audit row, tasks on commit.

Services take keyword-only arguments, run in one transaction, check the actor's role
(PermissionDenied), write an audit row (clubs' AuditEntry) and queue Celery tasks on commit, by
their registered names, so no service imports the tasks that call services. Mistakes a user can
make raise ValidationError with a message for the page, and nothing is saved.
"""

from __future__ import annotations

import os
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from clubs import text
from clubs.models import AuditEntry
from config import fresh

from .. import permissions
from ..models import DealLine, Match, ResultCorrection, Round, Tournament

NOTIFY_ROUND_PAIRED = "tournaments.tasks.notify_round_paired"
#: A stored notice sent to each of its user's phones (Web Push), from a worker.
PUSH_NOTICE_TASK = "tournaments.tasks.push_notice"
NOTIFY_RESULT_REPORTED = "tournaments.tasks.notify_result_reported"
NOTIFY_DISPUTE = "tournaments.tasks.notify_dispute"
NOTIFY_TOURNAMENT_FINISHED = "tournaments.tasks.notify_tournament_finished"
RUN_PLAN = "tournaments.day_tasks.run_plan"
RECORD_TABLE_RESULT = "tournaments.day_tasks.record_table_result"
DAY_TASKS = frozenset({RUN_PLAN, RECORD_TABLE_RESULT})
#: The rating recompute follows the archive's notices, on their queue (``ARCHIVE_NOTICE_QUEUE``).


def require_user(actor) -> None:
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied


def require_manager(actor, tournament: Tournament) -> None:
    require_user(actor)
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))


def audit(*, actor, action: str, obj, tournament: Tournament, before=None, after=None, reason=None) -> None:
    """The audit row of a change in ``tournament``: its round (for the log's filter), what it is
    about as codes and names (worded in the reader's language when read), and the reason given.

    A correction's reason lives on its ``ResultCorrection``; when the caller passes none, the row
    takes the reason of the correction just written for the same match."""
    if reason is None:
        reason = correction_reason(action, obj)
    AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        club=tournament.club,
        tournament_id=tournament.pk,
        round_number=round_of(obj, after),
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        subject={**subject_of(obj), "event": tournament.name},  # the club's log names the tournament
        reason=text.line(reason)[:300],
        before=before,
        after=after,
    )
    fresh.renew(slug=tournament.slug)  # its public pages are worked out again, now and on commit


def round_of(obj, after) -> int | None:
    """The round a change belongs to: a match's or a round's own, or the round an entry's change names."""
    if isinstance(obj, Match):
        if Match.round.is_cached(obj):
            return obj.round.number
        return Round.objects.filter(pk=obj.round_id).values_list("number", flat=True).first()
    if isinstance(obj, Round):
        return obj.number
    if isinstance(after, dict) and isinstance(after.get("round"), int):
        return after["round"]
    return None


def subject_of(obj) -> dict:
    """What a tournament's audit row is about: a match by round, table and pairs; else a name."""
    if isinstance(obj, Match):
        return {
            "kind": "match",
            "round": round_of(obj, None),
            "table": obj.table,
            "game": obj.game,
            "home": obj.home.name if obj.home_id else "",
            "away": obj.away.name if obj.away_id else "",
        }
    if isinstance(obj, Round):
        return {"kind": "round", "round": obj.number}
    if isinstance(obj, Tournament):
        return {"kind": "tournament", "name": obj.name}
    return {"kind": "entry", "name": str(obj)[:200]}


def correction_reason(action: str, obj) -> str:
    if action != "match.correct" or not isinstance(obj, Match):
        return ""
    latest = ResultCorrection.objects.filter(match=obj).order_by("-id").first()
    return latest.reason if latest is not None else ""


def queue_options() -> dict:
    """Where the day's tasks go: ``TOURNAMENTS_DAY_QUEUE`` (a setting, or the environment of every
    process that may queue them: web, worker, beat) names a dedicated queue; else Celery's default."""
    queue = getattr(settings, "TOURNAMENTS_DAY_QUEUE", None) or os.environ.get("TOURNAMENTS_DAY_QUEUE")
    return {"queue": queue} if queue else {}


def on_commit_task(task: str, *args: Any) -> None:
    """Queue the Celery task named ``task`` once the transaction commits (a rolled-back change sends
    nothing); the day's tasks go to the day's queue."""

    def send() -> None:
        options = queue_options() if task in DAY_TASKS else {}
        current_app.signature(task, args=args).apply_async(**options)

    transaction.on_commit(send, robust=True)


def lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


def lock_entry(entry):
    """Lock the tournament, then the entry (a pair's ``Entry`` or a player's ``IndividualEntry``).

    The order round 1's pairing and the check-in closing plan take them in (they lock the
    tournament, then write entries); the other order deadlocked with them, and an organiser's click
    at that moment failed with a database error. Returns (entry, tournament).
    """
    tournament = lock_tournament(Tournament(pk=entry.tournament_id))
    related = ("player",) if hasattr(entry, "player_id") else ("player_a", "player_b")
    return type(entry).objects.select_for_update().select_related(*related).get(pk=entry.pk), tournament


def lucy_counts(lines) -> tuple[int, int]:
    """The Lucy deals each pair (0 home, 1 away) won on a scored sheet's lines (``score_sheet``)."""
    return (sum(1 for line in lines if line.result.outcome == "lucy" and line.result.winner == 0),
            sum(1 for line in lines if line.result.outcome == "lucy" and line.result.winner == 1))


def write_deal_lines(match: Match, lines) -> None:
    """The match's deals as the score sheet scored them, in place of any it had: one row per
    played deal (points, the pair on duty, who took every trick, outcome, eyes, running score).
    The deal-by-deal form and a live table's result both write them here."""
    match.deals.all().delete()
    DealLine.objects.bulk_create(
        DealLine(
            match=match,
            number=line.number,
            home_points=line.deal.points[0],
            away_points=line.deal.points[1],
            jack_holder=line.deal.jack_holder,
            all_tricks=line.deal.all_tricks,
            outcome=line.result.outcome,
            home_eyes=line.result.eyes[0],
            away_eyes=line.result.eyes[1],
            home_score=line.score[0],
            away_score=line.score[1],
        )
        for line in lines
    )
