"""Leaving and coming back: a pair or a player withdrawn (unplayed matches forfeited), or reinstated.

For pairs and players alike: results already reported, confirmed or disputed stay exactly as they
are, whoever withdraws; only matches nobody has reported yet are lost by forfeit so the round can
finish, and later rounds leave the entry out. Once round 1 is paired only the organiser withdraws
(a player asks, ``services.leaving``). Until round 1 is paired the organiser may bring a withdrawn
entry back (approved, or checked in once check-in has closed).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import permissions
from ..models import (
    Entry,
    EntryStatus,
    IndividualEntry,
    Match,
    RequestStatus,
    Round,
    Seat,
    Tournament,
    WithdrawalRequest,
)
from ..models import TournamentStatus as TS
from ..selectors.day import UNPLAYED
from .common import audit, lock_entry, require_manager, require_user
from .duplicate import adjust_withdrawn_boards
from .entries import (
    audit_entry,
    check_in_closed,
    entry_for_update,
    entry_state,
    full_refusal,
    held_places,
    merged_refusal,
    next_seed,
    taken_players,
    taken_refusal,
)
from .players import require_individual
from .progress import absent_side, refresh_round, set_forfeit


def _withdraw(entry, tournament: Tournament, actor, forfeits) -> set[int]:
    """Mark ``entry`` withdrawn after the rounds paired so far; forfeit each (match, loser) of
    ``forfeits`` (read after the mark) and move their rounds on."""
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_after_round = tournament.rounds.count()
    entry.save(update_fields=["status", "withdrawn_after_round"])
    field = "individual_entry" if isinstance(entry, IndividualEntry) else "entry"
    WithdrawalRequest.objects.filter(**{field: entry}, status=RequestStatus.PENDING).update(
        status=RequestStatus.GRANTED,
        decided_by=actor if actor is not None and actor.is_authenticated else None,
        decided_at=timezone.now(),
    )  # an ask still waiting is answered by the withdrawal itself
    touched = set()
    for match, loser in forfeits():
        set_forfeit(match, loser=loser, actor=actor)
        touched.add(match.round_id)
    return touched


def require_may_withdraw(actor, tournament: Tournament, *, own: bool) -> None:
    """The organiser withdraws at any time; a player his own entry only until round 1 is paired.

    After that a withdrawal forfeits his and his partner's unplayed matches and changes the next
    pairings, so a player asks the organiser instead (``services.leaving.ask_to_withdraw``).
    """
    if permissions.can_manage(actor, tournament):
        return
    if not own:
        raise PermissionDenied(_("Only the organiser or the entry itself can withdraw it."))
    if tournament.status != TS.REGISTRATION:
        raise ValidationError(
            _(
                "The tournament is under way, so only the organiser can withdraw you:"
                " ask the organiser to withdraw you from the entries page."
            )
        )


def unplayed(matches):
    """The matches of ``matches`` nobody has reported a result for: only these a withdrawal forfeits."""
    return matches.filter(UNPLAYED)


def _refresh(touched: set[int], tournament: Tournament) -> None:
    for rnd in Round.objects.filter(pk__in=touched):
        refresh_round(rnd, tournament)


@transaction.atomic
def withdraw_entry(*, actor, entry: Entry) -> Entry:
    """The pair leaves. Every result already reported (waiting, disputed or confirmed) stays as it
    is; its unplayed matches are lost by forfeit (12:0) so the round can finish; later rounds do
    not pair it. In a duplicate event the boards of its unfinished tables that have no result get
    adjusted scores instead (average minus for it, average plus for its opponents), and so do the
    boards of the tables the movement still seats it at in later rounds. A player withdraws his
    own pair only until round 1 is paired."""
    entry, tournament = entry_for_update(entry)
    require_user(actor)
    own = permissions.player_id_of(actor) in (entry.player_a_id, entry.player_b_id)
    require_may_withdraw(actor, tournament, own=own)
    if entry.status == EntryStatus.WITHDRAWN:
        return entry
    before = entry_state(entry)

    def forfeits():
        open_matches = unplayed(
            Match.objects.select_for_update().filter(
                Q(home=entry) | Q(away=entry), tournament=tournament, bye=False
            )
        )
        return [(match, entry) for match in open_matches]

    left: list[Match] = []
    if tournament.is_duplicate:  # its tables still to finish: their unplayed boards are adjusted
        left = list(unplayed(Match.objects.filter(Q(home=entry) | Q(away=entry), tournament=tournament,
                                                  bye=False)))
    touched = _withdraw(entry, tournament, actor, forfeits)
    adjust_withdrawn_boards(actor=actor, tournament=tournament, matches=left)
    audit_entry(actor, "entry.withdraw", entry, tournament, before)
    _refresh(touched, tournament)
    return entry


@transaction.atomic
def withdraw_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The player leaves: later rounds do not seat him; a table of his nobody has reported yet is
    a no-show (his partner and their opponents are scored a win, he a forfeit); every result
    already reported stays as it is. He withdraws himself only until round 1 is seated."""
    require_user(actor)
    entry, tournament = lock_entry(entry)
    require_may_withdraw(actor, tournament, own=permissions.player_id_of(actor) == entry.player_id)
    if entry.status == EntryStatus.WITHDRAWN:
        return entry

    left: list[tuple[Match, int]] = []

    def forfeits():
        open_seats = Seat.objects.select_related("match").filter(
            entry=entry, match__in=unplayed(Match.objects.filter(tournament=tournament, bye=False))
        )
        for seat in open_seats:
            match = Match.objects.select_for_update(of=("self",)).get(pk=seat.match_id)
            seat.absent = True
            seat.save(update_fields=["absent"])
            side = absent_side(match, seat)
            left.append((match, side.pk))
            yield match, side

    touched = _withdraw(entry, tournament, actor, forfeits)
    for match, side in left:  # a duplicate table's unplayed boards: average minus to his side
        adjust_withdrawn_boards(actor=actor, tournament=tournament, matches=[match], at_fault={side})
    audit(
        actor=actor,
        action="individual.withdraw",
        obj=entry,
        tournament=tournament,
        after={"status": entry.status, "after_round": entry.withdrawn_after_round},
    )
    _refresh(touched, tournament)
    return entry


