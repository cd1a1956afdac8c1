"""Founding and editing clubs, and who is in them with which role."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .. import permissions, selectors
from ..models import Club, Membership, Role
from ..text import name_keys
from ..translit import to_latin
from .common import audit, clean_city, clean_name, clean_prose, require_member_manager, require_user
from .limits import require_club_room

RESERVED_SLUGS = frozenset({"new"})  # clubs/new/ is the creation page


def _club_state(club: Club) -> dict:
    return {"name": club.name, "slug": club.slug, "city": club.city, "description": club.description}


def _membership_state(user, role: str) -> dict:
    return {"user_id": user.pk, "username": user.get_username(), "role": role}


def _unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
    base = slugify(to_latin(name))[:120] or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    slug, n = base, 1
    qs = Club.objects.all()
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    while qs.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _refuse_look_alike(name: str, *, exclude_pk: int | None = None) -> None:
    """One name, one club: the club list, the archive's club filter and the tournament pages show a
    club by its name, so a second club whose name reads the same (in another case, with invisible
    characters, or in look-alike letters of another script) could not be told from the first."""
    small, capitals = name_keys(name)
    twins = Club.objects.filter(Q(name_key=small) | Q(name_key_upper=capitals))
    if exclude_pk is not None:
        twins = twins.exclude(pk=exclude_pk)
    twin = twins.order_by("pk").first()
    if twin is not None:
        raise ValidationError(
            _(
                "There is already a club named “%(name)s”. Add your village or town to the name so"
                " that people can tell the two apart."
            )
            % {"name": twin.name}
        )


def _require_role(role: str) -> None:
    if role not in Role.values:
        raise ValidationError(_("Unknown role."))


def _locked_membership(club: Club, user) -> Membership:
    """The user's membership, with every membership of the club locked first, so two owners
    demoting or removing each other at once cannot leave the club with none."""
    list(Membership.objects.select_for_update().filter(club=club).values_list("pk", flat=True))
    try:
        return Membership.objects.get(club=club, user=user)
    except Membership.DoesNotExist:
        raise ValidationError(_("This person is not a member of the club.")) from None


def _keep_an_owner(club: Club, membership: Membership) -> None:
    if membership.role == Role.OWNER and selectors.owner_count(club_id=club.pk) <= 1:
        raise ValidationError(_("A club must keep at least one owner. Make someone else an owner first."))


# --- clubs -------------------------------------------------------------------------------------


@transaction.atomic
def create_club(*, actor, name: str, city: str = "", description: str = "") -> Club:
    """Any signed-in user may found a club, a few a day (``limits``); they become its first owner."""
    require_user(actor)
    name = clean_name(name)
    city = clean_city(city)
    description = clean_prose(description, what=_("description"))
    _refuse_look_alike(name)
    require_club_room(actor)
    club = Club.objects.create(
        name=name,
        slug=_unique_slug(name),
        city=city,
        description=description,
        created_by=actor,
    )
    Membership.objects.create(club=club, user=actor, role=Role.OWNER)
    permissions.forget_roles(actor)
    audit(actor=actor, action="club.create", obj=club, club=club, after=_club_state(club))
    return club


@transaction.atomic
def update_club(*, actor, club: Club, name: str, city: str = "", description: str = "") -> Club:
    require_user(actor)
    club = Club.objects.select_for_update().get(pk=club.pk)
    permissions.require(permissions.can_edit_club(actor, club))
    before = _club_state(club)
    new_name = clean_name(name)
    if name_keys(new_name) != (club.name_key, club.name_key_upper):  # a club keeps its name, twin or not
        _refuse_look_alike(new_name, exclude_pk=club.pk)
    club.name = new_name
    club.city = clean_city(city)
    club.description = clean_prose(description, what=_("description"))
    club.save()
    audit(actor=actor, action="club.update", obj=club, club=club, before=before, after=_club_state(club))
    return club


# --- members and roles ----------------------------------------------------------------------


@transaction.atomic
def add_member(*, actor, club: Club, user, role: str = Role.MEMBER) -> Membership:
    """Site staff add an account to the club at once (the admin). Owners cannot: they invite, and
    the person joins when he accepts (``joining.invite_member``)."""
    require_user(actor)
    permissions.require(permissions.is_site_staff_for(actor, "clubs.add_membership"))
    _require_role(role)
    if Membership.objects.filter(club=club, user=user).exists():
        raise ValidationError(_("%(user)s is already a member of this club.") % {"user": user.get_username()})
    membership = Membership.objects.create(club=club, user=user, role=role)
    permissions.forget_roles(user)
    audit(
        actor=actor, action="membership.add", obj=membership, club=club, after=_membership_state(user, role)
    )
    return membership


@transaction.atomic
def join_club(*, actor, club: Club) -> Membership:
    """A signed-in user joins a club as a member (owners can then give them a role)."""
    require_user(actor)
    membership, created = Membership.objects.get_or_create(
        club=club, user=actor, defaults={"role": Role.MEMBER}
    )
    if created:
        permissions.forget_roles(actor)
        audit(
            actor=actor,
            action="membership.join",
            obj=membership,
            club=club,
            after=_membership_state(actor, membership.role),
        )
    return membership


@transaction.atomic
def set_member_role(*, actor, club: Club, user, role: str) -> Membership:
    """Only owners change roles, and a club never loses its last owner."""
    require_member_manager(actor, club)
    _require_role(role)
    membership = _locked_membership(club, user)
    before = _membership_state(user, membership.role)
    if membership.role == role:
        return membership
    _keep_an_owner(club, membership)
    membership.role = role
    membership.save(update_fields=["role"])
    permissions.forget_roles(user)
    permissions.forget_roles(actor)
    audit(
        actor=actor,
        action="membership.set_role",
        obj=membership,
        club=club,
        before=before,
        after={**before, "role": role},
    )
    return membership


@transaction.atomic
def remove_member(*, actor, club: Club, user) -> None:
    """Owners remove members; anyone may leave. The last owner can do neither."""
    require_user(actor)
    if actor.pk != user.pk:
        permissions.require(permissions.can_manage_members(actor, club))
    membership = _locked_membership(club, user)
    _keep_an_owner(club, membership)
    before = _membership_state(user, membership.role)
    audit(actor=actor, action="membership.remove", obj=membership, club=club, before=before)
    membership.delete()
    permissions.forget_roles(user)
