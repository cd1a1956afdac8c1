"""API keys: made and revoked by their owner on the account page; the key is returned once."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import permissions
from ..models import ApiToken, Club, TokenScope
from .common import audit, clean_text, require_user

MAX_ACTIVE_TOKENS = 20


@transaction.atomic
def create_token(
    *, actor, name: str, scope: str, clubs: list[Club] | tuple[Club, ...] = ()
) -> tuple[ApiToken, str]:
    """A new key for ``actor``: the row (holding only the key's digest) and the key itself.

    A write key names the clubs it may enter results for; the actor must belong to each (a player
    reports his own matches, an organiser any of the club's). An organising key runs events, so
    its clubs must be ones the actor organises. Roles change later, so every write
    still goes through the result services' own checks."""
    require_user(actor)
    name = clean_text(name, limit=80, required=True, what=_("name"))
    if scope not in TokenScope.values:
        raise ValidationError(_("Choose what the key may do."))
    clubs = list(dict.fromkeys(clubs))
    if scope in (TokenScope.WRITE, TokenScope.ORGANISE):
        if not clubs:
            raise ValidationError(_("A key that enters results needs at least one club."))
        if not all(permissions.role_of(actor, club) is not None for club in clubs):
            raise PermissionDenied(_("You may give a key only clubs you belong to."))
        if scope == TokenScope.ORGANISE and not all(permissions.can_manage_roster(actor, c) for c in clubs):
            raise PermissionDenied(_("A key that runs events may name only clubs you organise."))
    else:
        clubs = []
    if ApiToken.objects.filter(user=actor, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise ValidationError(
            _("You have %(count)d keys in use; revoke one first.") % {"count": MAX_ACTIVE_TOKENS}
        )
    key = ApiToken.new_key()
    token = ApiToken.objects.create(
        user=actor,
        name=name,
        scope=scope,
        prefix=key[: ApiToken.PREFIX_LENGTH],
        digest=ApiToken.digest_of(key),
    )
    token.clubs.set(clubs)
    audit(
        actor=actor,
        action="api_token.create",
        obj=token,
        after={"name": name, "prefix": token.prefix, "scope": scope, "clubs": [c.pk for c in clubs]},
    )
    return token, key


@transaction.atomic
def revoke_token(*, actor, token_id: int) -> ApiToken:
    """The owner revokes one of his keys; from then on it is refused. Revoking twice changes nothing."""
    require_user(actor)
    token = ApiToken.objects.select_for_update().filter(pk=token_id, user=actor).first()
    if token is None:
        raise PermissionDenied
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit(actor=actor, action="api_token.revoke", obj=token, after={"prefix": token.prefix})
    return token


def note_token_used(*, token: ApiToken) -> None:
    """When a key was last used, for its owner's list; written at most once a minute per key."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > timedelta(minutes=1):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
