"""Notices to people: kept on the site, pushed to open tabs and e-mailed, each in its reader's language."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from clubs.models import MemberInvitation, Membership, Player
from clubs.permissions import ROSTER_ROLES
from config.notify import notify_user

from .. import permissions
from ..models import Match, Notification, Tournament
from .common import PUSH_NOTICE_TASK, on_commit_task


def notify(
    user, *, kind: str, text: Callable[[], str], url: str = "", key: str = "", title: str = ""
) -> None:
    """Keep a notice on the site, push it to the user's open sockets and his phones (Web Push, from a
    worker on commit), and e-mail it if we know an address.

    ``key`` makes it once-only: a rerun of the same plan notifies nobody twice. ``text`` is a
    function that words the notice: it is called in the user's language (``User.language``, the
    one he last used the site in; the active one when none is known), so a notice written by the
    beat or a worker is in his language, not the server's.
    """
    if key and Notification.objects.filter(user=user, key=key).exists():
        return
    with translation.override(getattr(user, "language", "") or translation.get_language()):
        worded = str(text())
    note = Notification.objects.create(
        user=user, kind=kind, title=title[:120], text=worded[:400], url=url, key=key
    )
    notify_user(user.pk, {"kind": kind, "title": title, "text": worded, "url": url})
    on_commit_task(PUSH_NOTICE_TASK, note.pk)
    if user.email:
        address, subject = user.email, worded[:120]
        body = f"{worded}\n\n{url}" if url else worded
        transaction.on_commit(
            lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address], fail_silently=True),
            robust=True,
        )


def users_of_side(match: Match, side: str) -> list:
    ids = permissions.side_players(match, side)
    return [p.user for p in Player.objects.filter(pk__in=ids).select_related("user") if p.user_id]


def organisers(tournament: Tournament) -> list:
    ids = Membership.objects.filter(club_id=tournament.club_id, role__in=ROSTER_ROLES).values_list(
        "user_id", flat=True
    )
    return list(get_user_model().objects.filter(pk__in=list(ids)))


def tell_organisers(tournament: Tournament, *, kind: str, text: Callable[[], str], key: str) -> None:
    url = reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})
    for user in organisers(tournament):
        notify(user, kind=kind, text=text, url=url, key=key)


def tell_invited_member(invitation_id: int) -> bool:
    """Tell the account a club's invitation reached (run by a worker for every invitation by name or
    address, so the owner's request does the same work whether an account was found or not).
    Nothing for an invitation that reached no account, or was answered or withdrawn meanwhile."""
    invitation = (
        MemberInvitation.objects.select_related("club", "created_by", "user").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.user is None or not invitation.is_open:
        return False

    def text() -> str:
        return _(
            "%(who)s invites you to the club %(club)s as %(role)s. Open the invitation to accept or decline."
        ) % {
            "who": invitation.created_by.get_username() if invitation.created_by else "",
            "club": invitation.club.name,
            "role": invitation.get_role_display(),
        }

    notify(
        invitation.user,
        kind="club.invitation",
        text=text,
        url=invitation.get_absolute_url(),
        key=f"club-invitation-{invitation.pk}",
    )
    return True
