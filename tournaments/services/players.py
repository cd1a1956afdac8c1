"""Players of an individual event: entered by the organiser or pasted, self-registered, approved, checked in.

Each player enters alone (``IndividualEntry``) and has one row per event: one who withdrew and is
entered again gets his row back. The checks are those pairs have (``entries``). A player who leaves
a running event may be replaced by a substitute, who plays his seats from a given round on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player

from ..models import Entry, EntryStatus, IndividualEntry, MatchStatus, Seat, Tournament, TournamentStatus
from .common import audit, lock_entry, lock_tournament, require_manager, require_user
from .entries import check_in, full_refusal, merged_refusal, next_seed, refuse_late, refuse_self_registration
from .fees import write_payment
from .paste import RosterNames, line_error, parse_name_lines
from .watching import bar_event_players


def require_individual(tournament: Tournament) -> None:
    if not tournament.is_individual:
        raise ValidationError(_("This tournament is for fixed pairs; players enter it as pairs."))


def _check_player_can_enter(tournament: Tournament, player: Player) -> bool:
    """Raise for a player who cannot enter; return True for a late entry."""
    require_individual(tournament)
    refusal = merged_refusal(player)
    if refusal:
        raise ValidationError(refusal)
    if tournament.individual_entries.filter(player=player).exclude(status=EntryStatus.WITHDRAWN).exists():
        raise ValidationError(
            _("%(name)s is already registered in this tournament.") % {"name": player.display_name}
        )
    refuse_late(tournament)
    refusal = full_refusal(
        tournament, tournament.individual_entries.exclude(status=EntryStatus.WITHDRAWN).count()
    )
    if refusal:
        raise ValidationError(refusal)
    return tournament.status == TournamentStatus.RUNNING


def _add_player(
    actor, tournament: Tournament, player: Player, status: str = EntryStatus.APPROVED
) -> IndividualEntry:
    late = _check_player_can_enter(tournament, player)
    # a player who withdrew and comes back gets his row back
    entry = tournament.individual_entries.filter(player=player).first()
    if entry is None:
        entry = IndividualEntry(tournament=tournament, player=player, registered_by=actor)
    entry.status = status
    entry.withdrawn_after_round = None
    seeded = late or tournament.status == TournamentStatus.REGISTRATION
    entry.seed = next_seed(tournament.individual_entries) if seeded else 0
    entry.save()
    audit(
        actor=actor,
        action="individual.enter",
        obj=entry,
        tournament=tournament,
        after={"player": player.pk, "seed": entry.seed, "late": late, "status": status},
    )
    return entry


@transaction.atomic
def register_player(*, actor, tournament: Tournament, player: Player) -> IndividualEntry:
    """The organiser enters a player (with or without an account)."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    return _add_player(actor, tournament, player)


@dataclass
class BulkPlayers:
    entries: list[IndividualEntry]
    skipped: list[str]
    """A message for each line left out: a player repeated in the list, or already entered."""


@transaction.atomic
def register_players_bulk(*, actor, tournament: Tournament, text: str) -> BulkPlayers:
    """Paste one name a line (a list's numbers "1.", "2)", "3 -" are dropped). Roster names match in
    any alphabet; other names become roster players. A player repeated in the list, or already
    entered, is reported by line and the rest entered, as the roster's paste does; any other bad
    line refuses the whole paste."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    require_individual(tournament)
    names = parse_name_lines(text)
    roster = RosterNames(tournament.club)
    result, errors = BulkPlayers([], []), []
    first_line: dict[int, int] = {}
    for number, name in names:
        player, _new = roster.find_or_add(actor=actor, number=number, name=name, errors=errors)
        if player is None:
            continue
        if player.pk in first_line:
            result.skipped.append(
                _("Line %(n)d: %(name)s is already on line %(first)d; entered once.")
                % {"n": number, "name": player.display_name, "first": first_line[player.pk]}
            )
            continue
        first_line[player.pk] = number
        if tournament.individual_entries.filter(player=player).exclude(status=EntryStatus.WITHDRAWN).exists():
            result.skipped.append(
                _("Line %(n)d: %(name)s is already registered in this tournament.")
                % {"n": number, "name": player.display_name}
            )
            continue
        try:
            result.entries.append(_add_player(actor, tournament, player))
        except ValidationError as error:
            errors.append(line_error(number, error))
    if errors:
        raise ValidationError(errors)
    return result


@transaction.atomic
def self_register_player(*, actor, tournament: Tournament) -> IndividualEntry:
    """A player enters himself where the organiser allows it; the organiser approves."""
    require_user(actor)
    tournament = lock_tournament(tournament)
    me = refuse_self_registration(actor, tournament)
    return _add_player(actor, tournament, me, EntryStatus.PENDING)


@transaction.atomic
def approve_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The organiser takes a player who registered himself (a late entry once the event runs)."""
    entry, tournament = lock_entry(entry)
    require_manager(actor, tournament)
    if entry.status != EntryStatus.PENDING:
        return entry
    refuse_late(tournament)
    entry.status = EntryStatus.APPROVED
    if tournament.status == TournamentStatus.RUNNING:
        entry.seed = next_seed(tournament.individual_entries)
    entry.save(update_fields=["status", "seed"])
    audit(
        actor=actor, action="individual.approve", obj=entry, tournament=tournament, after={"seed": entry.seed}
    )
    return entry


