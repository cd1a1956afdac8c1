"""Who enters: the checks pairs and players share, and pairs registered, approved, checked in, seeded.

Fixed pairs enter as an ``Entry``; in an individual event each player enters alone as an
``IndividualEntry``. The steps are the same for both and share one set of checks here (a merged
player, a finished event, a late entry the format does not take, a full event); the pairs'
own steps (a partner, seeding by hand, substitutes) and the players' own are beside them.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Player

from ..formats import format_of
from ..models import (
    ACTIVE_STATUSES,
    DaySettings,
    Entry,
    EntryStatus,
    Substitution,
    Tournament,
    TournamentStatus,
)
from .common import audit, lock_entry, lock_tournament, require_manager
from .fees import write_payment
from .notices import notify

# --- the checks pairs and players share ----------------------------------------------------------


def next_seed(rows) -> int:
    """The seed after the last one of ``rows`` (a tournament's pairs or its players)."""
    last = rows.order_by("-seed").values_list("seed", flat=True).first()
    return (last or 0) + 1


def merged_refusal(player: Player) -> str:
    """Why a player merged into another record cannot enter ("" when he is not)."""
    if player.merged_into_id is None:
        return ""
    return _("%(name)s was merged into another player record.") % {"name": player.display_name}


def full_refusal(tournament: Tournament, count: int) -> str:
    """Why one more cannot enter when ``count`` are in already ("" when there is room)."""
    if tournament.entry_cap is None or count < tournament.entry_cap:
        return ""
    if tournament.is_individual:
        return _("The tournament is full: %(cap)d players at most.") % {"cap": tournament.entry_cap}
    return _("The tournament is full: %(cap)d pairs at most.") % {"cap": tournament.entry_cap}


def refuse_late(tournament: Tournament) -> None:
    """Refuse a finished event, a started one whose format takes no late entries, and one whose
    last round is paired (``TournamentFormat.takes_late_entries``, the rule every page shows too)."""
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    if tournament.status != TournamentStatus.RUNNING:
        return
    event_format = format_of(tournament)
    if event_format.late_entries and not event_format.takes_late_entries():
        raise ValidationError(_("It is too late to enter: every round is paired."))
    if not event_format.late_entries:
        if tournament.is_individual:
            raise ValidationError(
                _("Late entries are possible only in Swiss rounds; this movement has started.")
            )
        raise ValidationError(
            _("Late entries are possible only in a Swiss tournament; this one has started.")
        )


def check_in_closed(tournament: Tournament) -> bool:
    """Check-in closes at the time the organiser set in the day settings (the plan that withdraws
    the pairs that did not come runs then, ``services.day.close_check_in``). Until round 1 is paired
    the organiser reopens it by moving that time later or clearing it."""
    closes = (
        DaySettings.objects.filter(tournament_id=tournament.pk)
        .values_list("check_in_closes_at", flat=True)
        .first()
    )
    return closes is not None and closes <= timezone.now()


def refuse_closed_check_in(tournament: Tournament, *, too_late: str) -> None:
    """Raise once check-in is over: ``too_late`` after round 1 is paired (the field is fixed), or
    the day settings' closing time has passed. For pairs and individual events alike."""
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(too_late)
    if check_in_closed(tournament):
        raise ValidationError(
            _("Check-in is closed. To reopen it, move its closing time in the day settings.")
        )


def check_in(actor, entry, tournament: Tournament, *, too_late: str) -> bool:
    """The shared step of checking in: refused once check-in is over, a no-op unless approved or pending."""
    require_manager(actor, tournament)
    refuse_closed_check_in(tournament, too_late=too_late)
    if entry.status not in (EntryStatus.APPROVED, EntryStatus.PENDING):
        return False
    entry.status = EntryStatus.CHECKED_IN
    entry.save(update_fields=["status"])
    return True


# --- pairs ---------------------------------------------------------------------------------------


def taken_players(tournament: Tournament, *, exclude_entry: int | None = None) -> dict[int, Entry]:
    """Players already in a pair of this tournament (withdrawn pairs free their players, and a pair
    waiting for its partner holds only the player who registered it)."""
    taken: dict[int, Entry] = {}
    qs = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player_a", "player_b")
    for entry in qs:
        if entry.pk == exclude_entry:
            continue
        taken[entry.player_a_id] = entry
        if entry.status != EntryStatus.PARTNER:  # the partner asked is free until she accepts
            taken[entry.player_b_id] = entry
    for sub in Substitution.objects.filter(entry__tournament=tournament).exclude(
        entry__status=EntryStatus.WITHDRAWN
    ):
        taken.setdefault(sub.player_in_id, sub.entry)
    return taken


def taken_refusal(player: Player, taken: dict[int, Entry]) -> str:
    if player.pk not in taken:
        return ""
    return _("%(name)s is already registered in this tournament (pair %(pair)s).") % {
        "name": player.display_name,
        "pair": taken[player.pk].name,
    }


def held_places(tournament: Tournament) -> int:
    """The pairs that hold a place against the event's cap: all but the withdrawn and those still
    waiting for their partner to accept."""
    return tournament.entries.exclude(status__in=(EntryStatus.WITHDRAWN, EntryStatus.PARTNER)).count()


def check_can_enter(tournament: Tournament, a: Player, b: Player, *, taken: dict[int, Entry]) -> bool:
    """Raise for a pair that cannot enter; return True when it is a late entry."""
    if tournament.is_individual:
        raise ValidationError(_("In an individual event players enter alone."))
    if a.pk == b.pk:
        raise ValidationError(_("A pair is two different players."))
    for p in (a, b):
        refusal = merged_refusal(p) or taken_refusal(p, taken)
        if refusal:
            raise ValidationError(refusal)
    refuse_late(tournament)
    refusal = full_refusal(tournament, held_places(tournament))
    if refusal:
        raise ValidationError(refusal)
    return tournament.status == TournamentStatus.RUNNING


def entry_state(entry: Entry) -> dict:
    return {
        "player_a": entry.player_a_id,
        "player_b": entry.player_b_id,
        "status": entry.status,
        "seed": entry.seed,
        "late": entry.late,
    }


def audit_entry(actor, action: str, entry: Entry, tournament: Tournament, before: dict | None = None) -> None:
    """The audit row of a change to a pair: its state before (when it had one) and after."""
    audit(
        actor=actor, action=action, obj=entry, tournament=tournament, before=before, after=entry_state(entry)
    )


def new_entry(actor, tournament: Tournament, a: Player, b: Player, status: str, *, late: bool) -> Entry:
    entry = Entry.objects.create(
        tournament=tournament,
        player_a=a,
        player_b=b,
        status=status,
        seed=next_seed(tournament.entries),
        late=late,
        registered_by=actor,
    )
    if status != EntryStatus.PARTNER:
        lapse_requests(actor, tournament, (a.pk, b.pk), keep=entry.pk)
    return entry


def entries_url(tournament: Tournament, entry: Entry) -> str:
    return reverse("tournaments:entries", kwargs={"slug": tournament.slug}) + f"#entry-{entry.pk}"


def lapse_requests(actor, tournament: Tournament, player_ids, *, keep: int) -> None:
    """A player asked to be someone's partner has entered in another pair (``keep``): the requests
    still waiting for her lapse (withdrawn) and whoever made them is told."""
    waiting = (
        tournament.entries.filter(status=EntryStatus.PARTNER, player_b_id__in=list(player_ids))
        .exclude(pk=keep)
        .select_related("player_a__user", "player_b")
    )
    for entry in waiting:
        before = entry_state(entry)
        entry.status = EntryStatus.WITHDRAWN
        entry.save(update_fields=["status"])
        audit_entry(actor, "entry.lapse", entry, tournament, before)
        if entry.player_a.user is not None:
            notify(
                entry.player_a.user,
                kind="entry.lapsed",
                text=lambda e=entry: (
                    _(
                        "%(partner)s has entered %(tournament)s in another pair, so your request to play"
                        " together has lapsed. You can register with someone else."
                    )
                    % {"partner": e.player_b.display_name, "tournament": tournament.name}
                ),
                url=entries_url(tournament, entry),
                key=f"entry-lapsed-{entry.pk}",
            )


def register_pair(actor, tournament: Tournament, a: Player, b: Player, status: str) -> Entry:
    """A new pair after every check, with its audit row (the tournament locked by the caller)."""
    late = check_can_enter(tournament, a, b, taken=taken_players(tournament))
    entry = new_entry(actor, tournament, a, b, status, late=late)
    audit_entry(actor, "entry.create", entry, tournament)
    return entry


@transaction.atomic
def register_entry(*, actor, tournament: Tournament, player_a: Player, player_b: Player) -> Entry:
    """The organiser registers a pair (players with or without accounts); it is approved at once."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    return register_pair(actor, tournament, player_a, player_b, EntryStatus.APPROVED)


def refuse_self_registration(actor, tournament: Tournament) -> Player:
    """A player registering himself, where the organiser allows it: his player record."""
    if not tournament.self_registration:
        raise PermissionDenied(_("This tournament takes entries from the organiser only."))
    return club_services.ensure_player_for_user(user=actor)


def entry_for_update(entry: Entry) -> tuple[Entry, Tournament]:
    """Lock a pair for a change only fixed pairs have; an individual event's partnerships refuse it."""
    entry, tournament = lock_entry(entry)
    if tournament.is_individual:
        raise ValidationError(
            _("In an individual event partnerships change every round; withdraw the player instead.")
        )
    return entry, tournament


@transaction.atomic
def approve_entry(*, actor, entry: Entry) -> Entry:
    """The organiser takes a pair that registered itself, if there is room. Once the event runs,
    only a format that takes late entries takes it: a late entry at the end of the seeding.

    A pair still waiting for its partner is confirmed for her too (she is told): the organiser
    may register any pair himself. Her other requests lapse."""
    entry, tournament = entry_for_update(entry)
    require_manager(actor, tournament)
    if entry.status not in (EntryStatus.PENDING, EntryStatus.PARTNER):
        return entry
    for_partner = entry.status == EntryStatus.PARTNER
    if for_partner:
        refusal = taken_refusal(entry.player_b, taken_players(tournament, exclude_entry=entry.pk))
        if refusal:
            raise ValidationError(refusal)
    refusal = full_refusal(tournament, tournament.entries.filter(status__in=ACTIVE_STATUSES).count())
    if refusal:
        raise ValidationError(refusal)
    before = entry_state(entry)
    entry.status = EntryStatus.APPROVED
    if tournament.status == TournamentStatus.RUNNING:
        refuse_late(tournament)
        entry.late, entry.seed = True, next_seed(tournament.entries)
    entry.save(update_fields=["status", "late", "seed"])
    audit_entry(actor, "entry.approve", entry, tournament, before)
    if for_partner:
        lapse_requests(actor, tournament, (entry.player_b_id,), keep=entry.pk)
        partner = entry.player_b.user
        if partner is not None and partner.pk != actor.pk:
            notify(
                partner,
                kind="entry.partner_confirmed",
                text=lambda: (
                    _("The organiser of %(tournament)s entered you in the pair %(pair)s.")
                    % {"tournament": tournament.name, "pair": entry.name}
                ),
                url=entries_url(tournament, entry),
                key=f"entry-confirmed-{entry.pk}",
            )
    return entry


@transaction.atomic
def move_entry(*, actor, entry: Entry, up: bool) -> Entry:
    """Manual seeding: swap the pair with the one above (or below) it before the first round."""
    entry, tournament = entry_for_update(entry)
    require_manager(actor, tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(_("The seeding is fixed once the first round is paired."))
    order = list(tournament.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("seed", "id"))
    index = next(i for i, e in enumerate(order) if e.pk == entry.pk)
    other_index = index - 1 if up else index + 1
    if not 0 <= other_index < len(order):
        return entry
    order[index], order[other_index] = order[other_index], order[index]
    for number, e in enumerate(order, start=1):
        if e.seed != number:
            Entry.objects.filter(pk=e.pk).update(seed=number)
    entry.refresh_from_db()
    audit(actor=actor, action="entry.move", obj=entry, tournament=tournament, after={"seed": entry.seed})
    return entry


@transaction.atomic
def check_in_entry(*, actor, entry: Entry, paid: str = "", amount: int | None = None) -> Entry:
    """The pair is at the venue. Once anyone has checked in, round 1 pairs only checked-in pairs.
    ``paid`` (when given) writes down its entry fee in the same step (``fees``)."""
    entry, tournament = entry_for_update(entry)
    before = entry_state(entry)
    if entry.status == EntryStatus.PARTNER:
        require_manager(actor, tournament)
        raise ValidationError(
            _("%(partner)s has not accepted this pair yet: approve it for them first, then check it in.")
            % {"partner": entry.player_b.display_name}
        )
    if check_in(actor, entry, tournament, too_late=_("Check-in closes when the first round is paired.")):
        audit_entry(actor, "entry.check_in", entry, tournament, before)
    if paid:
        write_payment(actor, entry, tournament, paid=paid, amount=amount)
    return entry
