"""The stored fair-play review: its one writer. A page asks for a review (`request_review`); the task
`archive.fairplay_review` runs it (`run_review`) on the analysis queue, where the solver's work
belongs, and the pages read the stored rows.

How it stays whole and single:
- One review row per scope (`scope_key` is unique). A request while the review is queued or running
  finds it and queues nothing; only a run that has been silent longer than `STALE_AFTER` (its
  worker gone, its message lost) may be asked again.
- Each request raises the row's `generation` and queues the task with it; a task whose generation
  is no longer the row's, or whose generation is already done, does nothing. A second delivery of
  the same message therefore leaves one review with the same rows.
- The review is worked out outside any transaction (it takes minutes) and its rows are replaced
  in one transaction at the end, only if the row still waits for that generation: a worker killed
  mid-run leaves the row "running" with the last finished rows untouched, and the redelivered
  message (the task acks late) or a later request runs it again from the start.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.fairplay_selectors import review_players
from archive.models import FairPlayReview, FairPlayRow, ReviewScope, ReviewStatus
from gameplay.engine import fairplay

REVIEW_TASK = "archive.fairplay_review"
#: A queued or running review silent this long may be asked for again (the longest real run, a
#: big event's hundreds of matches at K = 20, takes well under this on one core).
STALE_AFTER = timedelta(hours=3)
#: The heaviest decisions kept per player.
HEAVIEST = 8
ACTIVE = (ReviewStatus.QUEUED, ReviewStatus.RUNNING)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of p-values for the number of players reviewed together, in
    their own order: the i-th smallest p (i from 0) is multiplied by (m - i), kept from falling
    below the one before it, and capped at 1. Like Bonferroni it bounds the chance of any honest
    player among the m reaching a level by chance; unlike it, the later players face a gentler bar."""
    m = len(p_values)
    adjusted = [1.0] * m
    running = 0.0
    for step, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - step) * p_values[i]))
        adjusted[i] = running
    return adjusted


def scope_key(*, tournament: int | None = None, club: int | None = None, player: int | None = None) -> str:
    """The key of exactly one scope; anything else is an error."""
    given = [(name, value) for name, value in (("tournament", tournament), ("club", club), ("player", player))
             if value is not None]
    if len(given) != 1:
        raise ValueError("a review is of one tournament, one club or one player")
    name, value = given[0]
    return f"{name}:{int(value)}"


def is_stale(review: FairPlayReview, now: Any = None) -> bool:
    """Whether a queued or running review has been silent too long to be waited for."""
    if review.status not in ACTIVE:
        return False
    since = review.started_at if review.status == ReviewStatus.RUNNING else review.asked_at
    return since is None or (now or timezone.now()) - since > STALE_AFTER


def request_review(*, user: Any, allowed: bool, tournament: int | None = None, club: int | None = None,
                   player: int | None = None, samples: int | None = None) -> tuple[FairPlayReview, bool]:
    """Queue the review of one scope as `user` (who must be `allowed`: the caller's permission
    check, made again here so no path forgets it); the review and whether a run was queued (False
    when one is already queued or running)."""
    if not allowed or user is None or not user.is_authenticated:
        raise PermissionDenied(_("Only the club's organisers and the site's staff review fair play."))
    key = scope_key(tournament=tournament, club=club, player=player)
    scope = ReviewScope(key.split(":")[0])
    with transaction.atomic():
        review, _created = FairPlayReview.objects.get_or_create(
            scope_key=key,
            defaults={"scope": scope, "tournament": tournament, "club_id": club, "player_id": player})
        review = FairPlayReview.objects.select_for_update().get(pk=review.pk)
        if review.status in ACTIVE and review.generation and not is_stale(review):
            return review, False
        review.status = ReviewStatus.QUEUED
        review.generation += 1
        review.attempts = 0
        review.asked_by = user
        review.asked_at = timezone.now()
        review.started_at = None
        review.error = ""
        review.samples = samples or getattr(settings, "FAIRPLAY_SAMPLES", fairplay.SAMPLES)
        review.margin = fairplay.MARGIN
        review.save()
        queue_review(review.pk, review.generation)
    return review, True