@transaction.atomic
def check_in_player(
    *, actor, entry: IndividualEntry, paid: str = "", amount: int | None = None
) -> IndividualEntry:
    """The player is at the venue. Once anyone has checked in, round 1 seats only checked-in players.
    ``paid`` (when given) writes down his entry fee in the same step (``fees``)."""
    entry, tournament = lock_entry(entry)
    if check_in(actor, entry, tournament, too_late=_("Check-in closes when the first round is seated.")):
        audit(
            actor=actor,
            action="individual.check_in",
            obj=entry,
            tournament=tournament,
            after={"status": entry.status},
        )
    if paid:
        write_payment(actor, entry, tournament, paid=paid, amount=amount)
    return entry


# --- substitutes ---------------------------------------------------------------------------------


def _substitute_refusal(tournament: Tournament, entry: IndividualEntry, player: Player) -> str:
    """Why ``player`` cannot come in for ``entry`` (empty when he can)."""
    if player.pk == entry.player_id:
        return _("A player cannot substitute for himself.")
    refusal = merged_refusal(player)
    if refusal:
        return refusal
    row = tournament.individual_entries.filter(player=player).first()
    if row is None:
        return ""
    if row.status == EntryStatus.WITHDRAWN:
        return _("%(name)s has already played in this event; choose someone who is not entered.") % {
            "name": player.display_name
        }
    return _("%(name)s is already in this event; a substitute must be someone not entered.") % {
        "name": player.display_name
    }


def _check_from_round(tournament: Tournament, entry: IndividualEntry, from_round: int) -> None:
    """The substitute takes the seats from ``from_round`` on: a round not seated yet, or one whose
    table of the player has no confirmed result."""
    paired = tournament.rounds.count()
    last = min(paired + 1, tournament.swiss_rounds)
    if not 1 <= from_round <= last:
        raise ValidationError(
            _("Choose a round from 1 to %(last)d for the substitute to come in.") % {"last": last}
        )
    played = (
        Seat.objects.filter(entry=entry, round__number__gte=from_round, match__status=MatchStatus.CONFIRMED)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    if played is not None:
        raise ValidationError(
            _(
                "%(name)s's table in round %(n)d already has a confirmed result; the substitute can"
                " come in from round %(next)d."
            )
            % {"name": entry.player.display_name, "n": played, "next": played + 1}
        )


@transaction.atomic
def substitute_player(
    *, actor, entry: IndividualEntry, from_round: int, player: Player | None = None, name: str = ""
) -> IndividualEntry:
    """A substitute (a roster player not entered, or a new name) plays the seats of a player who left,
    from round ``from_round`` on: the seats already drawn for those rounds pass to him, later rounds
    seat him where the player would have sat (same seed). The player who left is withdrawn and
    keeps the games he played; the substitute is a player of his own in the standings, marked."""
    entry, tournament = lock_entry(entry)
    require_manager(actor, tournament)
    require_individual(tournament)
    if tournament.status != TournamentStatus.RUNNING or entry.seed == 0:
        raise ValidationError(
            _("A substitute comes in for a player of a running event; before round 1, enter the new player.")
        )
    replaced = entry.substitutes.select_related("player").first()
    if replaced is not None:
        raise ValidationError(
            _("%(name)s has already been replaced by %(sub)s.")
            % {"name": entry.player.display_name, "sub": replaced.player.display_name}
        )
    if player is None:
        errors: list = []
        clean = " ".join((name or "").split())[:120]
        if not clean:
            raise ValidationError(_("Choose a roster player or write the substitute's name."))
        for row in tournament.individual_entries.select_related("player"):  # a roster may hold namesakes
            if " ".join(row.player.display_name.split()).casefold() == clean.casefold():
                raise ValidationError(_substitute_refusal(tournament, entry, row.player))
        player, _new = RosterNames(tournament.club).find_or_add(
            actor=actor, number=1, name=clean, errors=errors
        )
        if player is None:
            raise ValidationError(errors)
    refusal = _substitute_refusal(tournament, entry, player)
    if refusal:
        raise ValidationError(refusal)
    _check_from_round(tournament, entry, from_round)
    before = {"status": entry.status, "after_round": entry.withdrawn_after_round}
    if entry.status != EntryStatus.WITHDRAWN:
        entry.status = EntryStatus.WITHDRAWN
        entry.withdrawn_after_round = from_round - 1
        entry.save(update_fields=["status", "withdrawn_after_round"])
    sub = IndividualEntry.objects.create(
        tournament=tournament,
        player=player,
        status=EntryStatus.APPROVED,
        seed=entry.seed,
        substitute_for=entry,
        from_round=from_round,
        registered_by=actor,
    )
    moved = []
    for seat in Seat.objects.filter(entry=entry, round__number__gte=from_round).select_related("match"):
        seat.entry, seat.absent = sub, False
        seat.save(update_fields=["entry", "absent"])
        moved.append(seat.round_id)
        if seat.match is not None:  # his partnership at that table now has the substitute in it
            Entry.objects.filter(
                pk__in=(seat.match.home_id, seat.match.away_id), player_a=entry.player
            ).update(player_a=player)
            Entry.objects.filter(
                pk__in=(seat.match.home_id, seat.match.away_id), player_b=entry.player
            ).update(player_b=player)
    if tournament.is_duplicate:  # he now plays the boards too: he may no longer watch them
        bar_event_players(tournament)
    audit(
        actor=actor,
        action="individual.substitute",
        obj=sub,
        tournament=tournament,
        before=before,
        after={
            "out": entry.player_id,
            "in": player.pk,
            "from_round": from_round,
            "seats_moved": len(moved),
        },
    )
    return sub
