"""Every change to an individual event (issue 6): players entering alone, seating rounds, no-shows, withdrawals.

Same contract as ``tournaments.services``: keyword-only arguments, one transaction, the
permission check, an audit row, refusals as ValidationError with a message for the page. A
round's table is a ``Match`` between two partnership ``Entry`` rows (seed 0), so results are
entered, confirmed, disputed and corrected by the pairs services unchanged;
``services.pair_next_round`` hands individual events to ``pair_next_individual_round``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Player

from . import permissions
from .core.individual import (
    IndividualPlayer,
    IndividualRound,
    Table,
    TableResult,
    individual_standings,
    movement,
    seat_swiss_round,
)
from .core.standings import MatchPoints
from .models import (
    Entry,
    EntryStatus,
    Format,
    IndividualEntry,
    Match,
    MatchStatus,
    Round,
    Seat,
    SeatName,
    Seeding,
    Tournament,
    TournamentStatus,
)
from .services import (
    _audit,
    _free_seed,
    _last_round_if_complete,
    _lock,
    _on_commit_task,
    _refresh_round,
    _require_manager,
    _require_user,
    _RosterNames,
    _set_forfeit,
    matchday_deadline,
    record_forfeit,
    refuse_closed_check_in,
    reinstated_status,
)

ACTIVE = (EntryStatus.APPROVED, EntryStatus.CHECKED_IN)
TABLE_SEATS = (SeatName.NORTH, SeatName.SOUTH, SeatName.EAST, SeatName.WEST)


def _player_for_update(entry: IndividualEntry) -> tuple[IndividualEntry, Tournament]:
    """Lock the event, then the player's row: the order round 1's seating and the check-in closing
    plan take them in, so a click racing them waits instead of deadlocking."""
    tournament = _lock(Tournament(pk=entry.tournament_id))
    return IndividualEntry.objects.select_for_update().select_related("player").get(pk=entry.pk), tournament


def _require_individual(tournament: Tournament) -> None:
    if not tournament.is_individual:
        raise ValidationError(_("This tournament is for fixed pairs; players enter it as pairs."))


# --- the state of an event, for the seater and the standings ------------------------------------


@dataclass
class IndividualState:
    """The rounds as the core sees them, the confirmed tables and the byes, from the seat rows."""

    rounds: list[IndividualRound] = field(default_factory=list)
    results: list[TableResult] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


def individual_state(tournament: Tournament) -> IndividualState:
    """Two queries: every seat (with its match) of the event, rebuilt into core rounds and results.

    A no-show counts only while the table's result is a forfeit: a correction to a played score
    takes the absence back.
    """
    seats = Seat.objects.filter(round__tournament=tournament).select_related("round", "match")
    by_round: dict[int, dict[int, dict[str, Seat]]] = defaultdict(lambda: defaultdict(dict))
    byes: dict[int, list[int]] = defaultdict(list)
    for s in seats:
        if s.seat == SeatName.BYE:
            byes[s.round.number].append(s.entry_id)
        else:
            by_round[s.round.number][s.table][s.seat] = s
    state = IndividualState()
    for number in sorted(set(by_round) | set(byes)):
        tables = []
        for table_no in sorted(by_round[number]):
            at = by_round[number][table_no]
            if len(at) != 4:
                continue
            table = Table(*(at[k].entry_id for k in TABLE_SEATS))
            tables.append(table)
            match = at[SeatName.NORTH].match
            if match is None or match.status != MatchStatus.CONFIRMED:
                continue
            absent = frozenset(s.entry_id for s in at.values() if s.absent) if match.forfeit else frozenset()
            if absent:
                state.results.append(TableResult(table=table, absent=absent))
            else:
                state.results.append(
                    TableResult(
                        table=table,
                        ns_eyes=match.home_eyes,
                        ew_eyes=match.away_eyes,
                        winner="NS" if match.winner_id == match.home_id else "EW",
                    )
                )
        state.rounds.append(IndividualRound(number=number, tables=tuple(tables), byes=tuple(byes[number])))
        state.byes.extend(byes[number])
    return state


def points_of(tournament: Tournament) -> MatchPoints:
    return MatchPoints(win=tournament.points_win, loss=tournament.points_loss, bye=tournament.points_bye)


def individual_round_count(tournament: Tournament) -> int:
    """Both formats play ``swiss_rounds`` rounds (the organiser sets how many; a full movement
    needs n-1 for an even field, n for an odd one, to partner everyone once)."""
    return tournament.swiss_rounds


# --- entries ---------------------------------------------------------------------------------------


def _next_seed(tournament: Tournament) -> int:
    last = tournament.individual_entries.order_by("-seed").values_list("seed", flat=True).first()
    return (last or 0) + 1


def _check_can_enter(tournament: Tournament, player: Player) -> bool:
    """Raise for a player who cannot enter; return True for a late entry."""
    _require_individual(tournament)
    if player.merged_into_id is not None:
        raise ValidationError(
            _("%(name)s was merged into another player record.") % {"name": player.display_name}
        )
    if tournament.individual_entries.filter(player=player).exclude(status=EntryStatus.WITHDRAWN).exists():
        raise ValidationError(
            _("%(name)s is already registered in this tournament.") % {"name": player.display_name}
        )
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    if tournament.status == TournamentStatus.RUNNING and tournament.format != Format.INDIVIDUAL_SWISS:
        raise ValidationError(_("Late entries are possible only in Swiss rounds; this movement has started."))
    if tournament.entry_cap is not None:
        count = tournament.individual_entries.exclude(status=EntryStatus.WITHDRAWN).count()
        if count >= tournament.entry_cap:
            raise ValidationError(
                _("The tournament is full: %(cap)d players at most.") % {"cap": tournament.entry_cap}
            )
    return tournament.status == TournamentStatus.RUNNING


def _add_entry(
    actor, tournament: Tournament, player: Player, status: str = EntryStatus.APPROVED
) -> IndividualEntry:
    late = _check_can_enter(tournament, player)
    # a player who withdrew and comes back gets his row back
    entry = tournament.individual_entries.filter(player=player).first()
    if entry is None:
        entry = IndividualEntry(tournament=tournament, player=player, registered_by=actor)
    entry.status = status
    entry.withdrawn_after_round = None
    entry.seed = _next_seed(tournament) if late or tournament.status == TournamentStatus.REGISTRATION else 0
    entry.save()
    _audit(
        actor=actor,
        action="individual.enter",
        obj=entry,
        tournament=tournament,
        after={"player": player.pk, "seed": entry.seed, "late": late, "status": status},
    )
    return entry


@transaction.atomic
def self_register_player(*, actor, tournament: Tournament) -> IndividualEntry:
    """A player enters himself where the organiser allows it; the organiser approves."""
    _require_user(actor)
    tournament = _lock(tournament)
    if not tournament.self_registration:
        raise PermissionDenied(_("This tournament takes entries from the organiser only."))
    me = club_services.ensure_player_for_user(user=actor)
    return _add_entry(actor, tournament, me, EntryStatus.PENDING)


@transaction.atomic
def check_in_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The player is at the venue. Once anyone has checked in, round 1 seats only checked-in players."""
    entry, tournament = _player_for_update(entry)
    _require_manager(actor, tournament)
    refuse_closed_check_in(tournament, too_late=_("Check-in closes when the first round is seated."))
    if entry.status not in (EntryStatus.APPROVED, EntryStatus.PENDING):
        return entry
    entry.status = EntryStatus.CHECKED_IN
    entry.save(update_fields=["status"])
    _audit(
        actor=actor,
        action="individual.check_in",
        obj=entry,
        tournament=tournament,
        after={"status": entry.status},
    )
    return entry


