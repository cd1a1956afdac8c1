"""How much one account may found and invite: a few clubs a day, some tens of invitations an hour.

One account once founded eight clubs in a minute and could invite anyone it liked as fast as it
could type. The limits count the account's own rows (the clubs it founded, the invitations it
sent) in a sliding window, so they hold across server processes and restarts with nothing kept
beside the rows; the account's row is locked first, so two requests at once cannot both take the
last place. Site staff are not limited. The refusal says when there is room again; the form keeps
what was typed.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from ..models import Club, MemberInvitation

CLUBS_PER_DAY = 3
INVITATIONS_PER_HOUR = 30
RATE_LIMITED = "rate_limited"
"""The code of the refusal, so a page can answer it with 429."""


def clubs_per_day() -> int:
    """``BILKA_CLUBS_PER_DAY`` (the environment may set it), else 3."""
    return getattr(settings, "BILKA_CLUBS_PER_DAY", CLUBS_PER_DAY)


def invitations_per_hour() -> int:
    """``BILKA_INVITATIONS_PER_HOUR`` (the environment may set it), else 30."""
    return getattr(settings, "BILKA_INVITATIONS_PER_HOUR", INVITATIONS_PER_HOUR)


def _room_again(actor, rows: QuerySet, *, limit: int, window: timedelta):
    """None while the account has room in the window; else when its oldest counted row leaves it."""
    if actor.is_staff:
        return None
    get_user_model().objects.select_for_update().filter(pk=actor.pk).exists()
    since = timezone.now() - window
    recent = rows.filter(created_by=actor, created_at__gt=since).order_by("-created_at")
    times = list(recent.values_list("created_at", flat=True)[:limit])
    if len(times) < limit:
        return None
    return times[-1] + window


def require_club_room(actor) -> None:
    """Refuse a club beyond the day's allowance."""
    limit = clubs_per_day()
    again = _room_again(actor, Club.objects.all(), limit=limit, window=timedelta(days=1))
    if again is not None:
        raise ValidationError(
            _("One account may found at most %(limit)d clubs a day. You can found another in %(wait)s.")
            % {"limit": limit, "wait": timeuntil(again)},
            code=RATE_LIMITED,
        )


def require_invitation_room(actor) -> None:
    """Refuse an invitation beyond the hour's allowance (named and in-person alike)."""
    limit = invitations_per_hour()
    again = _room_again(actor, MemberInvitation.objects.all(), limit=limit, window=timedelta(hours=1))
    if again is not None:
        raise ValidationError(
            _("One account may send at most %(limit)d invitations an hour. You can send more in %(wait)s.")
            % {"limit": limit, "wait": timeuntil(again)},
            code=RATE_LIMITED,
        )
