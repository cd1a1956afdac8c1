"""A club's hooks: registered, turned off and on, deleted by its owners and organisers, each logged."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs import permissions
from clubs.models import Club
from clubs.services.common import audit

from ..addresses import check_url
from ..models import EventType, Webhook
from ..sending import new_secret

#: Hooks one club may keep: each event is sent once per hook.
MAX_HOOKS_PER_CLUB = 10


def _require_manager(actor, club: Club) -> None:
    if actor is None or not actor.is_authenticated or not permissions.can_manage_roster(actor, club):
        raise PermissionDenied(_("Only the club's owners and organisers manage its webhooks."))


def _hook_of(actor, club: Club, hook_id: int) -> Webhook:
    _require_manager(actor, club)
    hook = Webhook.objects.select_for_update().filter(pk=hook_id, club=club).first()
    if hook is None:
        raise PermissionDenied
    return hook


@transaction.atomic
def create_hook(*, actor, club: Club, url: str, events: list[str]) -> Webhook:
    """A new hook of the club's; its secret is on the returned row, to be shown this once."""
    _require_manager(actor, club)
    target = check_url(url)  # resolved now; again at every delivery
    chosen = [kind for kind in EventType.values if kind in set(events)]
    if not chosen or len(chosen) != len(set(events)):
        raise ValidationError(_("Choose at least one kind of event to send."), code="events")
    if Webhook.objects.filter(club=club).count() >= MAX_HOOKS_PER_CLUB:
        raise ValidationError(
            _("A club keeps at most %(n)d webhooks. Delete one you no longer use.")
            % {"n": MAX_HOOKS_PER_CLUB},
            code="too_many",
        )
    hook = Webhook.objects.create(
        club=club, url=url.strip(), secret=new_secret(), events=chosen, created_by=actor
    )
    audit(actor=actor, action="webhook.create", obj=club, club=club,
          after={"url": hook.url, "host": target.host, "events": chosen})
    return hook


@transaction.atomic
def set_hook_active(*, actor, club: Club, hook_id: int, active: bool) -> Webhook:
    """Turn a hook off, or on again (its count of failures starts over)."""
    hook = _hook_of(actor, club, hook_id)
    if hook.active == active:
        return hook
    hook.active = active
    if active:
        hook.failures, hook.disabled_for_failures = 0, False
    hook.save(update_fields=["active", "failures", "disabled_for_failures"])
    audit(actor=actor, action="webhook.enable" if active else "webhook.disable", obj=club, club=club,
          after={"url": hook.url})
    return hook


@transaction.atomic
def delete_hook(*, actor, club: Club, hook_id: int) -> None:
    """The hook and its delivery log go; events already recorded stay for the stream."""
    hook = _hook_of(actor, club, hook_id)
    url = hook.url
    hook.delete()
    audit(actor=actor, action="webhook.delete", obj=club, club=club, before={"url": url})
