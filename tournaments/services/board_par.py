"""A duplicate event's par on each board: worked out by a task, kept for the board's traveller.

The solver takes from under a second to a minute or more on a full 32-card board, so no page waits
for it: pairing a round queues one task per board the round deals (``queue_board_pars``), on the
analysis queue (``settings.ANALYSIS_QUEUE``) where the replays' double-dummy analysis runs, away
from the moves and the tournament day. ``compute_board_par`` is idempotent: a board whose par is
kept for the deal it names is left as it is; the solver runs outside any transaction and its answer
is kept only if the event still deals the board it read (a worker killed mid-solve loses nothing:
the task is acknowledged late and runs again).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from config import fresh
from gameplay.engine.boards import board_par
from gameplay.engine.rules import Rules

from ..formats.duplicate import deal_key, event_seed
from ..models import BoardPar, Tournament

PAR_TASK = "tournaments.board_par"
QUEUED_SECONDS = 3600
"""How long a board asked for is not asked for again: a solve may take a minute or more, and a board
queued twice meanwhile (a Mitchell's next round, the traveller opened) would be solved twice. After
that a board still without its par (its message lost) may be asked for again."""


def queue_board_pars(tournament: Tournament, boards: Iterable[int]) -> None:
    """Queue the par of each of ``boards`` not kept yet, once the transaction commits (nothing when
    it rolls back). A Mitchell deals every set again each round: those are asked for once."""
    key = deal_key(tournament)
    kept = set(BoardPar.objects.filter(tournament=tournament, deal_key=key).values_list("board", flat=True))
    wanted = sorted(set(boards) - kept)
    if not wanted:
        return
    tournament_id = tournament.pk

    def send() -> None:
        for board in wanted:
            if cache.add(f"board-par-queued:{tournament_id}:{board}:{key}", 1, QUEUED_SECONDS):
                current_app.signature(PAR_TASK, args=(tournament_id, board)).apply_async(
                    queue=settings.ANALYSIS_QUEUE)

    transaction.on_commit(send, robust=True)


def compute_board_par(*, tournament_id: int, board: int) -> str:
    """Work out (or keep) the par of one board of a duplicate event; says what it did."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament.is_duplicate:
        return "no duplicate event"
    seed = event_seed(tournament)
    if seed is None or board < 1:
        return "no such board"
    key = deal_key(tournament)
    if BoardPar.objects.filter(tournament=tournament, board=board, deal_key=key).exists():
        return "already worked out"
    rules = Rules.from_json(tournament.rules or {})
    started = time.perf_counter()
    par = board_par(seed, board, tournament.boards_per_round, rules)
    seconds = time.perf_counter() - started
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament_id)
        if deal_key(locked) != key:
            return "the event's boards changed"
        BoardPar.objects.update_or_create(
            tournament=locked, board=board,
            defaults={"ns_points": par, "deal_key": key, "seconds": seconds, "computed_at": timezone.now()})
        fresh.renew(slug=locked.slug)  # its traveller stops saying "being worked out"
    return f"par {par} in {seconds:.1f} s"
