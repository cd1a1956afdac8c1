"""Celery tasks of the archive: its "match changed" notice, the double-dummy analysis of a match, and
the stored fair-play review.

Their names are what the queued messages carry, so they stay as they were when the archive was part
of the game's app: a worker of this release still runs a task queued by the one before.
"""

from __future__ import annotations

from celery import shared_task

from archive.models import ArchivedMatch
from archive.services import analysis, fairplay, match_changed


@shared_task(name="gameplay.match_changed", ignore_result=True, acks_late=True)
def match_changed_task(match_id: int, change: str, players: list[int], about: dict | None = None) -> None:
    """The archive's "match changed" notice, queued on commit by `services.matches`: sends the
    signal `services.match_changed` here, in a worker, where ratings and analysis listen.
    ``about`` (what the change concerns) is missing from a notice queued by the release before."""
    match_changed.send(sender=ArchivedMatch, match_id=match_id, change=change, players=players,
                       about=about or {})


@shared_task(name="gameplay.analyse_match", ignore_result=True, acks_late=True)
def analyse_match_task(match_id: int) -> str:
    """The double-dummy analysis of one archived match (`services.analysis`), on the analysis
    queue (`settings.ANALYSIS_QUEUE`): a worker killed mid-match gets it again (acks late)."""
    return analysis.analyse_match(match_id=match_id)


@shared_task(name="archive.fairplay_review", ignore_result=True, acks_late=True)
def fairplay_review_task(review_id: int, generation: int) -> str:
    """Run a stored fair-play review (`services.fairplay`), on the analysis queue: a worker killed
    mid-run gets it again (acks late) and starts it over; a message delivered twice does nothing
    the second time."""
    return fairplay.run_review(review_id=review_id, generation=generation)
