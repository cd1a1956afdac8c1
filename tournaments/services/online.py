"""Online rounds: live tables opened for a round's matches, their results taken, no-shows forfeited.

Each function takes ids, tolerates work already done or rows gone, and may run twice. A table's
result is taken only through ``live.checked_table``, exactly as the organiser's import takes it.
"""

from __future__ import annotations

import logging
import os
import time

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from gameplay import services as tables
from gameplay.models import Seat as TableSeat
from gameplay.models import Seating, Table, TableStatus

from ..models import Match, MatchStatus, PlayMode, Round, Seat, Tournament
from . import live
from .common import audit, lock_tournament
from .live import NS
from .notices import notify, tell_organisers, users_of_side
from .online_boards import board_set_for
from .progress import mark_disputed
from .results import record_no_show
from .watching import bar_event_players

logger = logging.getLogger(__name__)


def pause_point(name: str) -> None:
    """A test hook inside the work, after its first write: ``BILKA_DAY_PAUSE=<folder>``.

    When ``<folder>/<name>.armed`` exists, the first process to get here renames it to
    ``<name>.reached`` and sleeps, so the reliability test can kill the worker at that very point
    (tests/tournaments/day/test_reliability.py). Unset in production: one environment look-up.
    """
    folder = os.environ.get("BILKA_DAY_PAUSE", "")
    if not folder:
        return
    try:
        os.rename(os.path.join(folder, f"{name}.armed"), os.path.join(folder, f"{name}.reached"))
    except FileNotFoundError:
        return
    time.sleep(float(os.environ.get("BILKA_DAY_PAUSE_SECONDS", "60")))


def is_online(rnd: Round) -> bool:
    return rnd.effective_play_mode == PlayMode.ONLINE


