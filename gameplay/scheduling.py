"""Queue the bot and clock tasks; called from `transaction.on_commit`, so a rolled-back move queues nothing.

The tasks are queued by their registered names (`gameplay.tasks`), so this module, which the
services call, never imports the tasks that call the services. `GAMEPLAY_QUEUE_TASKS = False`
lets a test drive bots and clocks by hand (the tasks are plain services); the bot pause and the
clock scale are settings, never the rules object.
"""

from __future__ import annotations

from celery import signature
from django.conf import settings

BOT_MOVE_TASK = "gameplay.tasks.bot_move_task"
MOVE_CLOCK_TASK = "gameplay.tasks.move_clock_task"


def _enabled() -> bool:
    return bool(getattr(settings, "GAMEPLAY_QUEUE_TASKS", True))


def queue_bot_move(table_id: int, expected_event: int) -> None:
    if not _enabled():
        return
    pause = float(getattr(settings, "GAMEPLAY_BOT_PAUSE", 0.8))
    signature(BOT_MOVE_TASK).apply_async((table_id, expected_event), countdown=pause if pause > 0 else None)


def queue_clock(table_id: int, expected_event: int, seconds: float) -> None:
    if not _enabled():
        return
    signature(MOVE_CLOCK_TASK).apply_async((table_id, expected_event), countdown=max(0.0, seconds))