# --- reinstating ---------------------------------------------------------------------------------


def reinstated_status(tournament: Tournament, rows) -> str:
    """The status a reinstated entry (a pair, or a player of an individual event) comes back with.

    Approved while check-in is open: the organiser checks it in as any other. Once check-in has
    closed nobody can check in any more, so, when check-in is in use (someone in ``rows`` checked
    in, and round 1 takes only checked-in entries), the organiser's reinstate checks it in too:
    otherwise round 1 would withdraw it again. With nobody checked in, round 1 takes every approved
    entry, and checking this one in would withdraw all the others.
    """
    if check_in_closed(tournament) and rows.filter(status=EntryStatus.CHECKED_IN).exists():
        return EntryStatus.CHECKED_IN
    return EntryStatus.APPROVED


def _coming_back(entry, tournament: Tournament, *, too_late: str) -> bool:
    """Whether a reinstate has anything to do: refused (``too_late``) once round 1 is paired, for
    the field is fixed then; nothing to do for an entry that is not withdrawn."""
    if tournament.status != TS.REGISTRATION:
        raise ValidationError(too_late)
    return entry.status == EntryStatus.WITHDRAWN


def _reinstate(entry, tournament: Tournament, rows) -> None:
    """Bring ``entry`` back: its status (``reinstated_status``), its seed if still free, no
    ``withdrawn_after_round``."""
    entry.status = reinstated_status(tournament, rows)
    if not (entry.seed and not rows.exclude(status=EntryStatus.WITHDRAWN).filter(seed=entry.seed).exists()):
        entry.seed = next_seed(rows)
    entry.withdrawn_after_round = None
    entry.save(update_fields=["status", "seed", "withdrawn_after_round"])


def _pair_refusal(tournament: Tournament, entry: Entry, *, taken: dict[int, Entry], count: int) -> str:
    """Why this withdrawn pair cannot come back ("" when it can), for the service and the page's button.

    ``taken``: players in the tournament's other pairs; ``count``: the pairs not withdrawn.
    """
    for player in (entry.player_a, entry.player_b):
        refusal = merged_refusal(player) or taken_refusal(player, taken)
        if refusal:
            return refusal
    return full_refusal(tournament, count)


