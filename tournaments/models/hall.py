"""The hall on the day: the organiser's announcements to the room, and the views of the wall screen."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ANNOUNCEMENT_LENGTH = 280
"""What fits in the band at the foot of the wall screen in large type, and in a phone's notice."""


class HallView(models.TextChoices):
    """What the wall screen shows; the organiser may pin one (``Tournament.hall_view``), else it cycles."""

    TABLES = "tables", _("Pairings by table")
    NAMES = "names", _("Pairings by name")
    STANDINGS = "standings", _("Standings")
    RESULTS = "results", _("Recent results")


class Announcement(models.Model):
    """A short message from the organiser to the hall: on the wall, on the tournament page, and to
    every registered player as a notice. Withdrawn ones stay for the audit, hidden everywhere."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("announcement"), max_length=ANNOUNCEMENT_LENGTH)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("posted"), default=timezone.now)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "-created_at"], name="announcement_latest")]

    def __str__(self) -> str:
        return self.text[:60]
