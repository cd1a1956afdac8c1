"""What an organiser writes down about a player of his event for the prize categories (the year of
birth, men or women, the village), private to the event's organisers: no public page, export or API
answer shows it (tests/tournaments/test_prize_details_private.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.text_fields import NameField

from .event import Tournament


class Gender(models.TextChoices):
    WOMAN = "f", _("Woman")
    MAN = "m", _("Man")


class PlayerDetails(models.Model):
    """One player of one event: kept per event, so each organiser answers for what he wrote, and the
    next event of the same club starts from it (``selectors.prizes.details_form_rows``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="player_details")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices, blank=True)
    city = NameField(_("city or village"), blank=True)

    class Meta:
        verbose_name = _("player's details")
        verbose_name_plural = _("players' details")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="player_details_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.tournament_id}"
