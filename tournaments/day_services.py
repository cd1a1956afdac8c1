"""Tournament day: the work the plans do (start a round, pair the next, no-shows, deadlines) and online rounds.

Each function takes ids, locks what it changes, tolerates work already done or rows gone, and is
called by the beat task (``tournaments.scheduling``) inside the transaction that marks its plan
done, or by the organiser's dashboard with the organiser as actor. Writes go through the same
services as every page (``services.pair_next_round``, ``gameplay.services``), or through the
same private helpers they use.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from config.notify import notify_user

from . import live, permissions, services
from .day_models import DaySettings, Notification
from .models import Entry, EntryStatus, Match, MatchStatus, PlayMode, Round, RoundStatus, Tournament
from .models import TournamentStatus as TS

logger = logging.getLogger(__name__)
NS, EW = (0, 2), (1, 3)  # partners sit opposite


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


def queue_options() -> dict:
    """Where the day's tasks go: ``TOURNAMENTS_DAY_QUEUE`` (a setting, or the environment of every
    process that may queue them: web, worker, beat) names a dedicated queue; else Celery's default."""
    queue = getattr(settings, "TOURNAMENTS_DAY_QUEUE", None) or os.environ.get("TOURNAMENTS_DAY_QUEUE")
    return {"queue": queue} if queue else {}


def day_settings(tournament: Tournament) -> DaySettings:
    found = DaySettings.objects.filter(tournament=tournament).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return DaySettings.objects.create(tournament=tournament)
    except IntegrityError:
        return DaySettings.objects.get(tournament=tournament)


def is_online(rnd: Round) -> bool:
    return rnd.effective_play_mode == PlayMode.ONLINE


# --- notices ----------------------------------------------------------------------------------------


def notify(user, *, kind: str, text: Callable[[], str], url: str = "", key: str = "") -> None:
    """Keep a notice on the site, push it to the user's open sockets, and e-mail it if we know an address.

    ``key`` makes it once-only: a rerun of the same plan notifies nobody twice. ``text`` is a
    function that words the notice: it is called in the user's language (``User.language``, the
    one he last used the site in; the active one when none is known), so a notice written by the
    beat or a worker is in his language, not the server's.
    """
    if key and Notification.objects.filter(user=user, key=key).exists():
        return
    with translation.override(getattr(user, "language", "") or translation.get_language()):
        worded = str(text())
    Notification.objects.create(user=user, kind=kind, text=worded[:400], url=url, key=key)
    notify_user(user.pk, {"kind": kind, "text": worded, "url": url})
    if user.email:
        address, subject = user.email, worded[:120]
        body = f"{worded}\n\n{url}" if url else worded
        transaction.on_commit(
            lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address], fail_silently=True),
            robust=True,
        )


def _users_of_side(match: Match, side: str) -> list:
    from clubs.models import Player

    ids = permissions.side_players(match, side)
    return [p.user for p in Player.objects.filter(pk__in=ids).select_related("user") if p.user_id]


def _organisers(tournament: Tournament) -> list:
    from django.contrib.auth import get_user_model

    from clubs.models import Membership
    from clubs.permissions import ROSTER_ROLES

    ids = Membership.objects.filter(club_id=tournament.club_id, role__in=ROSTER_ROLES).values_list(
        "user_id", flat=True
    )
    return list(get_user_model().objects.filter(pk__in=list(ids)))


def _tell_organisers(tournament: Tournament, *, kind: str, text: Callable[[], str], key: str) -> None:
    from django.urls import reverse

    url = reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})
    for user in _organisers(tournament):
        notify(user, kind=kind, text=text, url=url, key=key)


# --- round start and online tables ------------------------------------------------------------------


