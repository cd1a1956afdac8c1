"""Requested byes as a page shows them: whether the event grants them, the rounds still open to an
ask, the entries a viewer may ask for (his own; every playing one for the organiser) and their asks."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import permissions
from ..formats import format_of
from ..models import ACTIVE_STATUSES, ByeRequest, Tournament, TournamentStatus


def rounds_paired(tournament: Tournament) -> int:
    return tournament.rounds.count()


def open_rounds(tournament: Tournament, paired: int | None = None) -> list[int]:
    """The rounds an entry may still ask to sit out: not paired, not among the last the event keeps."""
    if not tournament.bye_requests or not format_of(tournament).grants_byes:
        return []
    if tournament.status == TournamentStatus.FINISHED:
        return []
    paired = rounds_paired(tournament) if paired is None else paired
    last = tournament.swiss_rounds - tournament.bye_requests_not_last
    return list(range(paired + 1, last + 1))


@dataclass
class ByeDesk:
    """What the requested byes' card shows one viewer. Empty ``entries``: nothing to show him."""

    rounds: list[int] = field(default_factory=list)
    entries: list = field(default_factory=list)
    """Entries he may ask for, with ``asks`` (their asks not taken back) set on each."""
    paired: int = 0
    organiser: bool = False


def bye_desk(*, tournament: Tournament, user) -> ByeDesk:
    """The viewer's entries and their asks (three queries). A player sees only his own entry's; the
    organiser every entry still playing, and each ask with the pair's name."""
    if not tournament.bye_requests or not format_of(tournament).grants_byes or not user.is_authenticated:
        return ByeDesk()
    organiser = permissions.can_manage(user, tournament)
    individual = tournament.is_individual
    rows = format_of(tournament).entry_rows().filter(status__in=ACTIVE_STATUSES)
    if not organiser:
        pid = permissions.player_id_of(user)
        if pid is None:
            return ByeDesk()
        rows = (
            rows.filter(player_id=pid)
            if individual
            else rows.filter(player_a_id=pid) | rows.filter(player_b_id=pid)
        )
    entries = list(rows.order_by("seed", "id"))
    if not entries:
        return ByeDesk()
    column = "individual_entry_id" if individual else "entry_id"
    asks = ByeRequest.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, **{f"{column}__in": [e.pk for e in entries]}
    )
    by_entry: dict[int, list[ByeRequest]] = {}
    for ask in asks.order_by("round_number"):
        by_entry.setdefault(getattr(ask, column), []).append(ask)
    for e in entries:
        e.asks = by_entry.get(e.pk, [])
    paired = rounds_paired(tournament)
    return ByeDesk(
        rounds=open_rounds(tournament, paired), entries=entries, paired=paired, organiser=organiser
    )


def sitting_out(*, tournament: Tournament, number: int) -> list:
    """The entries (pairs, or players) that asked to sit out round ``number``, for the organiser's
    pairing button: they are left out when it is paired. One query."""
    if not tournament.bye_requests and not ByeRequest.objects.filter(tournament=tournament).exists():
        return []
    asks = ByeRequest.objects.filter(tournament=tournament, round_number=number, withdrawn_at__isnull=True)
    asks = asks.select_related("entry__player_a", "entry__player_b", "individual_entry__player")
    return [ask.who for ask in asks]
