"""Live tournament pages: tell everyone watching a tournament that it changed, once the change commits.

A result confirmed or corrected, a round paired or closed, a live table opened: each saves a
``Match`` or ``Round`` row, and a receiver here queues one small frame per tournament and
transaction, ``{"type": "changed", "version": N}``, for the group ``tournament-<id>``. The page
then fetches its own fragment again (static/tournaments/live.js): the frame carries no data, so a
dropped frame costs only a late refresh, and the next one heals it. A finished live table of a
tournament match queues the task that records its result.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models.signals import post_save

from gameplay.models import TableEvent

from .models import Announcement, BoardResult, Match, Round, Tournament
from .services.common import RECORD_TABLE_RESULT, on_commit_task

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int) -> None:
    """Queue a "changed" frame for this tournament when the current transaction commits.

    Several rows saved in one transaction send several frames; the page coalesces them (it
    fetches at most once per burst), which is cheaper than tracking transactions here.
    """
    transaction.on_commit(lambda: _send(tournament_id), robust=True)


def _send(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = tournament_group(tournament_id)
    message = {"type": "tournament.changed", "version": time.time_ns() // 1000}
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        # inside the server: its event loop sends, this database thread is free at once
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).add_done_callback(
            _log_failure
        )
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        _send_now(layer, group, message)
        return
    # a synchronous caller on a thread that runs an event loop (a script, a browser test's thread)
    sender = threading.Thread(target=_send_now, args=(layer, group, message), daemon=True)
    sender.start()
    sender.join(timeout=5)


def _send_now(layer, group: str, message: dict) -> None:
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the change committed; a lost hint is healed by the next one
        logger.warning("%s: live update not sent", group, exc_info=True)


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("live update not sent: %r", future.exception())


def _match_saved(sender, instance: Match, raw: bool = False, **kwargs) -> None:
    if not raw:
        changed(instance.tournament_id)


def _round_saved(sender, instance: Round, raw: bool = False, **kwargs) -> None:
    if not raw:
        changed(instance.tournament_id)


def _board_saved(sender, instance: BoardResult, raw: bool = False, **kwargs) -> None:
    """A duplicate table's board result: the standings' percentages move with every board, live."""
    if not raw:
        changed(Match.objects.filter(pk=instance.match_id).values_list("tournament_id", flat=True).get())


def _hall_saved(sender, instance, raw: bool = False, **kwargs) -> None:
    """An announcement posted or withdrawn, or the wall screen's view pinned: the hall screen and
    the tournament page show them, so they refresh as for a result."""
    if not raw:
        changed(instance.pk if isinstance(instance, Tournament) else instance.tournament_id)


def connect() -> None:
    """Send the frame on every saved match and round. Connected after the pages' freshness
    (``tournaments.freshness``): a transaction's hooks run at its commit in the order they were
    added, so the pages' versions are renewed before the frame goes out. The other way round, a
    page fetching itself at once after the frame got the page from before the change, as current,
    and kept showing it until the next change."""
    post_save.connect(_match_saved, sender=Match, dispatch_uid="bilka-live-match")
    post_save.connect(_round_saved, sender=Round, dispatch_uid="bilka-live-round")
    post_save.connect(_board_saved, sender=BoardResult, dispatch_uid="bilka-live-board")
    post_save.connect(_hall_saved, sender=Announcement, dispatch_uid="bilka-live-announcement")
    post_save.connect(_hall_saved, sender=Tournament, dispatch_uid="bilka-live-tournament")


def _table_event_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """The end event of a live table: if it was a tournament match's table, record the result on commit."""
    if raw or not created or instance.kind != "end":
        return
    table_id = instance.table_id
    if not Match.objects.filter(live_table=table_id).exists():
        return

    on_commit_task(RECORD_TABLE_RESULT, table_id)


def connect_table_events() -> None:
    post_save.connect(_table_event_saved, sender=TableEvent, dispatch_uid="bilka-day-table-end")