@transaction.atomic
def approve_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    entry, tournament = _player_for_update(entry)
    _require_manager(actor, tournament)
    if entry.status != EntryStatus.PENDING:
        return entry
    if tournament.status == TournamentStatus.RUNNING and tournament.format != Format.INDIVIDUAL_SWISS:
        raise ValidationError(_("Late entries are possible only in Swiss rounds; this movement has started."))
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    entry.status = EntryStatus.APPROVED
    if tournament.status == TournamentStatus.RUNNING:
        entry.seed = _next_seed(tournament)
    entry.save(update_fields=["status", "seed"])
    _audit(
        actor=actor, action="individual.approve", obj=entry, tournament=tournament, after={"seed": entry.seed}
    )
    return entry


@transaction.atomic
def register_player(*, actor, tournament: Tournament, player: Player) -> IndividualEntry:
    """The organiser enters a player (with or without an account)."""
    tournament = _lock(tournament)
    _require_manager(actor, tournament)
    return _add_entry(actor, tournament, player)


@transaction.atomic
def register_players_bulk(*, actor, tournament: Tournament, text: str) -> list[IndividualEntry]:
    """Paste one name a line. Roster names match in any alphabet; other names become roster players.
    Any bad line refuses the whole paste."""
    tournament = _lock(tournament)
    _require_manager(actor, tournament)
    _require_individual(tournament)
    names = [(n, " ".join(raw.split())[:120]) for n, raw in enumerate((text or "").splitlines(), 1)]
    names = [(n, name) for n, name in names if name]
    if not names:
        raise ValidationError(_("Paste at least one name, one per line."))
    roster = _RosterNames(tournament.club)
    added, errors = [], []
    for number, name in names:
        player, _new = roster.find_or_add(actor=actor, number=number, name=name, errors=errors)
        if player is None:
            continue
        try:
            added.append(_add_entry(actor, tournament, player))
        except ValidationError as error:
            errors.append(_("Line %(n)d: %(error)s") % {"n": number, "error": " ".join(error.messages)})
    if errors:
        raise ValidationError(errors)
    return added


