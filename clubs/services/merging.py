"""Folding two records of one person into one: everything that pointed at the one now points at the other."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from ..models import Club, ClubPlayer, Player
from .common import audit, player_state, require_roster_manager

#: Sent inside the merge transaction, after every foreign key to ``source`` points at ``target``.
#: Apps with rows that need more than repointing (e.g. recomputing ratings) connect here.
players_merged = Signal()
#: Sent inside the merge transaction before anything is repointed: apps whose rows of ``source``
#: are worked out from others (ratings, rebuilt by the recompute the merge asks for) drop them
#: here, where repointing them would meet ``target``'s own.
players_merging = Signal()


def fold_into(*, actor, source: Player, target: Player) -> None:
    """Point everything that refers to ``source`` at ``target``; keep ``source`` as a tombstone.

    The caller holds both rows locked, checks who may do this and writes the audit row.
    """
    players_merging.send(sender=Player, source=source, target=target, actor=actor)
    # The roster keeps every row; where both were active in one club, the source's row retires.
    target_clubs = set(
        ClubPlayer.objects.filter(player=target, active=True).values_list("club_id", flat=True)
    )
    ClubPlayer.objects.filter(player=source, active=True, club_id__in=target_clubs).update(active=False)
    # Every other foreign key to Player, in this app or a later one (results, ratings, seats).
    # This includes Player.merged_into, so earlier tombstones now point at the survivor too.
    for rel in Player._meta.related_objects:
        if rel.one_to_many or rel.one_to_one:
            rel.related_model._base_manager.filter(**{rel.field.name: source}).update(
                **{rel.field.name: target}
            )
    user = source.user
    if user is not None:
        source.user = None
    source.merged_into = target
    source.save(update_fields=["user", "merged_into"])
    if user is not None and target.user_id is None:
        target.user = user
    if not target.city and source.city:
        target.city = source.city
    target.save(update_fields=["user", "city"])  # its name as it was, checked at its next edit
    players_merged.send(sender=Player, source=source, target=target, actor=actor)


@transaction.atomic
def merge_players(*, actor, club: Club, source: Player, target: Player) -> Player:
    """An organiser says two records are the same person: ``source`` is folded into ``target``."""
    require_roster_manager(actor, club)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])}
    if source.pk == target.pk or len(locked) != 2:
        raise ValidationError(_("Choose two different players."))
    source, target = locked[source.pk], locked[target.pk]
    on_roster = set(
        ClubPlayer.objects.filter(club=club, player__in=[source, target]).values_list("player_id", flat=True)
    )
    if on_roster != {source.pk, target.pk}:
        raise ValidationError(_("Both players must be on this club's roster."))
    if source.merged_into_id or target.merged_into_id:
        raise ValidationError(_("One of these records was already merged."))
    if source.user_id and target.user_id:
        raise ValidationError(_("Both players have their own accounts; two accounts cannot be merged."))
    before = {"source": player_state(source), "target": player_state(target)}
    fold_into(actor=actor, source=source, target=target)
    source.refresh_from_db()
    target.refresh_from_db()
    audit(
        actor=actor,
        action="player.merge",
        obj=target,
        club=club,
        before=before,
        after={"source": player_state(source), "target": player_state(target)},
    )
    return target
