"""What every clubs service shares: the signed-in check, the audit row, tidy text, a player's state."""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from .. import permissions, text
from ..models import AuditEntry, Club, ClubPlayer, MemberInvitation, Membership, Player, PlayerInvitation
from ..text_fields import FIELD_ERROR, NAME_LENGTH, PROSE_LENGTH, check_name, check_prose


def require_user(actor) -> None:
    """Anonymous visitors change nothing."""
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied


def audit(
    *, actor, action: str, obj, club: Club | None = None, before=None, after=None, reason: str = ""
) -> AuditEntry:
    """The row that says who changed what, with the state before and after.

    ``action`` is a code worded at read time (``clubs.audit_words``); what the row is about is kept
    as codes and names (``subject_of``), never as text in the actor's language."""
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        club=club,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        subject=subject_of(obj),
        reason=text.line(reason)[:300],
        before=before,
        after=after,
    )


def subject_of(obj) -> dict | None:
    """What a club's audit row is about, as a kind and a name (names read the same in any language)."""
    if obj is None:
        return None
    if isinstance(obj, Membership):
        return {"kind": "member", "name": obj.user.get_username()}
    if isinstance(obj, (ClubPlayer, PlayerInvitation)):
        return {"kind": "player", "name": obj.player.display_name}
    if isinstance(obj, Player):
        return {"kind": "player", "name": obj.display_name}
    if isinstance(obj, Club):
        return {"kind": "club", "name": obj.name}
    if isinstance(obj, MemberInvitation):  # what the owner typed, never the account it reached
        return {"kind": "invitation", "name": obj.addressed_to}
    return {"kind": "", "name": str(obj)[:200]}


def player_state(player: Player) -> dict:
    """A player as the audit log records it."""
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "city": player.city,
        "user_id": player.user_id,
        "merged_into_id": player.merged_into_id,
    }


LIST_NUMBER = re.compile(r"^\s*(?:№\s*)?\d{1,4}\s*(?:[.):\]]|[-–—])\s*")
"""A number an organiser's list puts before a name: "1. ", "2) ", "3 - ", "№4: "."""


def without_list_number(line: str) -> str:
    """A pasted line without the number of a numbered list ("1. Марат Бектуров" → "Марат Бектуров");
    a line that is only a number is left as it is."""
    rest = LIST_NUMBER.sub("", line, count=1)
    return rest if rest.strip() else line


def clean_text(value: str, *, limit: int, required: bool, what: str) -> str:
    """Typed text tidied as every name is (``clubs.text``): nothing invisible, single spaces; too
    long, unreadable, or missing when required, is refused in the reader's language."""
    try:
        value = check_name(value or "", limit=limit)
    except ValidationError as error:
        raise ValidationError(
            [FIELD_ERROR % {"field": capfirst(what), "error": m} for m in error.messages]
        ) from None
    if required and not value:
        raise ValidationError(_("Please fill in: %(what)s.") % {"what": what})
    return value


def clean_name(value: str) -> str:
    """A club's or a player's name: required, readable, at most ``NAME_LENGTH`` characters."""
    return clean_text(value, limit=NAME_LENGTH, required=True, what=_("name"))


def clean_city(value: str) -> str:
    """A club's or a player's city or village: optional, at most ``NAME_LENGTH`` characters."""
    return clean_text(value, limit=NAME_LENGTH, required=False, what=_("city or village"))


def clean_prose(value: str, *, what: str) -> str:
    """A description or a note: tidied line by line, at most ``PROSE_LENGTH`` characters."""
    try:
        return check_prose(value or "", limit=PROSE_LENGTH)
    except ValidationError as error:
        raise ValidationError(
            [FIELD_ERROR % {"field": capfirst(what), "error": m} for m in error.messages]
        ) from None


def require_roster_manager(actor, club: Club) -> None:
    """Signed in, and an owner or organiser of the club (or site staff)."""
    require_user(actor)
    permissions.require(permissions.can_manage_roster(actor, club))


def require_member_manager(actor, club: Club) -> None:
    """Signed in, and an owner of the club (or site staff)."""
    require_user(actor)
    permissions.require(permissions.can_manage_members(actor, club))
