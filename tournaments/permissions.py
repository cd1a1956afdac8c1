"""Who may run a tournament and who may report a match. Services enforce; views hide buttons."""

from __future__ import annotations

from clubs.permissions import ROSTER_ROLES, is_site_staff_for, role_of

from .models import Match, Tournament


def can_manage(user, tournament: Tournament) -> bool:
    """The club's owners and organisers run its tournaments (and site staff with the permission)."""
    return role_of(user, tournament.club) in ROSTER_ROLES or is_site_staff_for(
        user, "tournaments.change_tournament"
    )


def can_create(user, club) -> bool:
    return role_of(user, club) in ROSTER_ROLES or is_site_staff_for(user, "tournaments.add_tournament")


def player_id_of(user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    cached = getattr(user, "_bilka_player_id", False)
    if cached is False:
        from clubs.models import Player

        cached = Player.objects.filter(user=user).values_list("pk", flat=True).first()
        user._bilka_player_id = cached
    return cached


def side_players(match: Match, side: str) -> set[int]:
    """The players who sit at the table for ``side`` (home/away) in this match's round.

    A substitute counts for the round he plays; the player he replaces does not.
    """
    entry = match.home if side == "home" else match.away
    if entry is None:
        return set()
    players = {entry.player_a_id, entry.player_b_id}
    for sub in entry.substitutions.all():
        if sub.round_id == match.round_id:
            players.discard(sub.player_out_id)
            players.add(sub.player_in_id)
    return players


def side_of(user, match: Match) -> str | None:
    """ "home" or "away" when the user plays in this match, else None."""
    pid = player_id_of(user)
    if pid is None:
        return None
    for side in ("home", "away"):
        if pid in side_players(match, side):
            return side
    return None