def open_tables(*, round_id: int) -> int:
    """Each unplayed match of an online round gets its live table: the tournament's rules and clock,
    the four players seated in order (partners opposite), no bots. Matches that have a table keep it.
    A duplicate event's table plays its match's boards (``online_boards``), the NS pair at N and S."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = rnd.tournament
    opened = 0
    matches = (
        Match.objects.select_for_update(of=("self",))
        .filter(round=rnd, bye=False, live_table__isnull=True, status=MatchStatus.SCHEDULED)
        .select_related("home", "away")
        .prefetch_related("home__substitutions", "away__substitutions")
        .order_by("table", "game")
    )
    for match in matches:
        home, away = users_of_side(match, "home"), users_of_side(match, "away")
        if len(home) != 2 or len(away) != 2:
            tell_organisers(
                tournament,
                kind="tournament.no_table",
                text=lambda n=match.table: (
                    _("%(t)s, round %(r)d, table %(n)d: not all four players have accounts; no live table.")
                    % {"t": tournament.name, "r": rnd.number, "n": n}
                ),
                key=f"no-table:{match.pk}",
            )
            continue
        # Public from the start, as before private tables: spectators follow a round from the
        # tournament's "Now playing" board and the lobby, and its replays are public once it is over.
        # A duplicate event's table is dealt its match's board set from the event seed, no shuffle,
        # and is its players' alone: a card played there is still hidden from the other tables,
        # which play the same boards (its replay follows the board's traveller, ``board_replay``).
        boards = board_set_for(match, tournament) if tournament.is_duplicate else None
        table = tables.create_table(rules=tournament.rules, seating=Seating.IN_ORDER, sit=False,
                                    shuffle_prominent=boards is None, public=boards is None, casual=False,
                                    boards=boards)
        for user in (home[0], away[0], home[1], away[1]):  # N E S W: partners opposite
            tables.sit(table_id=table.pk, user=user)
        match.live_table = table.pk
        match.save(update_fields=["live_table"])
        opened += 1
        pause_point("open_tables")
        for user in home + away:
            notify(
                user,
                kind="tournament.table_ready",
                text=lambda: (
                    _("%(t)s, round %(r)d: your table is ready. Take your seat.")
                    % {"t": tournament.name, "r": rnd.number}
                ),
                url=table.get_absolute_url(),
                key=f"table-ready:{match.pk}:{table.pk}",
            )
    if opened and tournament.is_duplicate:
        bar_event_players(tournament)
    return opened



def close_tables(*, matches: list[Match]) -> int:
    """The pairing these matches' live tables were opened for was withdrawn or changed: each table
    is called off through gameplay (its players are told there; nothing is scored) and the match
    forgets it, so a table finishing later writes no result. Returns how many were called off."""
    closed = 0
    for match in matches:
        if match.live_table is None:
            continue
        if Table.objects.filter(pk=match.live_table).exists():
            closed += int(tables.cancel(table_id=match.live_table).ok)
        Match.objects.filter(pk=match.pk).update(live_table=None)
        match.live_table = None
    return closed


def record_table_result(*, table_id: int) -> str:
    """A finished live table gives its match's result (the match this plan opened the table for).

    The result is checked exactly as the organiser's import checks it (``live.checked_table``: the
    four players, the rules, the record replayed by the engine against the stored result). A table
    that fails the check writes nothing: the match is disputed with the reason kept on it
    (``Match.live_refusal``) for the organiser, who is told once. Safe to run twice: a confirmed
    match, or one already refused for this table, is left as it is.
    """
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .filter(live_table=table_id)
            .select_related("round", "home", "away", "tournament")
            .first()
        )
        if match is None:
            return "no_match"
        if match.status == MatchStatus.CONFIRMED:
            return "already"
        if match.status == MatchStatus.DISPUTED and (match.live_refusal or {}).get("table") == table_id:
            return "refused already"
        tournament = lock_tournament(match.tournament)
        try:
            table, home_seats = live.checked_table(match, table_id, tournament)
        except ValidationError as error:
            if error.code in live.NOT_YET:
                return "not_finished"
            _refuse_table_result(match, tournament, table_id, error)
            return f"refused: {error.code}"
        live.take_table_result(
            match,
            table,
            home_seats,
            tournament=tournament,
            actor=None,
            between=lambda: pause_point("record_result"),
        )
        return "recorded"


def _refuse_table_result(match: Match, tournament: Tournament, table_id: int, error: ValidationError) -> None:
    """Leave ``match`` without a result, disputed, with the reason for the organiser (page, notice,
    audit, log)."""
    before = match.state()
    refusal = {"code": error.code, "params": error.params or {}, "table": table_id}
    mark_disputed(match, live_refusal=refusal)
    audit(
        actor=None,
        action="match.live_result_refused",
        obj=match,
        tournament=tournament,
        before=before,
        after={**match.state(), **refusal},
    )
    logger.warning(
        "live table %s: result not taken for match %s (%s): %s",
        table_id,
        match.pk,
        error.code,
        " ".join(error.messages),
    )
    tell_organisers(
        tournament,
        kind="tournament.live_result_refused",
        text=lambda: (
            _("%(t)s, round %(r)d, table %(n)d: the live table's result was not taken. %(why)s")
            % {
                "t": tournament.name,
                "r": match.round.number,
                "n": match.table,
                "why": live.refusal_text(refusal),
            }
        ),
        key=f"live-refused:{match.pk}:{table_id}",
    )


def finished_tables_unrecorded() -> list[int]:
    """Live tables of tournament matches that finished while their match still waits (a lost hook)."""
    ids = Match.objects.filter(live_table__isnull=False, status=MatchStatus.SCHEDULED).values_list(
        "live_table", flat=True
    )
    return list(
        Table.objects.filter(pk__in=list(ids), status=TableStatus.FINISHED).values_list("pk", flat=True)
    )


def no_shows(*, round_id: int) -> str:
    """Online: a player who never came to the table is a no-show.

    Pairs: his pair forfeits (the table is resigned for him, so the result flows back like any
    other); both pairs missing goes to the organiser. Individual events: partnerships change every
    round, so the absentee alone forfeits, through the organiser's own no-show
    (``_individual_no_shows``); a table nobody came to goes to the organiser. An individual
    duplicate's table is resigned as a pair's (its boards are adjusted), with its absentees marked
    so that their partners are not at fault.
    """
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or not is_online(rnd):
        return "gone"
    individual = rnd.tournament.is_individual and not rnd.tournament.is_duplicate  # boards: as pairs
    forfeits = 0
    for match in rnd.matches.filter(bye=False, status=MatchStatus.SCHEDULED, live_table__isnull=False):
        table = Table.objects.filter(pk=match.live_table).first()
        if table is None or table.status == TableStatus.FINISHED:
            continue
        absent = list(
            TableSeat.objects.filter(table=table, is_bot=False, connections=0, disconnected_at__isnull=True)
            .order_by("seat")
            .values_list("seat", flat=True)
        )
        if not absent:
            continue
        sides = {"NS" if s in NS else "EW" for s in absent}
        if individual and len(absent) < 4:
            forfeits += _individual_no_shows(match_id=match.pk, table_id=table.pk, seats=absent)
        elif not individual and len(sides) == 1:
            if rnd.tournament.is_individual:  # a duplicate's table: his partner is not at fault
                _mark_absent(match, table, absent)
            tables.resign(table_id=table.pk, seat=absent[0])
            record_table_result(table_id=table.pk)
            forfeits += 1
        else:
            tell_organisers(
                rnd.tournament,
                kind="tournament.both_absent",
                text=lambda n=match.table: (
                    _("%(t)s, round %(r)d, table %(n)d: neither pair came to the table. Please decide.")
                    % {"t": rnd.tournament.name, "r": rnd.number, "n": n}
                ),
                key=f"both-absent:{match.pk}",
            )
    return f"forfeits {forfeits}"


def _mark_absent(match: Match, table: Table, seats: list[int]) -> None:
    """An individual duplicate's players who never came to the live table (``seats``) are marked
    absent at their table: the boards the resignation leaves unplayed give them average minus and
    their partner, not at fault, average plus (``formats.individual_duplicate``)."""
    users = TableSeat.objects.filter(table=table, seat__in=seats).values_list("user_id", flat=True)
    Seat.objects.filter(match=match, entry__player__user__in=list(users)).update(absent=True)


def _individual_no_shows(*, match_id: int, table_id: int, seats: list[int]) -> int:
    """Each player who never came to the live table (``seats``) is marked a no-show exactly as the
    organiser marks one on the round page (``results.record_no_show``): his partner and
    their opponents score a win, he a forfeit. Resigning the table for him, as for pairs, would make
    the match an ordinary 12:0 that his present partner loses too.

    Under the match's lock and only while it has no result, so a rerun of the plan, or a result the
    organiser or the table recorded first, changes nothing. The table is then closed (resigned for
    the first absentee); its result finds the match confirmed and is not recorded over it.
    Returns the number of no-shows marked.
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .filter(pk=match_id, status=MatchStatus.SCHEDULED)
        .first()
    )
    if match is None:
        return 0
    users = list(
        TableSeat.objects.filter(table_id=table_id, seat__in=seats)
        .order_by("seat")
        .values_list("user_id", flat=True)
    )
    entries = {
        s.entry.player.user_id: s.entry
        for s in Seat.objects.filter(match=match, entry__player__user_id__in=users).select_related(
            "entry__player"
        )
    }
    absentees = [entries[u] for u in users if u in entries]
    for entry in absentees:
        record_no_show(actor=None, match=match, entry=entry, system=True)
    if absentees:
        tables.resign(table_id=table_id, seat=seats[0])
    return len(absentees)
