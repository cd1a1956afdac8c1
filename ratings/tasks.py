"""Celery tasks of the ratings: the full recompute, asked for by the archive's changes.

The task keeps the name it had when ratings lived in the tournaments' app: queued messages and the
workers of the release before carry it.
"""

from __future__ import annotations

from celery import shared_task

from ratings.services import recompute


@shared_task(name=recompute.RECOMPUTE_TASK, acks_late=True)
def recompute_ratings(run_id: int) -> str:
    """Rebuild every rating from the archive (``services.recompute``): one transaction, so a kill
    leaves the old ratings and the task, delivered again, starts over."""
    return recompute.run_recompute(run_id=run_id)


#: The Celery name of the nightly refit of the model's parameters (config.schedule plans it).
REFIT_TASK = "ratings.refit_model"


@shared_task(name=REFIT_TASK, acks_late=True)
def refit_model(reason: str = "nightly") -> int:
    """Fit the model's parameters on the archive and recompute every rating with them
    (``services.fitting``); a kill before the commit leaves the old fit, and the task runs again."""
    from ratings.services import fitting

    return fitting.refit(reason=reason).pk
