"""Joining a club by consent: an owner's invitation, and the person's answer.

An owner invites by name or e-mail; the account with that name or address (if any) is told, and
becomes a member only when he accepts. Whether such an account exists is never said: the owner
gets the same answer, the same row in his list and the same work done either way (the notice goes
out from a worker, ``member_invited``). An owner may also show a QR code in person: a link any one
signed-in account may accept, for a day. Invitations expire; the owner may withdraw one; both
kinds count against the owner's hourly allowance (``limits``).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import permissions
from ..models import Club, InvitationStatus, MemberInvitation, Membership, Role
from .common import audit, clean_text, require_member_manager, require_user
from .limits import require_invitation_room

MEMBER_INVITATION_DAYS = 14
IN_PERSON_HOURS = 24
DECLINED_QUIET_DAYS = 30
"""After a decline, the same club's new invitations do not reach the person for this long."""

member_invited = Signal()
"""Sent (``invitation_id``) inside the inviting transaction for every invitation by name or address,
whether it reached an account or not: the tournaments' notices word and deliver it from a worker."""

_RANK = {Role.MEMBER: 0, Role.ORGANISER: 1, Role.OWNER: 2}


def _require_role(role: str) -> None:
    if role not in Role.values:
        raise ValidationError(_("Unknown role."))


def _state(invitation: MemberInvitation) -> dict:
    """The invitation as the club's audit log keeps it: what the owner typed, never the account."""
    return {
        "addressed_to": invitation.addressed_to,
        "role": invitation.role,
        "expires_at": invitation.expires_at.isoformat(),
    }


def _account_for(who: str):
    """The active account with this username, else the one account with this e-mail (an address
    two accounts share names neither). Both lookups always run, found or not."""
    accounts = get_user_model().objects.filter(is_active=True)
    by_name = accounts.filter(username__iexact=who).first()
    by_email = list(accounts.filter(email__iexact=who).order_by("pk")[:2])
    if by_name is not None:
        return by_name
    return by_email[0] if len(by_email) == 1 else None


def _reaches(club: Club, user) -> bool:
    """Whether a new invitation of the club should reach the account: not a member already, not
    invited already, and not one who declined the club lately. The same three queries run when
    there is no account (asked about no one), so the answer takes the same work either way."""
    user_id = user.pk if user is not None else None
    member = Membership.objects.filter(club=club, user_id=user_id).exists()
    mine = MemberInvitation.objects.filter(club=club, user_id=user_id)
    invited = mine.filter(status=InvitationStatus.SENT, expires_at__gt=timezone.now()).exists()
    quiet = timezone.now() - timedelta(days=DECLINED_QUIET_DAYS)
    declined = mine.filter(status=InvitationStatus.DECLINED, answered_at__gt=quiet).exists()
    return user is not None and not (member or invited or declined)


@transaction.atomic
def invite_member(*, actor, club: Club, who: str, role: str = Role.MEMBER) -> MemberInvitation:
    """An owner invites the account with this username or e-mail to join with ``role``.

    The row is made whatever ``who`` names, and the answer is the same; the account (when there is
    one the invitation should reach) is told by a worker and joins only if he accepts."""
    require_member_manager(actor, club)
    _require_role(role)
    who = clean_text(who, limit=254, required=True, what=_("username or e-mail"))
    require_invitation_room(actor)
    target = _account_for(who)
    invitation = MemberInvitation.objects.create(
        club=club,
        role=role,
        addressed_to=who,
        user=target if _reaches(club, target) else None,
        created_by=actor,
        expires_at=timezone.now() + timedelta(days=MEMBER_INVITATION_DAYS),
    )
    audit(actor=actor, action="membership.invite", obj=invitation, club=club, after=_state(invitation))
    member_invited.send(sender=MemberInvitation, invitation_id=invitation.pk)
    return invitation


@transaction.atomic
def invite_in_person(*, actor, club: Club, role: str = Role.MEMBER) -> MemberInvitation:
    """A link (shown as a QR code) the owner shows someone in front of him: the first signed-in
    account that accepts it joins with ``role``. It lasts a day."""
    require_member_manager(actor, club)
    _require_role(role)
    require_invitation_room(actor)
    invitation = MemberInvitation.objects.create(
        club=club, role=role, created_by=actor, expires_at=timezone.now() + timedelta(hours=IN_PERSON_HOURS)
    )
    audit(
        actor=actor, action="membership.invite_in_person", obj=invitation, club=club, after=_state(invitation)
    )
    return invitation


@transaction.atomic
def withdraw_invitation(*, actor, invitation: MemberInvitation) -> MemberInvitation:
    """The owner takes an invitation back before it is answered; an answered one stays as it is."""
    invitation = MemberInvitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    require_member_manager(actor, invitation.club)
    if invitation.status != InvitationStatus.SENT:
        return invitation
    invitation.status = InvitationStatus.WITHDRAWN
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    audit(
        actor=actor,
        action="membership.withdraw_invitation",
        obj=invitation,
        club=invitation.club,
        before=_state(invitation),
    )
    return invitation


def _open_for(actor, token: str) -> MemberInvitation:
    """The invitation behind the link, locked, once it is found usable by this account."""
    invitation = (
        MemberInvitation.objects.select_for_update().select_related("club").filter(token=token).first()
    )
    if invitation is None or (not invitation.in_person and invitation.user_id != actor.pk):
        raise ValidationError(_("This invitation link is not valid."))
    if invitation.status == InvitationStatus.WITHDRAWN:
        raise ValidationError(_("The club has withdrawn this invitation."))
    if invitation.status != InvitationStatus.SENT:
        raise ValidationError(_("This invitation has already been answered."))
    if invitation.is_expired:
        raise ValidationError(_("This invitation has expired. Ask the club's owner for a new one."))
    return invitation


@transaction.atomic
def accept_invitation(*, actor, token: str) -> Membership:
    """The invited account joins the club. A member already keeps the higher of his role and the
    invitation's (accepting never demotes)."""
    require_user(actor)
    invitation = _open_for(actor, token)
    club = invitation.club
    list(Membership.objects.select_for_update().filter(club=club).values_list("pk", flat=True))
    membership = Membership.objects.filter(club=club, user=actor).first()
    before = None
    if membership is None:
        membership = Membership.objects.create(club=club, user=actor, role=invitation.role)
    elif _RANK[invitation.role] > _RANK[membership.role]:
        before = {"role": membership.role}
        membership.role = invitation.role
        membership.save(update_fields=["role"])
    invitation.status = InvitationStatus.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.user = actor
    invitation.save(update_fields=["status", "answered_at", "user"])
    permissions.forget_roles(actor)
    audit(
        actor=actor,
        action="membership.accept",
        obj=membership,
        club=club,
        before=before,
        after={"user_id": actor.pk, "username": actor.get_username(), "role": membership.role},
    )
    return membership


@transaction.atomic
def decline_invitation(*, actor, token: str) -> MemberInvitation:
    """The invited account says no: nothing changes in the club, and it is not asked again soon."""
    require_user(actor)
    invitation = _open_for(actor, token)
    invitation.status = InvitationStatus.DECLINED
    invitation.answered_at = timezone.now()
    invitation.user = actor
    invitation.save(update_fields=["status", "answered_at", "user"])
    audit(actor=actor, action="membership.decline", obj=invitation, club=invitation.club)
    return invitation
