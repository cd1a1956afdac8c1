"""Ratings from the archive: the pure model (``ratings.core``) learns every rated archived
match in the order played; this module loads them, calls it and writes what it computed.

Two ways in, one result. A new match that is the latest played is learnt on top of the stored
state (``learn_latest``); anything else — a correction, a removal, a late entry, a merge — asks
for a full recompute (``request_recompute``), which rebuilds every rating and every change from
scratch in one transaction, so a run killed midway leaves the old ratings whole and its task,
queued again, starts over. Both hold one lock, so they never interleave.

Each game (Bilka, Kozyol, Bilka for two) is learnt apart, in its own order of changes, which is
why the module runs past 400 lines: loading a game's matches is the next part to split out.
"""

from __future__ import annotations

import datetime
import time
from collections import defaultdict, deque
from collections.abc import Generator, Iterator
from contextlib import closing
from typing import Any, cast

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from archive.models import ArchivedDeal, ArchivedMatch, ArchivedSeat
from config import fresh
from ratings.core.guard import WINDOW_DAYS, farming_weight
from ratings.core.match_odds import DEFAULT_RULES, ScoringKey
from ratings.core.model import EW, NS, Deal, Match, RatingState, Side
from ratings.models import (
    BILKA_GAME,
    RATED_GAMES,
    PairRating,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingRun,
    RunStatus,
    game_of_rules,
)
from ratings.selectors import PROGRESS_KEY, day_of, model_params, rating_state
from ratings.services import bulk, moves

#: The Celery name of the recompute task (`ratings.tasks`), as queued messages and earlier releases name it.
RECOMPUTE_TASK = "tournaments.recompute_ratings"
#: Kozyol's catch stops the deal: a deal won by the catching pair, its size (and its card points,
#: taken before the deal ended) saying nothing more.
_KINDS = {"win": "win", "rout": "rout", "lucy": "lucy", "eggs": "eggs", "catch": "any"}
#: The archive's winner: a pair, or in Bilka for two a player (N the first side, S the second).
_WINNER = {"NS": NS, "EW": EW, "N": NS, "S": EW}
_ENDED = {"resign": "resigned", "timeout": "timeout"}


def _lock() -> None:
    """One writer of ratings at a time (PostgreSQL: an advisory lock held to the commit; SQLite
    writes one transaction at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('bilka-ratings'))")


def _deal(row: tuple[str, int | None, int | None, int | None, int, int]) -> Deal | None:
    outcome, duty, ns_points, ew_points, ns_eyes, ew_eyes = row
    kind = _KINDS.get(outcome)
    if kind is None:  # a redeal or an unfinished deal teaches nothing
        return None
    winner = None if kind == "eggs" else (NS if ns_eyes > ew_eyes else EW if ew_eyes > ns_eyes else None)
    if winner is None and kind != "eggs":
        return None
    known = ns_points is not None and ew_points is not None and kind != "any"
    points = (ns_points, ew_points) if known else None
    return Deal(winner, kind, None if duty is None else (NS, EW)[duty], points)


def of_game(qs: Any, game: RatedGame) -> Any:
    """The archived matches of one game: Bilka's rules name no game, the others' name theirs."""
    if game.key == BILKA_GAME.key:
        return qs.exclude(rules__has_key="game")
    return qs.filter(rules__game=game.engine)


def _rated(qs: Any, game: RatedGame = BILKA_GAME) -> Any:
    """The rated matches of one game, in the order they were played: each game has a rating of
    its own, and a match of one never moves another's."""
    return of_game(qs.filter(rated=True), game).order_by("played_at", "pk")


def in_play(seats: list[str], game: RatedGame) -> list[str]:
    """The players of a match as the game seats them: N E S W, or in Bilka for two N and S."""
    return [seats[0], seats[2]] if game.side == 1 else seats


DEAL_FIELDS = ("outcome", "pair_on_duty", "ns_points", "ew_points", "ns_eyes", "ew_eyes")


def _load(matches: list[ArchivedMatch]) -> dict[int, list[tuple[Any, ...]]]:
    deals: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    rows = (ArchivedDeal.objects.filter(match_id__in=[m.pk for m in matches])
            .order_by("match_id", "number")
            .values_list("match_id", *DEAL_FIELDS))
    for match_id, *row in rows:
        deals[match_id].append(tuple(row))
    return deals


