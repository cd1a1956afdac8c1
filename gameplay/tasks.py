"""Celery tasks of the live tables: a bot's move (a strong bot's on a queue of its own), the move
clock, the sockets of dead server processes and the tasks lost with a killed process. Idempotent:
each carries the event number it was queued for and does nothing when the table has moved on or is
gone; the reaper only drops what is still there."""

from __future__ import annotations

from celery import shared_task

from gameplay import services


@shared_task(ignore_result=True, acks_late=True)
def bot_move_task(table_id: int, expected_event: int, seat: int | None = None) -> str:
    return services.bot_move(table_id=table_id, expected_event=expected_event, seat=seat)


@shared_task(ignore_result=True, acks_late=True)
def bot_think_task(table_id: int, expected_event: int, seat: int | None = None) -> str:
    """A strong bot's move, on the bots' queue (`settings.BOT_QUEUE`): it thinks for its budget
    without the table's lock, then plays if the table is still where the task was queued."""
    return services.bot_think(table_id=table_id, expected_event=expected_event, seat=seat)


@shared_task(ignore_result=True, acks_late=True)
def bot_play_task(table_id: int, expected_event: int, seat: int, action: int) -> str:
    """A strong bot's decided move, played when its budget is spent (queued by `bot_think_task` on
    the bots' queue with the rest of the budget as its countdown); stale if the table moved on."""
    return services.bot_play(table_id=table_id, expected_event=expected_event, seat=seat, action=action)


@shared_task(ignore_result=True, acks_late=True)
def move_clock_task(table_id: int, expected_event: int) -> str:
    return services.clock_expired(table_id=table_id, expected_event=expected_event)


@shared_task(ignore_result=True)
def reap_dead_servers_task() -> int:
    """Beat (every 15 s): drop the sockets of server processes whose heartbeat key is gone, as
    their disconnects would have (`gameplay.tables.servers`). Safe to run twice or at once."""
    return services.reap_dead_servers()


@shared_task(ignore_result=True)
def requeue_lost_tasks_task() -> int:
    """Beat (every 30 s): queue again the clock or bot task of tables that have waited far past
    it (its process was killed between the move's commit and sending it). Safe to run twice."""
    return len(services.requeue_lost_tasks())
