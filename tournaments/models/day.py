"""The tournament day: the organiser's day settings, the plans the beat task acts on, and in-site notices.

Plans are rows (``ScheduledAction``) with a unique ``key``: planning the same thing twice finds
the row that is already there, and the beat task marks a row done in the same transaction as
its work, so a second beat, a redelivered task or a rerun does nothing twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DaySettings(models.Model):
    """How a tournament runs itself on the day (one row per tournament, created on first use)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="day")
    auto_pair = models.BooleanField(
        _("pair the next round automatically"),
        default=False,
        help_text=_("Swiss: once a round is complete the next one is paired; off: the organiser pairs it."),
    )
    first_round_at = models.DateTimeField(_("first round starts"), null=True, blank=True)
    check_in_closes_at = models.DateTimeField(_("check-in closes"), null=True, blank=True)
    round_interval_minutes = models.PositiveSmallIntegerField(
        _("later rounds start every (minutes)"),
        default=0,
        help_text=_(
            "Round 2 starts this long after round 1, and so on; players are reminded before each round. "
            "0: only the first round has a set time."
        ),
    )
    reminder_minutes = models.PositiveSmallIntegerField(_("remind players (minutes before)"), default=15)
    no_show_minutes = models.PositiveSmallIntegerField(
        _("no-show after (minutes)"),
        default=10,
        help_text=_("Online: a pair not at its table this long after the round starts forfeits."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("online round deadline (minutes)"),
        default=0,
        help_text=_("Unfinished matches go to the organiser after this time; 0 for none."),
    )

    class Meta:
        verbose_name = _("tournament day settings")
        verbose_name_plural = _("tournament day settings")

    def __str__(self) -> str:
        return f"day settings of {self.tournament_id}"


class ActionKind(models.TextChoices):
    START_ROUND = "start_round", _("Round start")
    REMIND = "remind", _("Reminder to players")
    CLOSE_CHECK_IN = "close_check_in", _("Check-in closes")
    NO_SHOW = "no_show", _("No-show forfeits")
    PAIR_NEXT = "pair_next", _("Pair the next round")
    MATCHDAY_DEADLINE = "matchday_deadline", _("Matchday deadline")
    ROUND_DEADLINE = "round_deadline", _("Online round deadline")


class ScheduledAction(models.Model):
    """One planned piece of work of a tournament; ``done_at`` is set in the transaction that did it."""

    key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(_("kind"), max_length=20, choices=ActionKind.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="scheduled_actions"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    due_at = models.DateTimeField(_("due"))
    done_at = models.DateTimeField(_("done"), null=True, blank=True)
    outcome = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("scheduled action")
        verbose_name_plural = _("scheduled actions")
        ordering = ["due_at", "id"]
        indexes = [models.Index(fields=["done_at", "due_at"], name="action_due")]

    def __str__(self) -> str:
        return self.key


class Notification(models.Model):
    """A message for one user kept on the site (the socket push is only a hint that it exists)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=40)
    #: What a phone shows above the text (a tournament's name); blank for the site's name.
    title = models.CharField(max_length=120, blank=True)
    text = models.CharField(max_length=400)
    url = models.CharField(max_length=300, blank=True)
    key = models.CharField(max_length=160, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], condition=~models.Q(key=""), name="notification_once_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text[:40]}"


class PushSubscription(models.Model):
    """One phone (or browser) that asked for the user's notices by Web Push: where its push service
    takes them and the keys they are encrypted to. A push service that answers 404 or 410 has
    forgotten it, and the row goes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    #: The last push service's refusal (blank when the last push went through).
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("phone for notices")
        verbose_name_plural = _("phones for notices")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"