@transaction.atomic
def withdraw_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The player leaves: later rounds do not seat him; a table of his still open is a no-show
    (his partner and their opponents are scored a win, he a forfeit); played results stay."""
    _require_user(actor)
    entry, tournament = _player_for_update(entry)
    own = permissions.player_id_of(actor) == entry.player_id
    if not (permissions.can_manage(actor, tournament) or own):
        raise PermissionDenied(_("Only the organiser or the player himself can withdraw him."))
    if entry.status == EntryStatus.WITHDRAWN:
        return entry
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_after_round = tournament.rounds.count()
    entry.save(update_fields=["status", "withdrawn_after_round"])
    touched = set()
    open_seats = (
        Seat.objects.select_related("match")
        .filter(entry=entry, match__isnull=False)
        .exclude(match__status=MatchStatus.CONFIRMED)
    )
    for seat in open_seats:
        match = Match.objects.select_for_update(of=("self",)).get(pk=seat.match_id)
        seat.absent = True
        seat.save(update_fields=["absent"])
        loser = match.home if seat.seat in (SeatName.NORTH, SeatName.SOUTH) else match.away
        _set_forfeit(match, loser=loser, actor=actor)
        touched.add(match.round_id)
    _audit(
        actor=actor,
        action="individual.withdraw",
        obj=entry,
        tournament=tournament,
        after={"status": entry.status, "after_round": entry.withdrawn_after_round},
    )
    for rnd in Round.objects.filter(pk__in=touched):
        _refresh_round(rnd, tournament)
    return entry


def _reinstate_refusal(tournament: Tournament, entry: IndividualEntry, *, count: int) -> str:
    """Why this withdrawn player cannot come back ("" when he can), for the service and the page.

    ``count``: the players not withdrawn. (A player has one row per event, so nobody else can
    hold his place.) The caller has refused an event past registration already.
    """
    if entry.player.merged_into_id is not None:
        return _("%(name)s was merged into another player record.") % {"name": entry.player.display_name}
    if tournament.entry_cap is not None and count >= tournament.entry_cap:
        return _("The tournament is full: %(cap)d players at most.") % {"cap": tournament.entry_cap}
    return ""


def reinstatable_players(tournament: Tournament) -> set[int]:
    """The withdrawn players the organiser may reinstate now (the page shows "Reinstate" for these)."""
    if tournament.status != TournamentStatus.REGISTRATION:
        return set()
    withdrawn = list(
        tournament.individual_entries.filter(status=EntryStatus.WITHDRAWN).select_related("player")
    )
    if not withdrawn:
        return set()
    count = tournament.individual_entries.exclude(status=EntryStatus.WITHDRAWN).count()
    return {e.pk for e in withdrawn if not _reinstate_refusal(tournament, e, count=count)}


@transaction.atomic
def reinstate_player(*, actor, entry: IndividualEntry) -> IndividualEntry:
    """The organiser brings a withdrawn player back before round 1 is seated: one the check-in
    closing withdrew who arrived late, or one withdrawn by mistake. As ``services.reinstate_entry``
    for pairs: approved, or checked in once check-in has closed (``reinstated_status``); his seed
    kept if free; a player not withdrawn is left as he is; refused once round 1 is seated, or when
    the event is full.

    Registering him again (``register_player``) also gives his row back, but approved only: after
    check-in has closed, round 1 would withdraw him again.
    """
    entry, tournament = _player_for_update(entry)
    _require_manager(actor, tournament)
    _require_individual(tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(
            _(
                "Round 1 is already seated, so a withdrawn player cannot come back: the rounds are"
                " drawn from the field fixed at round 1, and a player returning now would break the seating."
            )
        )
    if entry.status != EntryStatus.WITHDRAWN:
        return entry
    rows = tournament.individual_entries
    refusal = _reinstate_refusal(tournament, entry, count=rows.exclude(status=EntryStatus.WITHDRAWN).count())
    if refusal:
        raise ValidationError(refusal)
    before = {"status": entry.status, "seed": entry.seed, "after_round": entry.withdrawn_after_round}
    entry.status = reinstated_status(tournament, rows)
    entry.seed = _free_seed(rows, entry, _next_seed(tournament))
    entry.withdrawn_after_round = None
    entry.save(update_fields=["status", "seed", "withdrawn_after_round"])
    _audit(
        actor=actor,
        action="individual.reinstate",
        obj=entry,
        tournament=tournament,
        before=before,
        after={"status": entry.status, "seed": entry.seed, "after_round": None},
    )
    return entry


@transaction.atomic
def record_no_show(
    *, actor, match: Match, entry: IndividualEntry, reason: str = "", system: bool = False
) -> Match:
    """A player did not come to his table: 12:0 against his partnership, logged as a correction;
    in the standings his partner (and the opponents) score a win and he a forfeit.

    ``system``: the tournament's own no-show plan marks him (``day_services.no_shows``, an online
    round), with no user to check, so that the automatic no-show scores exactly as the organiser's.
    """
    match = (
        Match.objects.select_for_update(of=("self",)).select_related("home", "away", "round").get(pk=match.pk)
    )
    tournament = _lock(match.tournament)
    if not system:
        _require_manager(actor, tournament)
    seat = Seat.objects.filter(match=match, entry=entry).first()
    if seat is None:
        raise ValidationError(_("That player does not sit at this table."))
    seat.absent = True
    seat.save(update_fields=["absent"])
    loser = match.home if seat.seat in (SeatName.NORTH, SeatName.SOUTH) else match.away
    return record_forfeit(
        actor=actor,
        match=match,
        loser=loser,
        reason=reason or _("no-show: %(name)s") % {"name": entry.player.display_name},
        system=system,
    )


# --- rounds ----------------------------------------------------------------------------------------


def _start(tournament: Tournament) -> list[IndividualEntry]:
    entries = list(tournament.individual_entries.filter(status__in=ACTIVE).order_by("seed", "id"))
    if any(e.status == EntryStatus.CHECKED_IN for e in entries):  # as for pairs: the absent are out
        absent = [e.pk for e in entries if e.status != EntryStatus.CHECKED_IN]
        tournament.individual_entries.filter(pk__in=absent).update(
            status=EntryStatus.WITHDRAWN, withdrawn_after_round=0, seed=0
        )
        entries = [e for e in entries if e.status == EntryStatus.CHECKED_IN]
    if len(entries) < 4:
        raise ValidationError(_("At least four players are needed to start."))
    if tournament.seeding != Seeding.MANUAL:
        random.Random().shuffle(entries)  # noqa: S311 - a draw, not a secret; no ratings kept yet
    tournament.individual_entries.exclude(pk__in=[e.pk for e in entries]).update(seed=0)
    for number, e in enumerate(entries, start=1):
        if e.seed != number:
            IndividualEntry.objects.filter(pk=e.pk).update(seed=number)
    tournament.status = TournamentStatus.RUNNING
    tournament.save(update_fields=["status"])
    return entries


def pair_next_individual_round(*, actor, tournament: Tournament, system: bool = False) -> Round:
    """Seat the next round (called by ``services.pair_next_round`` inside its transaction).

    A full movement plays the core ``movement`` of the starting field; once a player has
    withdrawn (or a late player came) its tables no longer fit, so the rest is seated by the
    Swiss seater with equal scores, which keeps the movement's aims: no repeated partner, fewest
    repeated opponents, byes in turn. Swiss rounds seat by individual score.
    """
    tournament = _lock(tournament)
    if not system:
        _require_manager(actor, tournament)
    last = _last_round_if_complete(tournament)
    if last is None:
        _start(tournament)
    number = (last.number if last else 0) + 1
    total = individual_round_count(tournament)
    if number > total:
        raise ValidationError(_("All %(n)d rounds have been paired.") % {"n": total})
    seeded = list(
        tournament.individual_entries.filter(seed__gt=0).select_related("player").order_by("seed", "id")
    )
    playing = [e for e in seeded if e.status in ACTIVE]
    if len(playing) < 4:
        raise ValidationError(_("At least four players must still be playing."))
    state = individual_state(tournament)
    first_field = {p for r in state.rounds[:1] for p in r.players()}
    intact = not state.rounds or first_field == {e.pk for e in playing}
    if tournament.format == Format.INDIVIDUAL_MOVEMENT and intact:
        plan = movement([e.pk for e in playing], rounds=total)[number - 1]
    else:
        scores: dict[int, int] = defaultdict(int)
        if tournament.format == Format.INDIVIDUAL_SWISS:
            rows = individual_standings(
                [e.pk for e in seeded], state.results, state.byes, points=points_of(tournament)
            )
            scores.update({r.player: r.match_points for r in rows})
        plan = seat_swiss_round(
            [IndividualPlayer(id=e.pk, score=scores[e.pk], seed=e.seed) for e in playing],
            state.rounds,
            number=number,
        )
    rnd = Round.objects.create(
        tournament=tournament, number=number, deadline=matchday_deadline(tournament, number)
    )
    by_id = {e.pk: e for e in playing}
    seats = []
    for table_no, table in enumerate(plan.tables, start=1):
        ns, ew = (
            Entry.objects.create(
                tournament=tournament,
                player_a=by_id[a].player,
                player_b=by_id[b].player,
                status=EntryStatus.APPROVED,
                seed=0,
                registered_by=None,
            )
            for a, b in table.partnerships
        )
        match = Match.objects.create(tournament=tournament, round=rnd, table=table_no, home=ns, away=ew)
        seats += [
            Seat(round=rnd, entry_id=pid, seat=name, table=table_no, match=match)
            for pid, name in zip(table.players, TABLE_SEATS, strict=True)
        ]
    seats += [Seat(round=rnd, entry_id=pid, seat=SeatName.BYE) for pid in plan.byes]
    Seat.objects.bulk_create(seats)
    _audit(
        actor=actor,
        action="round.pair",
        obj=rnd,
        tournament=tournament,
        after={
            "number": number,
            "tables": [list(t.players) for t in plan.tables],
            "byes": list(plan.byes),
        },
    )
    _refresh_round(rnd, tournament)
    _on_commit_task("notify_round_paired", rnd.pk)
    return rnd


def individual_field_size(tournament: Tournament) -> int:
    return tournament.individual_entries.filter(seed__gt=0).count()


__all__ = [
    "IndividualState",
    "individual_round_count",
    "individual_state",
    "pair_next_individual_round",
    "record_no_show",
    "register_player",
    "register_players_bulk",
    "reinstate_player",
    "withdraw_player",
]