def queue_review(review_id: int, generation: int) -> None:
    """Queue the run when the transaction commits, on the analysis queue (the solver's)."""

    def send() -> None:
        current_app.signature(REVIEW_TASK, args=(review_id, generation)).apply_async(
            queue=settings.ANALYSIS_QUEUE)

    transaction.on_commit(send, robust=True)


def _claim(review_id: int, generation: int) -> FairPlayReview | str:
    with transaction.atomic():
        review = FairPlayReview.objects.select_for_update().filter(pk=review_id).first()
        if review is None:
            return "no such review"
        if review.generation != generation:
            return "superseded"
        if review.status not in ACTIVE:
            return f"already {review.status}"
        review.status = ReviewStatus.RUNNING
        review.started_at = timezone.now()
        review.attempts += 1
        review.save(update_fields=["status", "started_at", "attempts"])
    return review


def _row(rank: int, review: Any, p_holm: float, partner: Any) -> FairPlayRow:
    verdict = review.verdict
    heaviest = [{
        "match": h["match"], "deal": h["decision"].deal, "ply": h["decision"].ply, "seat": h["decision"].seat,
        "card": h["decision"].card, "real_loss": h["decision"].real_loss,
        "sample_mean": round(h["sample_mean"], 2), "weight": round(h["weight"], 4), "url": h["url"],
    } for h in review.heaviest(HEAVIEST)]
    player = int(review.key.split(":")[1]) if review.key.startswith("player:") else None
    return FairPlayRow(rank=rank, player_id=player, name=review.name[:120], matches=len(review.matches),
                       decisions=verdict.decisions, informative=verdict.informative, z=verdict.z,
                       effect=verdict.effect, p=verdict.p, p_holm=p_holm, heaviest=heaviest,
                       z_partner=partner.z if partner else None, p_partner=partner.p if partner else None)


def run_review(*, review_id: int, generation: int) -> str:
    """Run the review queued as `generation` and store its rows; says what it did."""
    claimed = _claim(review_id, generation)
    if isinstance(claimed, str):
        return claimed
    review = claimed
    scope = {"tournament": review.tournament, "club": review.club_id, "player": review.player_id}
    try:
        players, skipped = review_players(review.asked_by, samples=review.samples, margin=review.margin,
                                          **{k: v for k, v in scope.items() if v is not None})
        # The second test, with each player's partner's hand known: shared cards or seen cards.
        knowing, _skipped = review_players(review.asked_by, samples=review.samples, margin=review.margin,
                                           partner_known=True,
                                           **{k: v for k, v in scope.items() if v is not None})
    except Exception as exc:  # noqa: BLE001 - kept on the row for the page, then raised for the log
        _fail(review_id, generation, f"{type(exc).__name__}: {exc}")
        raise
    players = [p for p in players if p.decisions and p.verdict is not None]
    partner = {p.key: p.verdict for p in knowing if p.decisions}
    adjusted = holm([p.verdict.p for p in players if p.verdict is not None])
    rows = [_row(rank, p, adjusted[rank], partner.get(p.key)) for rank, p in enumerate(players)]
    matches = len(set().union(*(p.matches for p in players))) if players else 0
    with transaction.atomic():
        locked = FairPlayReview.objects.select_for_update().filter(pk=review_id).first()
        if locked is None or locked.generation != generation or locked.status != ReviewStatus.RUNNING:
            return "superseded"
        locked.rows.all().delete()
        for row in rows:
            row.review = locked
        FairPlayRow.objects.bulk_create(rows)
        locked.status = ReviewStatus.DONE
        locked.finished_at = timezone.now()
        locked.matches, locked.skipped = matches, skipped
        locked.save(update_fields=["status", "finished_at", "matches", "skipped"])
    return f"reviewed {len(rows)} players over {matches} matches"


def _fail(review_id: int, generation: int, error: str) -> None:
    with transaction.atomic():
        FairPlayReview.objects.filter(pk=review_id, generation=generation).update(
            status=ReviewStatus.FAILED, error=error[:300])  # the last finished rows stay, with their time