def _player_refusal(tournament: Tournament, entry: IndividualEntry, *, count: int) -> str:
    """Why this withdrawn player cannot come back ("" when he can): a player has one row per
    event, so nobody else can hold his place. ``count``: the players not withdrawn."""
    return merged_refusal(entry.player) or full_refusal(tournament, count)


def reinstatable_entries(tournament: Tournament) -> set[int]:
    """The withdrawn pairs the organiser may reinstate now (the page shows "Reinstate" for these)."""
    if tournament.status != TS.REGISTRATION:
        return set()
    withdrawn = list(
        tournament.entries.filter(status=EntryStatus.WITHDRAWN).select_related("player_a", "player_b")
    )
    if not withdrawn:
        return set()
    taken = taken_players(tournament)
    count = held_places(tournament)
    return {e.pk for e in withdrawn if not _pair_refusal(tournament, e, taken=taken, count=count)}


def reinstatable_players(tournament: Tournament) -> set[int]:
    """The withdrawn players the organiser may reinstate now (the page shows "Reinstate" for these)."""
    if tournament.status != TS.REGISTRATION:
        return set()
    withdrawn = list(
        tournament.individual_entries.filter(status=EntryStatus.WITHDRAWN).select_related("player")
    )
    if not withdrawn:
        return set()
    count = tournament.individual_entries.exclude(status=EntryStatus.WITHDRAWN).count()
    return {e.pk for e in withdrawn if not _player_refusal(tournament, e, count=count)}


@transaction.atomic
def reinstate_entry(*, actor, entry: Entry) -> Entry:
    """The organiser brings a withdrawn pair back before round 1 is paired: a pair the check-in
    closing withdrew that arrived a little late, or one withdrawn by mistake.

    It comes back approved, or checked in once check-in has closed (``reinstated_status``), keeps
    its seed if free, and loses ``withdrawn_after_round``. Reinstating a pair that is not withdrawn
    changes nothing. Refused once round 1 is paired (the field is fixed then; mid-Swiss a returning
    pair would break the pairings), when one of its players has joined another pair meanwhile, or
    when the tournament is full.
    """
    entry, tournament = lock_entry(entry)  # a reinstate racing round 1's pairing waits, then is refused
    require_manager(actor, tournament)
    if tournament.is_individual:
        raise ValidationError(
            _("In an individual event partnerships change every round; reinstate the player instead.")
        )
    too_late = _(
        "Round 1 is already paired, so a withdrawn pair cannot come back: the rounds are drawn"
        " from the field fixed at round 1, and a pair returning now would break the pairings."
    )
    if not _coming_back(entry, tournament, too_late=too_late):
        return entry
    refusal = _pair_refusal(
        tournament,
        entry,
        taken=taken_players(tournament, exclude_entry=entry.pk),
        count=held_places(tournament),
    )
    if refusal:
        raise ValidationError(refusal)
    before = entry_state(entry)
    _reinstate(entry, tournament, tournament.entries)
    audit_entry(actor, "entry.reinstate", entry, tournament, before)
    return entry


@transaction.atomic
def reinstate_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The organiser brings a withdrawn player back before round 1 is seated, as ``reinstate_entry``
    does a pair: approved, or checked in once check-in has closed; his seed kept if free; a player
    not withdrawn is left as he is; refused once round 1 is seated, or when the event is full.

    Registering him again (``register_player``) also gives his row back, but approved only: after
    check-in has closed, round 1 would withdraw him again.
    """
    entry, tournament = lock_entry(entry)
    require_manager(actor, tournament)
    require_individual(tournament)
    too_late = _(
        "Round 1 is already seated, so a withdrawn player cannot come back: the rounds are"
        " drawn from the field fixed at round 1, and a player returning now would break the seating."
    )
    if not _coming_back(entry, tournament, too_late=too_late):
        return entry
    rows = tournament.individual_entries
    refusal = _player_refusal(tournament, entry, count=rows.exclude(status=EntryStatus.WITHDRAWN).count())
    if refusal:
        raise ValidationError(refusal)
    before = {"status": entry.status, "seed": entry.seed, "after_round": entry.withdrawn_after_round}
    _reinstate(entry, tournament, rows)
    audit(
        actor=actor,
        action="individual.reinstate",
        obj=entry,
        tournament=tournament,
        before=before,
        after={"status": entry.status, "seed": entry.seed, "after_round": None},
    )
    return entry
