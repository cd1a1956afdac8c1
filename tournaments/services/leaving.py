"""A player's ask to leave a running event, and the organiser's answer to it.

Once round 1 is paired a withdrawal forfeits unplayed matches (the partner's too) and changes the
next pairings, so a player no longer withdraws himself: he asks, the organisers are notified and
see the ask under "Needs you" on the dashboard, and one of them grants it (the entry is withdrawn
as by his own button, ``withdrawals``) or declines it. The player is told the answer.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import permissions
from ..models import Entry, EntryStatus, IndividualEntry, RequestStatus, WithdrawalRequest
from ..models import TournamentStatus as TS
from .common import audit, lock_entry, require_manager, require_user
from .notices import notify, tell_organisers
from .withdrawals import withdraw_entry, withdraw_player


def _own(actor, entry) -> bool:
    pid = permissions.player_id_of(actor)
    if isinstance(entry, IndividualEntry):
        return pid == entry.player_id
    return pid in (entry.player_a_id, entry.player_b_id)


def _field(entry) -> str:
    return "individual_entry" if isinstance(entry, IndividualEntry) else "entry"


def pending_request(entry) -> WithdrawalRequest | None:
    """The ask of this pair or player still waiting for the organiser, if any."""
    return WithdrawalRequest.objects.filter(**{_field(entry): entry}, status=RequestStatus.PENDING).first()


@transaction.atomic
def ask_to_withdraw(*, actor, entry: Entry | IndividualEntry) -> WithdrawalRequest:
    """A player asks the organiser to withdraw his pair (or himself, in an individual event).

    Nothing changes in the event until the organiser grants it; asking twice keeps one ask.
    Before round 1 is paired there is nothing to ask: the player withdraws himself.
    """
    require_user(actor)
    entry, tournament = lock_entry(entry)
    if not _own(actor, entry):
        raise PermissionDenied(_("Only a player of this entry can ask to withdraw it."))
    if entry.status == EntryStatus.WITHDRAWN:
        raise ValidationError(_("%(name)s has already withdrawn.") % {"name": entry.name})
    if tournament.status == TS.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    if tournament.status == TS.REGISTRATION:
        raise ValidationError(_("The first round is not paired yet: you can withdraw yourself."))
    existing = pending_request(entry)
    if existing is not None:
        return existing
    ask = WithdrawalRequest.objects.create(
        tournament=tournament, requested_by=actor, **{_field(entry): entry}
    )
    audit(actor=actor, action="entry.ask_withdraw", obj=entry, tournament=tournament, after={"ask": ask.pk})
    name = entry.name
    tell_organisers(
        tournament,
        kind="withdrawal_request",
        text=lambda: (
            _("%(name)s asks to withdraw from %(event)s.") % {"name": name, "event": tournament.name}
        ),
        key=f"withdrawal-request-{ask.pk}",
    )
    return ask


@transaction.atomic
def answer_withdrawal_request(*, actor, ask: WithdrawalRequest, grant: bool) -> WithdrawalRequest:
    """The organiser grants an ask (the entry is withdrawn: results already reported stay, its
    unplayed matches are forfeited) or declines it (nothing changes). The player is told."""
    ask = WithdrawalRequest.objects.select_for_update().select_related("tournament").get(pk=ask.pk)
    tournament = ask.tournament
    require_manager(actor, tournament)
    if ask.status != RequestStatus.PENDING:
        raise ValidationError(_("This request has already been answered."))
    entry = ask.who
    if grant:
        if ask.entry_id:
            withdraw_entry(actor=actor, entry=entry)
        else:
            withdraw_player(actor=actor, entry=entry)
    ask.status = RequestStatus.GRANTED if grant else RequestStatus.DECLINED
    ask.decided_by, ask.decided_at = actor, timezone.now()
    ask.save(update_fields=["status", "decided_by", "decided_at"])
    audit(
        actor=actor,
        action="entry.answer_withdraw",
        obj=ask,
        tournament=tournament,
        after={"status": ask.status},
    )
    if ask.requested_by is not None:
        event = tournament.name

        def text() -> str:
            if grant:
                return _("The organiser has withdrawn you from %(event)s.") % {"event": event}
            return _("The organiser declined your request to withdraw from %(event)s.") % {"event": event}

        notify(
            ask.requested_by,
            kind="withdrawal_answer",
            text=text,
            url=reverse("tournaments:entries", kwargs={"slug": tournament.slug}),
            key=f"withdrawal-answer-{ask.pk}",
        )
    return ask
