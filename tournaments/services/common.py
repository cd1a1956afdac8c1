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

from clubs.models import AuditEntry

from .. import permissions
from ..models import Tournament

NOTIFY_ROUND_PAIRED = "tournaments.tasks.notify_round_paired"
NOTIFY_RESULT_REPORTED = "tournaments.tasks.notify_result_reported"
NOTIFY_DISPUTE = "tournaments.tasks.notify_dispute"
NOTIFY_TOURNAMENT_FINISHED = "tournaments.tasks.notify_tournament_finished"
RUN_PLAN = "tournaments.day_tasks.run_plan"
RECORD_TABLE_RESULT = "tournaments.day_tasks.record_table_result"
DAY_TASKS = frozenset({RUN_PLAN, RECORD_TABLE_RESULT})


def require_user(actor) -> None:
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied


def require_manager(actor, tournament: Tournament) -> None:
    require_user(actor)
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))


def audit(*, actor, action: str, obj, tournament: Tournament, before=None, after=None) -> None:
    AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        club=tournament.club,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
    )


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
