"""Celery tasks of the ratings: the full recompute, asked for by the archive's changes.

The task keeps the name it had when ratings lived in the tournaments' app: queued messages and the
workers of the release before carry it.
"""

from __future__ import annotations

from celery import shared_task

from ratings.services import fitting, recompute


@shared_task(name=recompute.RECOMPUTE_TASK, acks_late=True)
def recompute_ratings(run_id: int) -> str:
    """Rebuild every rating from the archive (``services.recompute``): one transaction, so a kill
    leaves the old ratings and the task, delivered again, starts over."""
    return recompute.run_recompute(run_id=run_id)


@shared_task(name=fitting.REFIT_TASK, acks_late=True)
def refit_model(reason: str = "nightly") -> int:
    """Fit the model's parameters on the archive and recompute every rating with them
    (``services.fitting``); a kill before the commit leaves the old fit, and the task runs again."""
    return fitting.refit(reason=reason).pk
