"""Requested byes: a pair (a player, in an individual event), or the organiser for them, asks to sit out
a round not yet paired, or takes the ask back.

The event says whether it grants them and what they score (``Tournament.bye_requests``: half a win,
or nothing), how many one entry may take, and in how many of the last rounds none is granted. The
ask waits for its round: the format leaves the entry out when the round is paired and writes its
bye as a result of the round (``formats.base.requested_byes``, ``services.rounds``). Once the round
is paired the ask can no longer be made or taken back.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import permissions
from ..formats import format_of
from ..models import ByeRequest, EntryStatus, IndividualEntry, Tournament
from ..models import TournamentStatus as TS
from ..selectors.byes import rounds_paired
from .common import audit, lock_entry, require_user


def _field(entry) -> str:
    return "individual_entry" if isinstance(entry, IndividualEntry) else "entry"


def may_ask_for(actor, entry, tournament: Tournament) -> bool:
    """A player of the pair (the player himself, in an individual event) or the event's organisers."""
    if permissions.can_manage(actor, tournament):
        return True
    pid = permissions.player_id_of(actor)
    if pid is None:
        return False
    if isinstance(entry, IndividualEntry):
        return pid == entry.player_id
    return pid in (entry.player_a_id, entry.player_b_id)


def requests_of(entry) -> list[ByeRequest]:
    """The entry's asks not taken back, granted ones (rounds paired) included, by round."""
    return list(ByeRequest.objects.filter(**{_field(entry): entry}, withdrawn_at__isnull=True))


def _check_event(tournament: Tournament, entry) -> None:
    if not format_of(tournament).grants_byes:
        raise ValidationError(_("Only Swiss and individual events have requested byes."))
    if not tournament.bye_requests:
        raise ValidationError(_("This event grants no requested byes."))
    if tournament.status == TS.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    if entry.status == EntryStatus.WITHDRAWN:
        raise ValidationError(_("%(name)s has withdrawn.") % {"name": entry.name})


def _check_round(tournament: Tournament, number: int) -> None:
    paired = rounds_paired(tournament)
    if number <= paired:
        raise ValidationError(
            _("Round %(n)d is already paired: a bye is asked for before its round is paired.") % {"n": number}
        )
    if number > tournament.swiss_rounds:
        raise ValidationError(
            _("This event has %(rounds)d rounds; there is no round %(n)d.")
            % {"rounds": tournament.swiss_rounds, "n": number}
        )
    last = tournament.bye_requests_not_last
    if number > tournament.swiss_rounds - last:
        raise ValidationError(
            ngettext(
                "No bye is granted in the last round.",
                "No bye is granted in the last %(n)d rounds.",
                last,
            )
            % {"n": last}
        )


@transaction.atomic
def ask_bye(*, actor, entry, round_number: int) -> ByeRequest:
    """Ask for ``entry`` to sit out round ``round_number``, scored as the event states now.

    Refused (with the reason) for another pair's entry, a round already paired or among the last
    the event keeps, an entry with all its byes taken, an event that grants none. Asking twice for
    one round keeps one ask.
    """
    require_user(actor)
    entry, tournament = lock_entry(entry)
    if not may_ask_for(actor, entry, tournament):
        raise PermissionDenied(_("Only a player of this entry or the organiser can ask for its bye."))
    _check_event(tournament, entry)
    _check_round(tournament, round_number)
    asks = requests_of(entry)
    same = next((a for a in asks if a.round_number == round_number), None)
    if same is not None:
        return same
    most = tournament.bye_requests_max
    if len(asks) >= most:
        raise ValidationError(
            ngettext(
                "%(name)s may sit out %(n)d round at most, and has asked for it already.",
                "%(name)s may sit out %(n)d rounds at most, and has asked for them already.",
                most,
            )
            % {"name": entry.name, "n": most}
        )
    ask = ByeRequest.objects.create(
        tournament=tournament,
        round_number=round_number,
        kind=tournament.bye_requests,
        requested_by=actor,
        **{_field(entry): entry},
    )
    audit(
        actor=actor,
        action="entry.ask_bye",
        obj=entry,
        tournament=tournament,
        after={"round": round_number, "scored": ask.kind},
    )
    return ask


@transaction.atomic
def withdraw_bye(*, actor, ask: ByeRequest) -> ByeRequest:
    """Take back an ask before its round is paired: the entry is paired in that round as usual."""
    require_user(actor)
    entry = ask.who
    entry, tournament = lock_entry(entry)
    ask = ByeRequest.objects.select_for_update().get(pk=ask.pk)
    if not may_ask_for(actor, entry, tournament):
        raise PermissionDenied(_("Only a player of this entry or the organiser can take back its bye."))
    if ask.withdrawn_at is not None:
        return ask
    if ask.round_number <= rounds_paired(tournament):
        raise ValidationError(
            _("Round %(n)d is already paired: its bye can no longer be taken back.") % {"n": ask.round_number}
        )
    ask.withdrawn_at, ask.withdrawn_by = timezone.now(), actor
    ask.save(update_fields=["withdrawn_at", "withdrawn_by"])
    audit(
        actor=actor,
        action="entry.withdraw_bye",
        obj=entry,
        tournament=tournament,
        before={"round": ask.round_number, "scored": ask.kind},
    )
    return ask