def after(played_at: datetime.datetime, pk: int) -> Q:
    """The matches the model learns after (played_at, pk): its order is played_at, then id."""
    return Q(played_at__gt=played_at) | Q(played_at=played_at, pk__gt=pk)


def batches(qs: Any, size: int = 2000, game: RatedGame = BILKA_GAME
            ) -> Iterator[tuple[ArchivedMatch, list[str], list[tuple[Any, ...]]]]:
    """Each rated match of ``game`` in order, with its players (N E S W, "" for a seat without
    one) and its deals, read in batches."""
    last: tuple[datetime.datetime, int] | None = None
    base = _rated(qs, game).only("pk", "played_at", "rules", "winner", "reason", "deal_count", "source",
                           "tournament", "ns_eyes", "ew_eyes")
    while True:
        page = base if last is None else base.filter(after(*last))
        batch = list(page[:size])
        if not batch:
            return
        ids = [m.pk for m in batch]
        seats_of: dict[int, list[str]] = defaultdict(lambda: ["", "", "", ""])
        for match_id, seat, player_id in ArchivedSeat.objects.filter(match_id__in=ids).values_list(
                "match_id", "seat", "player_id"):
            seats_of[match_id][seat] = str(player_id) if player_id else ""
        deals = _load(batch)
        for m in batch:
            yield m, seats_of[m.pk], deals.get(m.pk, [])
        last = (batch[-1].played_at, batch[-1].pk)


def model_match(m: ArchivedMatch, seats: list[str], deals: list[tuple[Any, ...]],
                weight: float = 1.0) -> Match | None:
    """The model's view of an archived match, or None when it is not rated (a seat without a
    player, a forfeit before the first card)."""
    return _as_match(m, seats, [_deal(row) for row in deals], weight)


def _as_match(m: Any, seats: list[str], deals: list[Deal | None], weight: float,
              day: float | None = None, game: RatedGame | None = None) -> Match | None:
    """``model_match`` from the deals already read by ``_deal``, one for each deal row (and the
    day played, when known).

    Kozyol and Bilka for two are learnt from their deals' card points and winners as Bilka's
    (no pair on duty: neither game has one), but the model's match to 12 eyes is Bilka's scoring
    (the pair on duty's smaller reward, Bilka's eyes per outcome): a match of theirs known by its
    final score alone is learnt from its winner, not from the score, and its chance is reckoned
    under Bilka's default rules (docs/ratings.md)."""
    game = game or game_of_rules(m.rules) or BILKA_GAME
    players = in_play(seats, game)
    if not all(players):
        return None
    if m.reason == "forfeit" and not deals:
        return None
    winner = _WINNER.get(m.winner)
    if winner is None:
        return None  # a board set played out (duplicate): no winner, never rated
    parsed = tuple(d for d in deals if d is not None)
    played = parsed if deals else None  # a match known by its score alone has no deals to learn
    ns_eyes, ew_eyes = getattr(m, "ns_eyes", None), getattr(m, "ew_eyes", None)
    eyes = (ns_eyes, ew_eyes) if played is None and ns_eyes is not None and ew_eyes is not None else None
    ns: Side
    ew: Side
    if game.side == 1:
        ns, ew = (players[0],), (players[1],)
    else:
        ns, ew = (players[0], players[2]), (players[1], players[3])
    bilka = game.key == BILKA_GAME.key
    return Match(ns, ew, winner, played, day_of(m.played_at) if day is None else day,
                 ScoringKey.from_rules(m.rules) if bilka else DEFAULT_RULES, _ENDED.get(m.reason, "normal"),
                 weight, eyes if bilka else None)


class Farming:
    """The farming guard's memory: the days of earlier casual matches of each group of four.
    Matches come in played order (both callers read them so), so a day that has left the window
    never comes back into it and is dropped."""

    def __init__(self) -> None:
        self.days: dict[frozenset[str], deque[float]] = defaultdict(deque)

    def weight(self, m: Any, seats: list[str], day: float | None = None) -> float:
        if m.tournament is not None:
            return 1.0  # tournament matches always count fully
        day = day_of(m.played_at) if day is None else day
        days = self.days[frozenset(seats)]
        while days and days[0] < day - WINDOW_DAYS:
            days.popleft()
        earlier = sum(1 for d in days if d <= day)
        days.append(day)
        return farming_weight(earlier)


