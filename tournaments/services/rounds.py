"""Rounds: the field fixed at round 1, each next round drawn by the event's format and written, its options.

``pair_next_round`` is the one way a round comes to be, for every format: the format draws a plan
of plain data (``formats``), written here in one transaction with its audit row; the players hear
of it on commit. A withdrawn pair drawn into a bracket loses that match by forfeit at once.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..core.knockout import seed_by_rating
from ..formats import RoundPlan, format_of, matchday_deadline
from ..formats.players import TABLE_SEATS
from ..formats.series import SERIES_LENGTHS
from ..models import (
    ACTIVE_STATUSES,
    MAX_ROUND_LENGTH,
    Entry,
    EntryStatus,
    IndividualEntry,
    Match,
    MatchStatus,
    PlayMode,
    Round,
    RoundStatus,
    Seat,
    SeatName,
    Seeding,
    Tournament,
    TournamentStatus,
)
from .board_par import queue_board_pars
from .common import NOTIFY_ROUND_PAIRED, audit, lock_tournament, on_commit_task, require_manager
from .duplicate import adjust_withdrawn_boards, draw_board_seed
from .plans import plan_round_deadline
from .progress import log_forfeits, refresh_round, set_forfeit
from .seeding import take_seed_ratings


def last_round_if_complete(tournament: Tournament) -> Round | None:
    """The last round (None before the first), refusing a next one while the tournament is
    finished or that round still has results missing or unconfirmed."""
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != RoundStatus.COMPLETE:
        missing = last.matches.exclude(status=MatchStatus.CONFIRMED).count()
        raise ValidationError(
            _("Round %(n)d is not complete: %(missing)d result(s) still missing or unconfirmed.")
            % {"n": last.number, "missing": missing}
        )
    return last


def _start(tournament: Tournament) -> None:
    """Fix the field and the seeding when the first round is paired. Once anyone has checked in,
    the entries that did not are out; seeds follow the event's seeding (by rating: the ratings as
    they stood when registration closed, ``seeding.take_seed_ratings``)."""
    fmt = format_of(tournament)
    rows = fmt.entries()
    entries = list(rows.filter(status__in=ACTIVE_STATUSES).order_by("seed", "id"))
    if any(e.status == EntryStatus.CHECKED_IN for e in entries):
        absent = [e.pk for e in entries if e.status != EntryStatus.CHECKED_IN]
        rows.filter(pk__in=absent).update(status=EntryStatus.WITHDRAWN, withdrawn_after_round=0)
        entries = [e for e in entries if e.status == EntryStatus.CHECKED_IN]
    fmt.check_start(entries)
    rng = random.Random()  # noqa: S311 - a draw, not a secret
    if tournament.seeding == Seeding.RATING:
        figures = take_seed_ratings(tournament, missing_only=True)  # taken at check-in's close, else now
        order = seed_by_rating({e.pk: figures.get(e.pk) for e in entries}, rng)
        by_id = {e.pk: e for e in entries}
        entries = [by_id[i] for i in order]
    elif tournament.seeding == Seeding.RANDOM or (fmt.plays_alone and tournament.seeding != Seeding.MANUAL):
        rng.shuffle(entries)
    rows.exclude(pk__in=[e.pk for e in entries]).update(seed=0)
    changed = []
    for number, e in enumerate(entries, start=1):
        if e.seed != number:
            e.seed = number
            changed.append(e)
    type(entries[0]).objects.bulk_update(changed, ["seed"], batch_size=500)
    tournament.status = TournamentStatus.RUNNING
    tournament.save(update_fields=["status"])


def _bye(tournament: Tournament, rnd: Round, entry_id: int, **place) -> Match:
    return Match(
        tournament=tournament,
        round=rnd,
        table=0,
        home_id=entry_id,
        bye=True,
        winner_id=entry_id,
        status=MatchStatus.CONFIRMED,
        confirmed_how="bye",
        confirmed_at=timezone.now(),
        **place,
    )


def _write_games(tournament: Tournament, rnd: Round, plan: RoundPlan, actor) -> list[Match]:
    """One INSERT for the whole round (a 1,000-pair Swiss has 500 tables); a withdrawn pair drawn
    into a bracket loses its match by forfeit (returned, for their audit rows after the round's)."""
    rows = []
    for g in plan.games:
        place = {"slot": g.slot, "bracket": g.bracket, "stage": g.stage}
        if g.away is None:
            rows.append(_bye(tournament, rnd, g.home, requested_bye=g.requested, **place))
        else:
            rows.append(
                Match(
                    tournament=tournament, round=rnd, table=g.table, home_id=g.home, away_id=g.away, **place
                )
            )
    matches = Match.objects.bulk_create(rows)
    withdrawn = {
        e.pk: e
        for e in Entry.objects.filter(
            pk__in={g.home for g in plan.games} | {g.away for g in plan.games if g.away},
            status=EntryStatus.WITHDRAWN,
        )
    }
    forfeited = []
    for match in matches:
        for entry_id in (match.home_id, match.away_id):
            if entry_id in withdrawn and not match.bye and match.status != MatchStatus.CONFIRMED:
                set_forfeit(match, loser=withdrawn[entry_id], actor=actor, logged=False)
                forfeited.append(match)
    return forfeited


def _write_tables(tournament: Tournament, rnd: Round, plan: RoundPlan) -> None:
    """Each table of four is a match between two partnerships (an ``Entry`` each, seed 0); every
    player gets his seat, N/S/E/W at a table or a bye."""
    players: dict[int, IndividualEntry] = plan.players
    seats = []
    for table_no, table in enumerate(plan.tables, start=1):
        ns, ew = (
            Entry.objects.create(
                tournament=tournament,
                player_a=players[a].player,
                player_b=players[b].player,
                status=EntryStatus.APPROVED,
                seed=0,
                registered_by=None,
            )
            for a, b in table.partnerships
        )
        # A duplicate event's tables all play the round's set (``formats.individual_duplicate``).
        slot = rnd.number if tournament.is_duplicate else 0
        match = Match.objects.create(
            tournament=tournament, round=rnd, table=table_no, home=ns, away=ew, slot=slot
        )
        seats += [
            Seat(round=rnd, entry_id=pid, seat=name, table=table_no, match=match)
            for pid, name in zip(table.players, TABLE_SEATS, strict=True)
        ]
    seats += [Seat(round=rnd, entry_id=pid, seat=SeatName.BYE) for pid in plan.byes]
    seats += [
        Seat(round=rnd, entry_id=pid, seat=SeatName.BYE, requested_bye=kind)
        for pid, kind in plan.requested.items()
    ]
    Seat.objects.bulk_create(seats)


@transaction.atomic
def pair_next_round(*, actor, tournament: Tournament, system: bool = False) -> Round:
    """Pair (or, in an individual event, seat) the next round; refused while the previous one is open.

    ``system``: the tournament's own plan pairs it (the beat task, ``services.runner``), with no
    user to check; the audit row then names no actor.
    """
    tournament = lock_tournament(tournament)
    if not system:
        require_manager(actor, tournament)
    last = last_round_if_complete(tournament)
    if last is None:
        _start(tournament)
        if tournament.is_duplicate:
            draw_board_seed(tournament)  # committed before any board is dealt, revealed at the end
    number = (last.number if last else 0) + 1
    fmt = format_of(tournament)
    plan = fmt.next_round(number)
    rnd = Round.objects.create(
        tournament=tournament, number=number, deadline=matchday_deadline(tournament, number)
    )
    forfeited: list[Match] = []
    if fmt.plays_alone:
        _write_tables(tournament, rnd, plan)
    else:
        forfeited = _write_games(tournament, rnd, plan, actor)
    after = plan.audit or {
        "number": number,
        "matches": [[m.home_id, m.away_id, m.table] for m in rnd.matches.all()],
    }
    audit(actor=actor, action="round.pair", obj=rnd, tournament=tournament, after=after)
    log_forfeits(forfeited, actor=actor)
    if tournament.is_duplicate:
        tables = list(rnd.matches.filter(bye=False))
        queue_board_pars(tournament, (b for m in tables for b in fmt.boards_of(m)))
        adjust_withdrawn_boards(actor=actor, tournament=tournament, matches=tables)
    refresh_round(rnd, tournament)
    on_commit_task(NOTIFY_ROUND_PAIRED, rnd.pk)
    return rnd


KEEP_LENGTH = -1
"""``set_round_options(length=...)`` left out: the round keeps the length it has."""


@transaction.atomic
def start_tournament(*, actor, tournament: Tournament) -> Round:
    """Start the event: close its registration and pair (or seat) round 1, as the organiser's
    "pair round 1" does. Refused once it has started, so a second "start" never pairs round 2."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    if tournament.status != TournamentStatus.REGISTRATION or tournament.rounds.exists():
        raise ValidationError(_("The tournament has already started."))
    return pair_next_round(actor=actor, tournament=tournament)


@transaction.atomic
def set_round_options(
    *,
    actor,
    round: Round,
    deadline: datetime | None,
    play_mode: str = "",
    best_of: int | None = None,
    length: int | None = KEEP_LENGTH,
) -> Round:
    """A round's deadline, play mode, matches per tie, and its length in minutes (None: the
    tournament's round length; the clock on every page moves with it)."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    tournament = lock_tournament(rnd.tournament)
    require_manager(actor, tournament)
    if play_mode and play_mode not in PlayMode.values:
        raise ValidationError(_("Unknown play mode."))
    before = {
        "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
        "play_mode": rnd.play_mode,
        "best_of": rnd.best_of,
        "length": rnd.length,
    }
    old_deadline = rnd.deadline
    if length != KEEP_LENGTH:
        if length is not None and not 1 <= length <= MAX_ROUND_LENGTH:
            raise ValidationError(
                _("A round lasts from 1 to %(most)d minutes; leave the length empty for no clock.")
                % {"most": MAX_ROUND_LENGTH}
            )
        rnd.length = length
    rnd.deadline, rnd.play_mode = deadline, play_mode
    if best_of is not None:
        if best_of not in SERIES_LENGTHS:  # an even length could end level and never be decided
            raise ValidationError(
                _("A tie is played over 1, 3 or 5 matches, an odd number so that it always ends.")
            )
        rnd.best_of = best_of
    rnd.save()
    if deadline != old_deadline:  # the same instant given in another time zone is no change
        plan_round_deadline(rnd)  # its deadline plan and the players' reminder move with it
    audit(
        actor=actor,
        action="round.update",
        obj=rnd,
        tournament=tournament,
        before=before,
        after={
            "deadline": deadline.isoformat() if deadline else None,
            "play_mode": play_mode,
            "best_of": rnd.best_of,
            "length": rnd.length,
        },
    )
    return rnd
