"""Stored fair-play reviews: what an organiser or the staff asked to have reviewed (an event's,
a club's or one player's online matches), where the work stands, and one row per player reviewed.

Reviewing samples layouts and solves them for every decision (seconds a match), so no page works
it out: a page asks for a review (`archive.services.fairplay.request_review`), a Celery task runs
it and writes the rows, and the pages read what was stored. The rows are for the organisers and
staff who may open the review page only: no public page, export or API reads them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ReviewScope(models.TextChoices):
    TOURNAMENT = "tournament", _("event")
    CLUB = "club", _("club")
    PLAYER = "player", _("player")


class ReviewStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class FairPlayReview(models.Model):
    """The review of one scope, kept and run again in place: a refresh queues the same row, and its
    player rows are replaced, all at once, only when the new run has finished."""

    scope = models.CharField(max_length=12, choices=ReviewScope.choices)
    #: "tournament:12", "club:3", "player:40": one review per scope (the constraint below), so a
    #: second request while one is queued or running finds it instead of queueing another.
    scope_key = models.CharField(max_length=40, unique=True)
    #: The tournament's id (tournaments.Tournament pk): the archive knows nothing of the tournaments.
    tournament = models.PositiveIntegerField(null=True, blank=True)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="fairplay_reviews")
    #: Who asked last: the review reads the matches this person may see (the archive's rule).
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    asked_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=ReviewStatus.choices, default=ReviewStatus.QUEUED)
    #: Raised by every request: a task carries the number it was queued with, so a task of an older
    #: request (a message delivered late or twice) does nothing.
    generation = models.PositiveIntegerField(default=0)
    #: Runs started for this generation (a worker killed mid-run is redelivered and starts again).
    attempts = models.PositiveSmallIntegerField(default=0)
    samples = models.PositiveSmallIntegerField(default=20)
    margin = models.FloatField(default=0.25)
    #: Of the finished run: matches reviewed, and those whose record did not replay.
    matches = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        verbose_name = _("fair-play review")
        verbose_name_plural = _("fair-play reviews")
        ordering = ["-asked_at", "-pk"]

    def __str__(self) -> str:
        return f"fair-play review {self.scope_key} ({self.status})"


class FairPlayRow(models.Model):
    """One player's figures in a finished review, most suspect first (`rank`)."""

    review = models.ForeignKey(FairPlayReview, on_delete=models.CASCADE, related_name="rows")
    rank = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="fairplay_rows")
    name = models.CharField(max_length=120)
    matches = models.PositiveIntegerField(default=0)
    decisions = models.PositiveIntegerField(default=0)
    informative = models.PositiveIntegerField(default=0)
    z = models.FloatField(default=0)
    effect = models.FloatField(default=0)
    p = models.FloatField(default=1)
    #: p adjusted by Holm's method for the number of players reviewed together in this review.
    p_holm = models.FloatField(default=1)
    #: The same test with the partner's real hand known to the layouts (only the opponents' hands
    #: vary): a pair that shares its cards fits no better than chance here, while a player who sees
    #: the opponents' cards still does. Empty for rows stored before this was run.
    z_partner = models.FloatField(null=True, blank=True)
    p_partner = models.FloatField(null=True, blank=True)
    #: The decisions that pushed Z down most: match, deal, ply, seat, card, the loss on the real
    #: hands and on average on the layouts, the weight, and the replay position's address.
    heaviest = models.JSONField(default=list)

    class Meta:
        ordering = ["review", "rank"]
        constraints = [models.UniqueConstraint(fields=["review", "rank"], name="fairplay_row_rank_unique")]

    def __str__(self) -> str:
        return f"{self.name}: p = {self.p:.3g}"
