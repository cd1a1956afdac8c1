"""Invitation links, and claiming the invited profile with one's own account."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club, ClubPlayer, Player, PlayerInvitation
from .common import audit, player_state, require_roster_manager, require_user
from .merging import fold_into

INVITATION_DAYS = 30


@transaction.atomic
def invite_player(*, actor, club: Club, player: Player, days: int = INVITATION_DAYS) -> PlayerInvitation:
    """A link that lets the person behind a roster entry claim it with their account."""
    require_roster_manager(actor, club)
    if not ClubPlayer.objects.filter(club=club, player=player).exists():
        raise ValidationError(_("This player is not on the club's roster."))
    if player.user_id is not None:
        raise ValidationError(_("This player already has an account."))
    if player.merged_into_id is not None:
        raise ValidationError(_("This record was merged into another one."))
    # One live link per player and club: asking again shows the same link.
    for existing in PlayerInvitation.objects.filter(player=player, club=club, claimed_at__isnull=True):
        if existing.is_usable:
            return existing
    invitation = PlayerInvitation.objects.create(
        player=player, club=club, created_by=actor, expires_at=timezone.now() + timedelta(days=days)
    )
    audit(
        actor=actor,
        action="invitation.create",
        obj=invitation,
        club=club,
        after={"player_id": player.pk, "expires_at": invitation.expires_at.isoformat()},
    )
    return invitation


@transaction.atomic
def claim_player(*, actor, token: str) -> Player:
    """A signed-in user claims the invited profile; their own earlier profile is merged into it."""
    require_user(actor)
    invitation = (
        PlayerInvitation.objects.select_for_update()
        .select_related("player", "club")
        .filter(token=token)
        .first()
    )
    if invitation is None:
        raise ValidationError(_("This invitation link is not valid."))
    if invitation.claimed_at is not None:
        raise ValidationError(_("This invitation has already been used."))
    if invitation.is_expired:
        raise ValidationError(_("This invitation has expired. Ask the organiser for a new link."))
    player = Player.objects.select_for_update().get(pk=invitation.player_id)
    while player.merged_into_id is not None:  # the invited record was merged since: follow it
        player = Player.objects.select_for_update().get(pk=player.merged_into_id)
    if player.user_id is not None and player.user_id != actor.pk:
        raise ValidationError(_("This player profile already belongs to another account."))
    before = player_state(player)
    own = Player.objects.select_for_update().filter(user=actor).exclude(pk=player.pk).first()
    if own is not None:
        fold_into(actor=actor, source=own, target=player)
        player.refresh_from_db()
    if player.user_id is None:
        player.user = actor
        player.save(update_fields=["user"])
    invitation.claimed_by = actor
    invitation.claimed_at = timezone.now()
    invitation.save(update_fields=["claimed_by", "claimed_at"])
    audit(
        actor=actor,
        action="player.claim",
        obj=player,
        club=invitation.club,
        before=before,
        after={**player_state(player), "merged_own_profile_id": own.pk if own else None},
    )
    return player
