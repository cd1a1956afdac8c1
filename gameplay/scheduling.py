"""Queue the bot and clock tasks; called from `transaction.on_commit`, so a rolled-back move queues nothing.

`GAMEPLAY_QUEUE_TASKS = False` lets a test drive bots and clocks by hand (the tasks are plain
services); the bot pause and the clock scale are settings, never the rules object.
"""

from __future__ import annotations

from django.conf import settings


def _enabled() -> bool:
    return bool(getattr(settings, "GAMEPLAY_QUEUE_TASKS", True))


def queue_bot_move(table_id: int, expected_event: int) -> None:
    if not _enabled():
        return
    from gameplay.tasks import bot_move_task

    pause = float(getattr(settings, "GAMEPLAY_BOT_PAUSE", 0.8))
    bot_move_task.apply_async((table_id, expected_event), countdown=pause if pause > 0 else None)


def queue_clock(table_id: int, expected_event: int, seconds: float) -> None:
    if not _enabled():
        return
    from gameplay.tasks import move_clock_task

    move_clock_task.apply_async((table_id, expected_event), countdown=max(0.0, seconds))
