"""The beat task's body: claim each due plan, do it, mark it done, in one transaction.

Each plan is claimed with ``SELECT … FOR UPDATE SKIP LOCKED``, done, and marked done in one
transaction, so two beats or a redelivered task never do it twice, and a worker killed half-way
leaves the plan due again.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..models import ActionKind, Round, ScheduledAction
from . import day, online

logger = logging.getLogger(__name__)

RUN_LIMIT = 200


def _work(action: ScheduledAction) -> str:
    rnd = None
    if action.round_number:
        rnd = Round.objects.filter(tournament_id=action.tournament_id, number=action.round_number).first()
    kind = action.kind
    if kind == ActionKind.START_ROUND:
        return day.start_round(tournament_id=action.tournament_id, number=action.round_number or 1)
    if kind == ActionKind.PAIR_NEXT:
        return day.pair_next(tournament_id=action.tournament_id, after=action.round_number or 0)
    if kind == ActionKind.CLOSE_CHECK_IN:
        return day.close_check_in(tournament_id=action.tournament_id)
    if rnd is None:
        return "not paired yet" if kind == ActionKind.REMIND else "no round"
    if kind == ActionKind.REMIND:
        return day.remind(round_id=rnd.pk, deadline=action.key.endswith(":deadline"))
    if kind == ActionKind.NO_SHOW:
        return online.no_shows(round_id=rnd.pk)
    if kind in (ActionKind.MATCHDAY_DEADLINE, ActionKind.ROUND_DEADLINE):
        return day.unplayed_to_organiser(round_id=rnd.pk, kind=kind)
    return "unknown kind"


def _claim_and_run(queryset) -> str | None:
    """Claim one due plan from ``queryset`` (skipping ones another process holds), do it, mark it done.

    One transaction: if the process dies half-way, PostgreSQL rolls the work and the claim back
    together and the plan is due again for the next tick.
    """
    with transaction.atomic():
        action = queryset.select_for_update(skip_locked=True).order_by("due_at", "id").first()
        if action is None:
            return None
        try:
            with transaction.atomic():
                outcome = _work(action)
        except Exception as error:  # a plan that fails must not block the others; it is logged and kept
            logger.exception("tournament plan %s failed", action.key)
            outcome = f"failed: {error}"[:200]
        action.done_at = timezone.now()
        action.outcome = outcome[:200]
        action.save(update_fields=["done_at", "outcome"])
        return action.key


def run_plan(key: str) -> bool:
    """Do the one plan ``key`` if it is due and not done (a task queued when the plan was written)."""
    due = ScheduledAction.objects.filter(key=key, done_at__isnull=True, due_at__lte=timezone.now())
    return _claim_and_run(due) is not None


def run_due(*, now: datetime | None = None, limit: int = RUN_LIMIT) -> list[str]:
    """The beat task's body: do every due plan once; also record finished live tables a hook missed."""
    for table_id in online.finished_tables_unrecorded():
        online.record_table_result(table_id=table_id)
    done: list[str] = []
    while len(done) < limit:
        due = ScheduledAction.objects.filter(done_at__isnull=True, due_at__lte=now or timezone.now())
        key = _claim_and_run(due)
        if key is None:
            break
        done.append(key)
    return done
