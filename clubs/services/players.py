"""A player's own profile: the one every account gets, and edits to a name or village."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from .. import permissions, text
from ..models import Player
from ..text_fields import NAME_LENGTH
from .common import audit, clean_city, clean_name, player_state, require_user


@transaction.atomic
def ensure_player_for_user(*, user, display_name: str | None = None) -> Player:
    """A user's own player profile, created on sign-up (idempotent)."""
    require_user(user)
    existing = Player.objects.filter(user=user).first()
    if existing is not None:
        return existing
    candidates = (display_name, user.get_full_name(), user.get_username())
    tidied = (text.line(c)[:NAME_LENGTH].strip() for c in candidates if c)
    # An account name of only invisible characters (older sign-ups) gives a name that can be read.
    name = next((c for c in tidied if text.has_letters(c)), "") or _("Player %(n)d") % {"n": user.pk}
    player = Player.objects.create(display_name=name, user=user, created_by=user)
    audit(actor=user, action="player.create_for_user", obj=player, after=player_state(player))
    return player


@transaction.atomic
def update_player(*, actor, player: Player, display_name: str, city: str = "") -> Player:
    """A player edits their own profile; roster managers edit players who have no account."""
    require_user(actor)
    player = Player.objects.select_for_update().get(pk=player.pk)
    own = player.user_id == actor.pk
    managed = player.user_id is None and any(
        permissions.can_manage_roster(actor, e.club) for e in player.roster_entries.select_related("club")
    )
    permissions.require(own or managed)
    before = player_state(player)
    player.display_name = clean_name(display_name)
    player.city = clean_city(city)
    player.save()
    audit(actor=actor, action="player.update", obj=player, before=before, after=player_state(player))
    return player