def start_round(*, tournament_id: int, number: int, actor=None) -> str:
    """Round ``number`` starts: paired if it is not yet (round 1 or a held round), online tables opened.

    ``actor`` None is the tournament's own plan; otherwise the organiser (permission-checked).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    if actor is not None:
        services._require_manager(actor, tournament)
    rnd = tournament.rounds.filter(number=number).first()
    if rnd is None:
        last = tournament.rounds.order_by("-number").first()
        if (last.number if last else 0) != number - 1 or tournament.status == TS.FINISHED:
            return "not_next"
        try:
            rnd = services.pair_next_round(actor=actor, tournament=tournament, system=actor is None)
        except ValidationError as error:
            return "refused: " + " ".join(error.messages)[:150]
    pause_point("start_round")
    opened = open_tables(round_id=rnd.pk) if is_online(rnd) else 0
    return f"started {opened}"


def open_tables(*, round_id: int) -> int:
    """Each unplayed match of an online round gets its live table: the tournament's rules and clock,
    the four players seated in order (partners opposite), no bots. Matches that have a table keep it."""
    from gameplay import services as tables
    from gameplay.models import Seating

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
        home, away = _users_of_side(match, "home"), _users_of_side(match, "away")
        if len(home) != 2 or len(away) != 2:
            _tell_organisers(
                tournament,
                kind="tournament.no_table",
                text=lambda n=match.table: _(
                    "%(t)s, round %(r)d, table %(n)d: not all four players have accounts; no live table."
                )
                % {"t": tournament.name, "r": rnd.number, "n": n},
                key=f"no-table:{match.pk}",
            )
            continue
        table = tables.create_table(rules=tournament.rules, seating=Seating.IN_ORDER, sit=False)
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
                text=lambda: _("%(t)s, round %(r)d: your table is ready. Take your seat.")
                % {"t": tournament.name, "r": rnd.number},
                url=table.get_absolute_url(),
                key=f"table-ready:{match.pk}:{table.pk}",
            )
    return opened


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
        tournament = services._lock(match.tournament)
        try:
            table, home_seats = live.checked_table(match, table_id, tournament)
        except ValidationError as error:
            if error.code in live.NOT_YET:
                return "not_finished"
            _refuse_table_result(match, tournament, table_id, error)
            return f"refused: {error.code}"
        before = match.state()
        live.save_table_result(match, table, home_seats)
        pause_point("record_result")
        services._audit(
            actor=None,
            action="match.live_result",
            obj=match,
            tournament=tournament,
            before=before,
            after={**match.state(), "table": table.pk},
        )
        services._refresh_round(match.round, tournament, slot=match.slot)
        return "recorded"


def _refuse_table_result(match: Match, tournament: Tournament, table_id: int, error: ValidationError) -> None:
    """Leave ``match`` without a result, disputed, with the reason for the organiser (page, notice, audit, log)."""
    before = match.state()
    refusal = {"code": error.code, "params": error.params or {}, "table": table_id}
    match.status = MatchStatus.DISPUTED
    match.live_refusal = refusal
    match.save(update_fields=["status", "live_refusal"])
    services._audit(
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
    _tell_organisers(
        tournament,
        kind="tournament.live_result_refused",
        text=lambda: _("%(t)s, round %(r)d, table %(n)d: the live table's result was not taken. %(why)s")
        % {
            "t": tournament.name,
            "r": match.round.number,
            "n": match.table,
            "why": live.refusal_text(refusal),
        },
        key=f"live-refused:{match.pk}:{table_id}",
    )


def finished_tables_unrecorded() -> list[int]:
    """Live tables of tournament matches that finished while their match still waits (a lost hook)."""
    from gameplay.models import Table, TableStatus

    ids = Match.objects.filter(live_table__isnull=False, status=MatchStatus.SCHEDULED).values_list(
        "live_table", flat=True
    )
    return list(
        Table.objects.filter(pk__in=list(ids), status=TableStatus.FINISHED).values_list("pk", flat=True)
    )


# --- no-shows, reminders, deadlines -----------------------------------------------------------------


def no_shows(*, round_id: int) -> str:
    """Online: a player who never came to the table is a no-show.

    Pairs: his pair forfeits (the table is resigned for him, so the result flows back like any
    other); both pairs missing goes to the organiser. Individual events: partnerships change every
    round, so the absentee alone forfeits, through the organiser's own no-show
    (``_individual_no_shows``); a table nobody came to goes to the organiser.
    """
    from gameplay import services as tables
    from gameplay.models import Seat, Table, TableStatus

    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or not is_online(rnd):
        return "gone"
    individual = rnd.tournament.is_individual
    forfeits = 0
    for match in rnd.matches.filter(bye=False, status=MatchStatus.SCHEDULED, live_table__isnull=False):
        table = Table.objects.filter(pk=match.live_table).first()
        if table is None or table.status == TableStatus.FINISHED:
            continue
        absent = list(
            Seat.objects.filter(table=table, is_bot=False, connections=0, disconnected_at__isnull=True)
            .order_by("seat")
            .values_list("seat", flat=True)
        )
        if not absent:
            continue
        sides = {"NS" if s in NS else "EW" for s in absent}
        if individual and len(absent) < 4:
            forfeits += _individual_no_shows(match_id=match.pk, table_id=table.pk, seats=absent)
        elif not individual and len(sides) == 1:
            tables.resign(table_id=table.pk, seat=absent[0])
            record_table_result(table_id=table.pk)
            forfeits += 1
        else:
            _tell_organisers(
                rnd.tournament,
                kind="tournament.both_absent",
                text=lambda n=match.table: _(
                    "%(t)s, round %(r)d, table %(n)d: neither pair came to the table. Please decide."
                )
                % {"t": rnd.tournament.name, "r": rnd.number, "n": n},
                key=f"both-absent:{match.pk}",
            )
    return f"forfeits {forfeits}"


def _individual_no_shows(*, match_id: int, table_id: int, seats: list[int]) -> int:
    """Each player who never came to the live table (``seats``) is marked a no-show exactly as the
    organiser marks one on the round page (``individual_services.record_no_show``): his partner and
    their opponents score a win, he a forfeit. Resigning the table for him, as for pairs, would make
    the match an ordinary 12:0 that his present partner loses too.

    Under the match's lock and only while it has no result, so a rerun of the plan, or a result the
    organiser or the table recorded first, changes nothing. The table is then closed (resigned for
    the first absentee); its result finds the match confirmed and is not recorded over it.
    Returns the number of no-shows marked.
    """
    from gameplay import services as tables
    from gameplay.models import Seat as TableSeat

    from .individual_models import Seat
    from .individual_services import record_no_show

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


def remind(*, round_id: int, deadline: bool = False) -> str:
    """Tell the players of the round's unplayed matches that it starts soon, or (``deadline``, a
    day before a matchday's deadline) that their match must be played by then. The two are
    separate notices (their own keys): a league round can have both."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return "gone"
    if deadline and rnd.deadline is None:
        return "no deadline"
    sent = 0
    for match in rnd.matches.filter(bye=False, status=MatchStatus.SCHEDULED).prefetch_related(
        "home__substitutions", "away__substitutions"
    ):
        values = {"t": rnd.tournament.name, "r": rnd.number, "n": match.table}

        def text(values=values) -> str:  # worded in each player's language
            if deadline:
                by = date_format(timezone.localtime(rnd.deadline), "j E, H:i")
                return _("%(t)s, round %(r)d: play your match at table %(n)d by %(d)s.") % {**values, "d": by}
            return _("%(t)s, round %(r)d starts soon: you play at table %(n)d.") % values

        for user in _users_of_side(match, "home") + _users_of_side(match, "away"):
            notify(
                user,
                kind="tournament.reminder",
                text=text,
                url=match.get_absolute_url(),
                key=f"remind:{match.pk}:deadline" if deadline else f"remind:{match.pk}",
            )
            sent += 1
    return f"sent {sent}"


