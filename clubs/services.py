"""Every change to clubs, players, roles and rosters. Views, admin and commands call these.

Each service takes keyword-only arguments, runs in one transaction, checks the actor's role
(raising PermissionDenied) and writes one AuditEntry. Business rules a user can break by
mistake (the last owner, an expired link) raise ValidationError with a message for the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from . import permissions
from .models import AuditEntry, Club, ClubPlayer, Membership, Player, PlayerInvitation, Role
from .translit import search_key, to_latin

INVITATION_DAYS = 30
BULK_LIMIT = 300  # a village championship is dozens of players; thousands is a mistake
RESERVED_SLUGS = frozenset({"new"})  # clubs/new/ is the creation page

#: Sent inside the merge transaction, after every foreign key to ``source`` points at ``target``.
#: Apps with rows that need more than repointing (e.g. recomputing ratings) connect here.
players_merged = Signal()


# --- helpers -------------------------------------------------------------------------------------


def _require_user(actor) -> None:
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied


def _audit(*, actor, action: str, obj, club: Club | None = None, before=None, after=None) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        club=club,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        before=before,
        after=after,
    )


def _club_state(club: Club) -> dict:
    return {"name": club.name, "slug": club.slug, "city": club.city, "description": club.description}


def _player_state(player: Player) -> dict:
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "city": player.city,
        "user_id": player.user_id,
        "merged_into_id": player.merged_into_id,
    }


def _clean_text(value: str, *, limit: int, required: bool, what: str) -> str:
    value = " ".join((value or "").split())
    if required and not value:
        raise ValidationError(_("Please fill in: %(what)s.") % {"what": what})
    if len(value) > limit:
        raise ValidationError(
            _("%(what)s is too long (at most %(limit)d characters).") % {"what": what, "limit": limit}
        )
    return value


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


def _owner_count(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


# --- clubs -------------------------------------------------------------------------------------


@transaction.atomic
def create_club(*, actor, name: str, city: str = "", description: str = "") -> Club:
    """Any signed-in user may found a club; they become its first owner."""
    _require_user(actor)
    name = _clean_text(name, limit=120, required=True, what=_("name"))
    city = _clean_text(city, limit=120, required=False, what=_("city or village"))
    club = Club.objects.create(
        name=name,
        slug=_unique_slug(name),
        city=city,
        description=(description or "").strip(),
        created_by=actor,
    )
    Membership.objects.create(club=club, user=actor, role=Role.OWNER)
    permissions.forget_roles(actor)
    _audit(actor=actor, action="club.create", obj=club, club=club, after=_club_state(club))
    return club


@transaction.atomic
def update_club(*, actor, club: Club, name: str, city: str = "", description: str = "") -> Club:
    _require_user(actor)
    club = Club.objects.select_for_update().get(pk=club.pk)
    permissions.require(permissions.can_edit_club(actor, club))
    before = _club_state(club)
    club.name = _clean_text(name, limit=120, required=True, what=_("name"))
    club.city = _clean_text(city, limit=120, required=False, what=_("city or village"))
    club.description = (description or "").strip()
    club.save()
    _audit(actor=actor, action="club.update", obj=club, club=club, before=before, after=_club_state(club))
    return club


# --- members and roles ----------------------------------------------------------------------


@transaction.atomic
def add_member(*, actor, club: Club, user, role: str = Role.MEMBER) -> Membership:
    """An owner adds an existing account to the club with a role."""
    _require_user(actor)
    permissions.require(permissions.can_manage_members(actor, club))
    if role not in Role.values:
        raise ValidationError(_("Unknown role."))
    if Membership.objects.filter(club=club, user=user).exists():
        raise ValidationError(_("%(user)s is already a member of this club.") % {"user": user.get_username()})
    membership = Membership.objects.create(club=club, user=user, role=role)
    permissions.forget_roles(user)
    _audit(
        actor=actor,
        action="membership.add",
        obj=membership,
        club=club,
        after={"user_id": user.pk, "username": user.get_username(), "role": role},
    )
    return membership


@transaction.atomic
def join_club(*, actor, club: Club) -> Membership:
    """A signed-in user joins a club as a member (owners can then give them a role)."""
    _require_user(actor)
    membership, created = Membership.objects.get_or_create(
        club=club, user=actor, defaults={"role": Role.MEMBER}
    )
    if created:
        permissions.forget_roles(actor)
        _audit(
            actor=actor,
            action="membership.join",
            obj=membership,
            club=club,
            after={"user_id": actor.pk, "username": actor.get_username(), "role": membership.role},
        )
    return membership


@transaction.atomic
def set_member_role(*, actor, club: Club, user, role: str) -> Membership:
    """Only owners change roles, and a club never loses its last owner."""
    _require_user(actor)
    permissions.require(permissions.can_manage_members(actor, club))
    if role not in Role.values:
        raise ValidationError(_("Unknown role."))
    # Lock the club's memberships so two owners demoting each other cannot leave none.
    list(Membership.objects.select_for_update().filter(club=club).values_list("pk", flat=True))
    try:
        membership = Membership.objects.get(club=club, user=user)
    except Membership.DoesNotExist:
        raise ValidationError(_("This person is not a member of the club.")) from None
    before = {"user_id": user.pk, "username": user.get_username(), "role": membership.role}
    if membership.role == role:
        return membership
    if membership.role == Role.OWNER and _owner_count(club) <= 1:
        raise ValidationError(_("A club must keep at least one owner. Make someone else an owner first."))
    membership.role = role
    membership.save(update_fields=["role"])
    permissions.forget_roles(user)
    permissions.forget_roles(actor)
    _audit(
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
    _require_user(actor)
    if actor.pk != user.pk:
        permissions.require(permissions.can_manage_members(actor, club))
    list(Membership.objects.select_for_update().filter(club=club).values_list("pk", flat=True))
    try:
        membership = Membership.objects.get(club=club, user=user)
    except Membership.DoesNotExist:
        raise ValidationError(_("This person is not a member of the club.")) from None
    if membership.role == Role.OWNER and _owner_count(club) <= 1:
        raise ValidationError(_("A club must keep at least one owner. Make someone else an owner first."))
    before = {"user_id": user.pk, "username": user.get_username(), "role": membership.role}
    _audit(actor=actor, action="membership.remove", obj=membership, club=club, before=before)
    membership.delete()
    permissions.forget_roles(user)


# --- players and the roster -----------------------------------------------------------------


@transaction.atomic
def ensure_player_for_user(*, user, display_name: str | None = None) -> Player:
    """A user's own player profile, created on sign-up (idempotent)."""
    _require_user(user)
    existing = Player.objects.filter(user=user).first()
    if existing is not None:
        return existing
    name = (display_name or user.get_full_name() or user.get_username())[:120]
    player = Player.objects.create(display_name=name, user=user, created_by=user)
    _audit(actor=user, action="player.create_for_user", obj=player, after=_player_state(player))
    return player