def _change_tuples(m: Any, deltas: dict[str, Any], seq: int, weight: float,
                   game: str) -> list[tuple[Any, ...]]:
    """The RatingChange rows of one match, as tuples in the order of ``bulk.CHANGE_COLUMNS``."""
    return [(m.pk, int(pid), game, m.played_at, seq, d.before, d.after, d.deviation_before,
             d.deviation_after, weight) for pid, d in deltas.items()]


def _change_rows(m: ArchivedMatch, deltas: dict[str, Any], seq: int, weight: float,
                 game: str) -> list[RatingChange]:
    return [RatingChange(**dict(zip(bulk.CHANGE_COLUMNS, row, strict=True)))
            for row in _change_tuples(m, deltas, seq, weight, game)]


class _OrmChanges:
    """Where the ORM path keeps the changes it computed until they are written with bulk_create."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.changes: list[RatingChange] = []

    def add(self, rows: list[tuple[Any, ...]]) -> None:
        self.changes.extend(RatingChange(**dict(zip(bulk.CHANGE_COLUMNS, row, strict=True)))
                            for row in rows)

    def write(self) -> None:
        RatingChange.objects.filter(game=self.game).delete()
        RatingChange.objects.bulk_create(self.changes, batch_size=5000)


class _CopyChanges(bulk.ChangeFile):
    """The PostgreSQL path: changes formatted for COPY as computed, copied in at the end."""

    def __init__(self, conn: Any, game: str) -> None:
        super().__init__(conn)
        self.game = game

    def write(self) -> None:  # type: ignore[override]
        rows = self.rows + len(self.lines)
        with bulk.replacing(self.conn, RatingChange._meta.db_table, self.game, rows=rows):
            super().write(RatingChange._meta.db_table)


class _Deals(dict[str, Deal | None]):
    """The model's deal for each folded deal row (``bulk``): a few thousand kinds in all."""

    def __missing__(self, text: str) -> Deal | None:
        deal = self[text] = _deal(bulk.deal_row(text))
        return deal


PLAYER_COLUMNS = ("player_id", "game", "rating", "deviation", "mu", "var", "day", "matches", "form",
                  "last_played")
PAIR_COLUMNS = ("player_a_id", "player_b_id", "game", "mu", "var", "day", "matches", "form")