def unplayed_to_organiser(*, round_id: int, kind: str) -> str:
    """A matchday deadline or an online round's deadline passed: the organiser gets the unplayed list."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return "gone"
    open_ = list(rnd.matches.exclude(status=MatchStatus.CONFIRMED).select_related("home", "away"))
    if not open_:
        return "all played"
    tables = ", ".join(str(m.table) for m in open_)
    values = {"t": rnd.tournament.name, "r": rnd.number, "k": len(open_), "list": tables}

    def text() -> str:
        return _("%(t)s, round %(r)d: the deadline has passed; %(k)d match(es) unfinished (tables %(list)s).") % values

    _tell_organisers(rnd.tournament, kind=f"tournament.{kind}", text=text, key=f"{kind}:{rnd.pk}")
    return f"unplayed {len(open_)}"


def close_check_in(*, tournament_id: int) -> str:
    """Approved pairs (or, in an individual event, players) that did not check in are withdrawn
    before the first round, if anyone checked in.

    Round 1 would leave them out anyway (``services._start``, ``individual_services._start``); doing
    it when check-in closes shows the organiser the field as it will play, with a "Reinstate"
    button for whoever arrives late (``services.reinstate_entry``,
    ``individual_services.reinstate_player``).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.rounds.exists():
        return "too late"
    tournament = services._lock(tournament)
    if tournament.rounds.exists():  # round 1 was paired while we waited for the lock
        return "too late"
    rows, action = tournament.entries, "entry.check_in_closed"
    if tournament.is_individual:
        rows, action = tournament.individual_entries, "individual.check_in_closed"
    entries = rows.filter(status__in=(EntryStatus.APPROVED, EntryStatus.CHECKED_IN))
    if not entries.filter(status=EntryStatus.CHECKED_IN).exists():
        return "nobody checked in"
    late = list(entries.filter(status=EntryStatus.APPROVED).select_for_update())
    for entry in late:
        entry.status, entry.withdrawn_after_round = EntryStatus.WITHDRAWN, 0
        entry.save(update_fields=["status", "withdrawn_after_round"])
        services._audit(actor=None, action=action, obj=entry, tournament=tournament)
    return f"withdrawn {len(late)}"


def pair_next(*, tournament_id: int, after: int) -> str:
    """Round ``after`` is complete: pair the next round (if the tournament pairs itself) and start it."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.number != after:
        return "already paired" if last and last.number > after else "no round"
    if last.status != RoundStatus.COMPLETE or tournament.status == TS.FINISHED:
        return "not complete" if tournament.status != TS.FINISHED else "finished"
    if not day_settings(tournament).auto_pair:
        _tell_organisers(
            tournament,
            kind="tournament.round_complete",
            text=lambda: _("%(t)s: round %(r)d is complete; pair the next round when you are ready.")
            % {"t": tournament.name, "r": after},
            key=f"round-complete:{last.pk}",
        )
        return "held for the organiser"
    return start_round(tournament_id=tournament_id, number=after + 1)


# --- the organiser's one-click actions ------------------------------------------------------------


def organiser_forfeit(*, actor, match: Match, loser: Entry) -> Match:
    return services.record_forfeit(actor=actor, match=match, loser=loser)


def organiser_pair_next(*, actor, tournament: Tournament) -> Round:
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    with transaction.atomic():
        outcome = start_round(tournament_id=tournament.pk, number=number, actor=actor)
        if outcome.startswith("refused: "):
            raise ValidationError(outcome.removeprefix("refused: "))
    return tournament.rounds.get(number=number)
