"""Who may do what in a club. Services enforce these; views use them to hide or refuse pages."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from .models import Club, Membership, Role

ROSTER_ROLES = frozenset({Role.OWNER, Role.ORGANISER})
OWNER_ROLES = frozenset({Role.OWNER})


def role_of(user, club: Club) -> str | None:
    """The user's role in the club, or None for anonymous users and non-members."""
    if user is None or not user.is_authenticated:
        return None
    cache = getattr(user, "_club_roles", None)
    if cache is None:
        cache = user._club_roles = {}
    if club.pk not in cache:
        cache[club.pk] = (
            Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        )
    return cache[club.pk]


def forget_roles(user) -> None:
    """Drop the per-request role cache after a role change."""
    if user is not None and hasattr(user, "_club_roles"):
        del user._club_roles


def is_site_staff_for(user, perm: str) -> bool:
    """Site staff with the model permission act in the admin on any club."""
    return bool(user is not None and user.is_authenticated and user.is_active and user.has_perm(perm))


def can_manage_roster(user, club: Club) -> bool:
    return role_of(user, club) in ROSTER_ROLES or is_site_staff_for(user, "clubs.change_clubplayer")


def can_manage_members(user, club: Club) -> bool:
    return role_of(user, club) in OWNER_ROLES or is_site_staff_for(user, "clubs.change_membership")


def can_edit_club(user, club: Club) -> bool:
    return role_of(user, club) in OWNER_ROLES or is_site_staff_for(user, "clubs.change_club")


def require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied
