"""A pair's self-registration, and the partner's consent to it.

A player enters himself with a partner from the club. A partner who has an account is asked: the
pair waits for her (``EntryStatus.PARTNER``: not counted, not seeded, not paired) and she is told;
until she accepts she is free to enter with someone else, and if she does, the request lapses
(``entries.lapse_requests``). Once she accepts, the pair waits for the organiser's approval as any
self-registered pair; the organiser may also approve it for her (``entries.approve_entry``). A
partner without an account cannot be asked, so the organiser's approval stands for her, as before.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import ClubPlayer, Player

from ..models import Entry, EntryStatus, Tournament
from .common import lock_tournament, require_user
from .entries import (
    audit_entry,
    entries_url,
    entry_for_update,
    entry_state,
    full_refusal,
    held_places,
    lapse_requests,
    merged_refusal,
    refuse_late,
    refuse_self_registration,
    register_pair,
    taken_players,
    taken_refusal,
)
from .notices import notify


@transaction.atomic
def self_register(*, actor, tournament: Tournament, partner: Player) -> Entry:
    """A player enters himself with a partner from the club's roster (or one with an account).

    A partner with an account is asked first (the pair waits for her); one who asked him already
    is answered instead: his registration accepts her request."""
    require_user(actor)
    tournament = lock_tournament(tournament)
    me = refuse_self_registration(actor, tournament)
    if (
        not ClubPlayer.objects.filter(club=tournament.club, player=partner, active=True).exists()
        and partner.user_id is None
    ):
        raise ValidationError(_("Choose a partner from the club's players."))
    asked_me = tournament.entries.filter(status=EntryStatus.PARTNER, player_a=partner, player_b=me).first()
    if asked_me is not None:
        return accept_partner(actor=actor, entry=asked_me)
    ask = partner.user_id is not None and partner.user_id != actor.pk
    entry = register_pair(actor, tournament, me, partner, EntryStatus.PARTNER if ask else EntryStatus.PENDING)
    if ask:
        notify(
            partner.user,
            kind="entry.partner_request",
            text=lambda: (
                _(
                    "%(name)s has registered for %(tournament)s with you as partner. Accept or decline"
                    " on the tournament's entries page."
                )
                % {"name": me.display_name, "tournament": tournament.name}
            ),
            url=entries_url(tournament, entry),
            key=f"entry-request-{entry.pk}",
        )
    return entry


def _partner_entry(actor, entry: Entry) -> tuple[Entry, Tournament]:
    """The pair locked, once the actor is found to be the partner it asks."""
    require_user(actor)
    entry, tournament = entry_for_update(entry)
    if entry.player_b.user_id != actor.pk:
        raise PermissionDenied(_("Only the partner asked can answer."))
    return entry, tournament


def _tell_registrant(entry: Entry, tournament: Tournament, *, kind: str, text) -> None:
    user = entry.player_a.user
    if user is not None:
        notify(user, kind=kind, text=text, url=entries_url(tournament, entry), key=f"{kind}-{entry.pk}")


@transaction.atomic
def accept_partner(*, actor, entry: Entry) -> Entry:
    """The partner asked says yes: the pair waits for the organiser's approval; her other requests lapse."""
    entry, tournament = _partner_entry(actor, entry)
    if entry.status != EntryStatus.PARTNER:
        if entry.status == EntryStatus.WITHDRAWN:
            raise ValidationError(_("This pair was withdrawn or has lapsed; it can no longer be accepted."))
        return entry
    refuse_late(tournament)
    refusal = (
        merged_refusal(entry.player_b)
        or taken_refusal(entry.player_b, taken_players(tournament, exclude_entry=entry.pk))
        or full_refusal(tournament, held_places(tournament))
    )
    if refusal:
        raise ValidationError(refusal)
    before = entry_state(entry)
    entry.status = EntryStatus.PENDING
    entry.save(update_fields=["status"])
    audit_entry(actor, "entry.partner_accept", entry, tournament, before)
    lapse_requests(actor, tournament, (entry.player_b_id,), keep=entry.pk)
    _tell_registrant(
        entry,
        tournament,
        kind="entry.partner_accepted",
        text=lambda: (
            _("%(partner)s accepted your pair in %(tournament)s; now the organiser approves it.")
            % {"partner": entry.player_b.display_name, "tournament": tournament.name}
        ),
    )
    return entry


@transaction.atomic
def decline_partner(*, actor, entry: Entry) -> Entry:
    """The partner asked says no: the pair is withdrawn and whoever registered it is told."""
    entry, tournament = _partner_entry(actor, entry)
    if entry.status != EntryStatus.PARTNER:
        return entry
    before = entry_state(entry)
    entry.status = EntryStatus.WITHDRAWN
    entry.save(update_fields=["status"])
    audit_entry(actor, "entry.partner_decline", entry, tournament, before)
    _tell_registrant(
        entry,
        tournament,
        kind="entry.partner_declined",
        text=lambda: (
            _("%(partner)s declined to play %(tournament)s in a pair with you.")
            % {"partner": entry.player_b.display_name, "tournament": tournament.name}
        ),
    )
    return entry
