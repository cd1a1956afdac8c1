"""The public tournament pages follow every saved or deleted row they show (``config.fresh``).

The services renew a tournament's pages with their audit row; these receivers cover writes that are
no service's (the admin, fixtures, scripts), and a player's or club's new name, which every
tournament's pages may show.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from clubs.models import Club, Player
from config import fresh
from tournaments.models import (
    BoardResult,
    DealLine,
    Entry,
    IndividualEntry,
    Match,
    PlayerDetails,
    ResultCorrection,
    Round,
    Seat,
    Substitution,
    Tournament,
)


def _tournament_of(instance: Any) -> tuple[int | None, bool]:
    """The tournament a saved row belongs to, and whether the change is every tournament's."""
    if isinstance(instance, Tournament):
        return instance.pk, True  # its slug or name may have changed: the old address too
    if getattr(instance, "tournament_id", None):
        return instance.tournament_id, False
    if getattr(instance, "round_id", None):
        rounds = Round.objects.filter(pk=instance.round_id)
        return rounds.values_list("tournament_id", flat=True).first(), False
    if getattr(instance, "match_id", None):
        return (Match.objects.filter(pk=instance.match_id)
                .values_list("round__tournament_id", flat=True).first(), False)
    if getattr(instance, "entry_id", None):
        entries = Entry.objects.filter(pk=instance.entry_id)
        return entries.values_list("tournament_id", flat=True).first(), False
    return None, False


def _changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if kwargs.get("raw"):  # loading fixtures
        return
    tournament_id, everyone = _tournament_of(instance)
    if everyone:
        fresh.renew_all()
    if tournament_id is not None:
        slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
        fresh.renew(slug=slug or "")


def _everyones(sender: Any, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        fresh.renew_all()


def connect() -> None:
    """Renew on every saved or deleted row a public tournament page shows."""
    for model in (Tournament, Entry, IndividualEntry, Substitution, Round, Match, Seat, DealLine,
                  ResultCorrection, PlayerDetails, BoardResult):  # the details decide the categories' prizes
        post_save.connect(_changed, sender=model, dispatch_uid=f"bilka-fresh-save-{model.__name__}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"bilka-fresh-delete-{model.__name__}")
    for model in (Club, Player):  # the ratings' writes renew_all() themselves, once a recompute
        post_save.connect(_everyones, sender=model, dispatch_uid=f"bilka-fresh-save-{model.__name__}")
        post_delete.connect(_everyones, sender=model, dispatch_uid=f"bilka-fresh-delete-{model.__name__}")