@transaction.atomic
def update_player(*, actor, player: Player, display_name: str, city: str = "") -> Player:
    """A player edits their own profile; roster managers edit players who have no account."""
    _require_user(actor)
    player = Player.objects.select_for_update().get(pk=player.pk)
    own = player.user_id == actor.pk
    managed = player.user_id is None and any(
        permissions.can_manage_roster(actor, e.club) for e in player.roster_entries.select_related("club")
    )
    permissions.require(own or managed)
    before = _player_state(player)
    player.display_name = _clean_text(display_name, limit=120, required=True, what=_("name"))
    player.city = _clean_text(city, limit=120, required=False, what=_("city or village"))
    player.save()
    _audit(actor=actor, action="player.update", obj=player, before=before, after=_player_state(player))
    return player


@transaction.atomic
def add_player(*, actor, club: Club, display_name: str, city: str = "") -> ClubPlayer:
    """An owner or organiser registers a player (usually one without an account) on the roster."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
    name = _clean_text(display_name, limit=120, required=True, what=_("name"))
    city = _clean_text(city, limit=120, required=False, what=_("city or village"))
    player = Player.objects.create(display_name=name, city=city, created_by=actor)
    entry = ClubPlayer.objects.create(club=club, player=player, added_as=name, added_by=actor)
    _audit(actor=actor, action="roster.add", obj=entry, club=club, after=_player_state(player))
    return entry


@transaction.atomic
def add_to_roster(*, actor, club: Club, player: Player) -> ClubPlayer:
    """Put an existing player (say, a member with an account) on the roster; no-op if already there."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
    player = Player.objects.get(pk=player.pk)  # the caller's copy may predate a rename
    if player.merged_into_id is not None:
        raise ValidationError(_("This record was merged into another one."))
    entry = ClubPlayer.objects.filter(club=club, player=player, active=True).first()
    if entry is not None:
        return entry
    entry = ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name, added_by=actor)
    _audit(actor=actor, action="roster.add_existing", obj=entry, club=club, after=_player_state(player))
    return entry


@dataclass
class BulkAddResult:
    created: list[ClubPlayer] = field(default_factory=list)
    duplicates: list[tuple[str, Player]] = field(default_factory=list)  # (line as typed, player on roster)
    repeated: list[str] = field(default_factory=list)  # lines repeated inside the pasted list
    blank_lines: int = 0