def _state_rows(state: RatingState, last_played: dict[str, datetime.datetime], game: str
                ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    players = []
    for pid, r in state.players.items():
        rating, deviation = state.display(pid, r.day)
        players.append((int(pid), game, rating, deviation, r.mu, r.var, r.day, r.matches, r.form,
                        last_played.get(pid)))
    pairs = [(int(a), int(b), game, r.mu, r.var, r.day, r.matches, r.form)
             for (a, b), r in state.pairs.items()]
    return players, pairs


def _save_state(state: RatingState, last_played: dict[str, datetime.datetime], fast: bool, game: str) -> None:
    players, pairs = _state_rows(state, last_played, game)
    if fast:
        conn = connection.connection
        for model, columns, rows in ((PlayerRating, PLAYER_COLUMNS, players),
                                     (PairRating, PAIR_COLUMNS, pairs)):
            with bulk.replacing(conn, model._meta.db_table, game, rows=len(rows)):
                bulk.copy_rows(conn, model._meta.db_table, columns, rows)
        return
    PlayerRating.objects.filter(game=game).delete()
    PairRating.objects.filter(game=game).delete()
    PlayerRating.objects.bulk_create([PlayerRating(**dict(zip(PLAYER_COLUMNS, row, strict=True)))
                                      for row in players], batch_size=5000)
    PairRating.objects.bulk_create([PairRating(**dict(zip(PAIR_COLUMNS, row, strict=True)))
                                    for row in pairs], batch_size=5000)


def _fast_path() -> bool:
    """PostgreSQL reads and writes through ``bulk``; elsewhere (SQLite, the dev site) the ORM."""
    return connection.vendor == "postgresql"


def recompute(*, run: RatingRun | None = None, timings: dict[str, float] | None = None,
              games: tuple[RatedGame, ...] = RATED_GAMES) -> int:
    """Every rating and every change of each game rebuilt from the archive, in one transaction;
    the number of matches learnt. Progress goes to the cache (``progress``) as it runs; ``timings``, if
    given, gets the seconds spent reading, computing, writing and committing. On PostgreSQL it reads
    and writes through ``bulk`` (one streamed query, COPY), elsewhere through the ORM: the same rows."""
    clock = time.perf_counter
    spent = {"read": 0.0, "compute": 0.0, "write": 0.0}
    with transaction.atomic():
        _lock()
        started = clock()
        total = sum(_rated(ArchivedMatch.objects.all(), game).count() for game in games)
        spent["read"] += clock() - started
        done = 0
        for game in games:  # each game's rating learns from its own matches alone
            done = _recompute_game(game, run=run, spent=spent, done=done, total=total)
        t3 = clock()
        fresh.renew_all()  # standings show the pairs' ratings
        t4 = clock()
        spent["write"] += t4 - t3
    spent["commit"] = clock() - t4  # the foreign keys of every row written are checked here
    cache.set(PROGRESS_KEY, {"run": run.pk if run else None, "done": done, "total": total}, 600)
    if timings is not None:
        timings.update(spent)
    return done


def _recompute_game(game: RatedGame, *, run: RatingRun | None, spent: dict[str, float], done: int,
                    total: int) -> int:
    """One game's ratings and changes rebuilt (``recompute``, in its transaction); the matches
    learnt so far in the run, ``done`` before it."""
    fast = _fast_path()
    clock = time.perf_counter
    state = RatingState(model_params(game.key))
    farming, tracker = Farming(), moves.MoveTracker(game)
    last_played: dict[str, datetime.datetime] = {}
    seq = 0
    here = timezone.get_current_timezone()
    out: _OrmChanges | _CopyChanges
    source: Generator[tuple[Any, list[str], list[Any]], None, None]
    if fast:
        source = cast(Generator[tuple[Any, list[str], list[Any]], None, None],
                      bulk.rated_matches(connection.connection, game=game))
        out, deal_of = _CopyChanges(connection.connection, game.key), _Deals()
    else:
        source = cast(Generator[tuple[Any, list[str], list[Any]], None, None],
                      batches(ArchivedMatch.objects.all(), game=game))
        out = _OrmChanges(game.key)
    t0 = clock()
    with closing(source):  # its server-side cursor closed before a rollback, not after
        for m, seats, deals in source:
            t1 = clock()
            spent["read"] += t1 - t0
            day = float(m.played_at.astimezone(here).date().toordinal())  # day_of, one zone look-up
            players = in_play(seats, game)
            weight = farming.weight(m, players, day) if all(players) else 1.0
            parsed = [deal_of[d] for d in deals] if fast else [_deal(row) for row in deals]
            match = _as_match(m, seats, parsed, weight, day, game)
            seq += 1
            rows = []
            if match is not None:
                deltas = state.update(match)
                rows = _change_tuples(m, deltas, seq, weight, game.key)
                tracker.learnt(m.pk, deltas)
                for pid in deltas:
                    last_played[pid] = m.played_at
            t2 = clock()
            out.add(rows)
            if (done + seq) % 1000 == 0:
                cache.set(PROGRESS_KEY, {"run": run.pk if run else None, "done": done + seq, "total": total},
                          600)
            t0 = clock()
            spent["compute"] += t2 - t1
            spent["write"] += t0 - t2
    t3 = clock()
    spent["read"] += t3 - t0  # the last fetch, which found no more
    out.write()
    _save_state(state, last_played, fast, game.key)
    tracker.write(state, run)  # who moved without a match of his, and why (the run's)
    spent["write"] += clock() - t3
    return done + seq


def learn_latest(match_id: int) -> bool:
    """Learn one newly archived match on top of its game's stored ratings, if it is that game's
    latest rated match played and none is learnt yet from it; False when a full recompute is
    needed instead."""
    with transaction.atomic():
        _lock()
        m = ArchivedMatch.objects.filter(pk=match_id, rated=True).first()
        game = game_of_rules(m.rules) if m is not None else None
        if m is None or game is None:
            return True  # not rated (or a game with no rating): nothing to learn
        if RatingChange.objects.filter(match=m).exists():
            return True  # already learnt (the notice came twice)
        if _rated(ArchivedMatch.objects.filter(after(m.played_at, m.pk)), game).exists():
            return False  # a match played later is already in: everything after this one moves
        if RatingRun.objects.filter(status__in=(RunStatus.PENDING, RunStatus.RUNNING)).exists():
            return False  # a recompute will include it
        _, seats, deals = next(iter(batches(ArchivedMatch.objects.filter(pk=m.pk), game=game)))
        players = in_play(seats, game)
        farming = Farming()
        if m.tournament is None:
            window = datetime.timedelta(days=WINDOW_DAYS + 1)
            for earlier, e_seats, _e in batches(ArchivedMatch.objects.filter(
                    tournament=None, played_at__gte=m.played_at - window).exclude(pk=m.pk), game=game):
                e_players = in_play(e_seats, game)
                if frozenset(e_players) == frozenset(players):
                    farming.weight(earlier, e_players)
        weight = farming.weight(m, players) if all(players) else 1.0
        match = model_match(m, seats, deals, weight)
        if match is None:
            return True
        state = rating_state(game=game.key)
        deltas = state.update(match)
        seq = (RatingChange.objects.filter(game=game.key).aggregate(n=Max("seq"))["n"] or 0) + 1
        RatingChange.objects.bulk_create(_change_rows(m, deltas, seq, weight, game.key))
        for pid in players:
            r = state.players[pid]
            rating, deviation = state.display(pid, r.day)
            PlayerRating.objects.update_or_create(
                player_id=int(pid), game=game.key,
                defaults={"rating": rating, "deviation": deviation, "mu": r.mu, "var": r.var, "day": r.day,
                          "matches": r.matches, "form": r.form, "last_played": m.played_at})
        for side in (match.ns, match.ew):
            if len(side) < 2:
                continue  # Bilka for two: a player alone has no pair term
            a, b = sorted(side, key=str)
            r = state.pairs.get((a, b)) or state.pairs.get((b, a))
            if r is not None:
                PairRating.objects.update_or_create(
                    player_a_id=int(a), player_b_id=int(b), game=game.key,
                    defaults={"mu": r.mu, "var": r.var, "day": r.day, "matches": r.matches,
                              "form": r.form})
        fresh.renew_all()  # standings show the pairs' ratings
    return True


def request_recompute(*, reason: str, why: moves.Why | None = None) -> RatingRun:
    """Ask for a full recompute: one run row, its task queued on commit. ``why`` says what it
    concerns (the players it moves are told: ``moves``); ``reason`` is the log's line."""
    if why is None:  # a caller that says only "refit:…" (the refit of the model's parameters)
        why = moves.REFIT if reason.startswith("refit") else moves.Why()
    run = RatingRun.objects.create(reason=reason[:200], **why.fields())

    def send() -> None:
        # With the archive's notices: the tests keep both off their shared worker (settings.test).
        queue = getattr(settings, "ARCHIVE_NOTICE_QUEUE", None)
        options = {"queue": queue} if queue else {}
        current_app.signature(RECOMPUTE_TASK, args=(run.pk,)).apply_async(**options)

    transaction.on_commit(send, robust=True)
    return run


def run_recompute(*, run_id: int) -> str:
    """The task's work: run the recompute unless a later request will (several notices in a row
    make one recompute). Safe to run twice or after a kill: the recompute is one transaction."""
    run = RatingRun.objects.filter(pk=run_id).first()
    if run is None or run.status in (RunStatus.DONE, RunStatus.SUPERSEDED):
        return "nothing to do"
    if RatingRun.objects.filter(pk__gt=run_id, status=RunStatus.PENDING).exists():
        RatingRun.objects.filter(pk=run_id).update(status=RunStatus.SUPERSEDED, finished_at=timezone.now())
        return "superseded"
    RatingRun.objects.filter(pk=run_id).update(status=RunStatus.RUNNING, started_at=timezone.now())
    try:
        learnt = recompute(run=moves.answer_for(run))
    except Exception:
        RatingRun.objects.filter(pk=run_id).update(status=RunStatus.FAILED, finished_at=timezone.now())
        raise
    RatingRun.objects.filter(pk=run_id).update(status=RunStatus.DONE, finished_at=timezone.now(), done=learnt,
                                               total=learnt)
    return f"{learnt} matches"


def match_changed(sender: object, match_id: int, change: str, players: list[int], **kwargs: Any) -> None:
    """Receiver of the archive's notice: a new latest match is learnt at once, anything else is
    a full recompute, which keeps what the notice says it concerns (``about``)."""
    if change == "created" and learn_latest(match_id):
        return
    with transaction.atomic():
        request_recompute(reason=f"match {match_id} {change}",
                          why=moves.why_of_notice(match_id, change, kwargs.get("about")))