def parse_player_lines(text: str) -> tuple[list[tuple[str, str]], int]:
    """Split pasted text into (name, city) pairs: one per line, an optional ", city" after the name."""
    rows, blanks = [], 0
    for raw in (text or "").splitlines():
        line = " ".join(raw.split())
        if not line:
            blanks += 1
            continue
        name, _sep, city = line.partition(",")
        name, city = name.strip()[:120], city.strip()[:120]
        if not name:
            blanks += 1
            continue
        rows.append((name, city))
    return rows, blanks


def _same_person(name_key: str, city: str, player: Player) -> bool:
    if search_key(player.display_name) != name_key:
        return False
    # Two "Нурлан"s from different villages are two people; a missing city matches any.
    return not city or not player.city or search_key(city) == search_key(player.city)


@transaction.atomic
def bulk_add_players(*, actor, club: Club, text: str) -> BulkAddResult:
    """Paste a list of names; players already on the roster are reported, not created twice."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
    rows, blanks = parse_player_lines(text)
    if len(rows) > BULK_LIMIT:
        raise ValidationError(
            _("At most %(limit)d players at a time, please; this list has %(count)d.")
            % {"limit": BULK_LIMIT, "count": len(rows)}
        )
    result = BulkAddResult(blank_lines=blanks)
    on_roster = [e.player for e in ClubPlayer.objects.filter(club=club, active=True).select_related("player")]
    seen: set[tuple[str, str]] = set()
    for name, city in rows:
        key = (search_key(name), search_key(city))
        if key in seen:
            result.repeated.append(name if not city else f"{name}, {city}")
            continue
        seen.add(key)
        twin = next((p for p in on_roster if _same_person(key[0], city, p)), None)
        if twin is not None:
            result.duplicates.append((name if not city else f"{name}, {city}", twin))
            continue
        player = Player.objects.create(display_name=name, city=city, created_by=actor)
        result.created.append(
            ClubPlayer.objects.create(club=club, player=player, added_as=name, added_by=actor)
        )
    _audit(
        actor=actor,
        action="roster.bulk_add",
        obj=club,
        club=club,
        after={
            "created": [_player_state(e.player) for e in result.created],
            "duplicates": [{"line": line, "player_id": p.pk} for line, p in result.duplicates],
            "repeated": result.repeated,
        },
    )
    return result


@transaction.atomic
def set_roster_active(*, actor, club: Club, entry: ClubPlayer, active: bool) -> ClubPlayer:
    """Take a player off the roster (the row stays, marked inactive) or put them back."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
    entry = ClubPlayer.objects.select_for_update().get(pk=entry.pk, club=club)
    if entry.active == active:
        return entry
    if active and ClubPlayer.objects.filter(club=club, player=entry.player_id, active=True).exists():
        return entry
    entry.active = active
    entry.save(update_fields=["active"])
    _audit(
        actor=actor,
        action="roster.activate" if active else "roster.deactivate",
        obj=entry,
        club=club,
        before={"active": not active},
        after={"active": active},
    )
    return entry


# --- invitations and claiming ---------------------------------------------------------------


@transaction.atomic
def invite_player(*, actor, club: Club, player: Player, days: int = INVITATION_DAYS) -> PlayerInvitation:
    """A link that lets the person behind a roster entry claim it with their account."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
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
    _audit(
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
    _require_user(actor)
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
    before = _player_state(player)
    own = Player.objects.select_for_update().filter(user=actor).exclude(pk=player.pk).first()
    if own is not None:
        _merge(actor=actor, source=own, target=player)
        player.refresh_from_db()
    if player.user_id is None:
        player.user = actor
        player.save(update_fields=["user"])
    invitation.claimed_by = actor
    invitation.claimed_at = timezone.now()
    invitation.save(update_fields=["claimed_by", "claimed_at"])
    _audit(
        actor=actor,
        action="player.claim",
        obj=player,
        club=invitation.club,
        before=before,
        after={**_player_state(player), "merged_own_profile_id": own.pk if own else None},
    )
    return player


# --- merging -------------------------------------------------------------------------------------


def _merge(*, actor, source: Player, target: Player) -> None:
    """Point everything that refers to ``source`` at ``target``; keep ``source`` as a tombstone."""
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
    target.save()
    players_merged.send(sender=Player, source=source, target=target, actor=actor)


@transaction.atomic
def merge_players(*, actor, club: Club, source: Player, target: Player) -> Player:
    """An organiser says two records are the same person: ``source`` is folded into ``target``."""
    _require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))
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
    before = {"source": _player_state(source), "target": _player_state(target)}
    _merge(actor=actor, source=source, target=target)
    source.refresh_from_db()
    target.refresh_from_db()
    _audit(
        actor=actor,
        action="player.merge",
        obj=target,
        club=club,
        before=before,
        after={"source": _player_state(source), "target": _player_state(target)},
    )
    return target
