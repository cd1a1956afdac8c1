"""Queue the bot and clock tasks; called from `transaction.on_commit`, so a rolled-back move queues nothing.

The tasks are queued by their registered names (`gameplay.tasks`), so this module, which the
services call, never imports the tasks that call the services. `GAMEPLAY_QUEUE_TASKS = False`
lets a test drive bots and clocks by hand (the tasks are plain services); the bot pause and the
clock scale are settings, never the rules object.

A bot's pause is the only timing anyone sees of a bot's hand, so it is drawn here, where nothing
of the hand is known: not the number of legal cards, not whether the card is forced. The spread
also covers the beginner's own thinking (a few milliseconds), which does depend on the hand. A
strong bot thinks for up to `settings.BOT_BUDGET` seconds and is padded to exactly that budget
(`services.bot_thinking`), so its reply comes after the same drawn pause plus the same budget
whatever it holds; its task goes to a queue of its own (`settings.BOT_QUEUE`).
"""

from __future__ import annotations

import logging
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)

BOT_MOVE_TASK = "gameplay.tasks.bot_move_task"
MOVE_CLOCK_TASK = "gameplay.tasks.move_clock_task"
BOT_THINK_TASK = "gameplay.tasks.bot_think_task"
BOT_PLAY_TASK = "gameplay.tasks.bot_play_task"


def enabled() -> bool:
    """Whether tasks are queued at all (`GAMEPLAY_QUEUE_TASKS`)."""
    return bool(getattr(settings, "GAMEPLAY_QUEUE_TASKS", True))


#: A thread of this process that sends the tasks, once `send_in_background` was called (the move
#: worker processes do, `gameplay.tables.move_pool`); None: each task is sent by its caller.
_sender: ThreadPoolExecutor | None = None


def send_in_background() -> None:
    """From now on this process's tasks are handed to one thread of its own, in order, and the
    caller goes on at once.

    A move's clock task is queued when the move commits, and in a move worker the move's frames
    go out only after the move returns: sending the task to the broker there (a Redis round trip,
    2 ms at a load of 4 and 276 ms for the first, which opens the connection) held every move's
    frames back by that much. The countdown becomes an absolute time when the task is queued, so
    the clock and the bots' pauses stay as exact as before. A task still in the thread's queue
    when the process ends normally is sent before it exits (the pool joins its thread); one in a
    process that is killed is lost, as it was when the process died between commit and send: the
    beat's sweep queues it again once the table is well past its deadline
    (`services.requeue_lost_tasks`)."""
    global _sender  # noqa: PLW0603 - one sender a process
    if _sender is None:
        _sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="task-sender")


def send_queued() -> None:
    """Wait until this process's thread has sent every task it holds (a move worker does before it
    exits on its own, `gameplay.tables.move_pool`); no task is queued after this."""
    if _sender is not None:
        _sender.shutdown(wait=True)


def _send(name: str, args: tuple[Any, ...], countdown: float | None, **options: Any) -> None:
    if _sender is None:
        signature(name).apply_async(args, countdown=countdown, **options)
        return
    eta = timezone.now() + timedelta(seconds=countdown) if countdown else None
    _sender.submit(_send_now, name, args, eta, options)


def _send_now(name: str, args: tuple[Any, ...], eta: datetime | None, options: dict[str, Any]) -> None:
    try:
        signature(name).apply_async(args, eta=eta, **options)
    except Exception:  # noqa: BLE001 - nobody waits on this thread: say so in the log
        logger.exception("task %s%r could not be queued", name, args)


#: Where bot pauses are drawn from; a test may put a seeded `random.Random` here.
pause_rng: random.Random = random.SystemRandom()


def _bot_pause_range() -> tuple[float, float]:
    """(shortest pause, spread above it) in seconds."""
    return (float(getattr(settings, "GAMEPLAY_BOT_PAUSE", 0.5)),
            float(getattr(settings, "GAMEPLAY_BOT_PAUSE_SPREAD", 0.8)))


def bot_pause() -> float:
    """Seconds before a bot's move: one draw from the same range for every move of every bot."""
    shortest, spread = _bot_pause_range()
    return max(0.0, shortest + spread * pause_rng.random())


def longest_bot_pause() -> float:
    """The longest pause `bot_pause` can draw."""
    shortest, spread = _bot_pause_range()
    return max(0.0, shortest + spread)


def queue_bot_move(table_id: int, expected_event: int, seat: int | None = None,
                   level: str = "beginner") -> None:
    """The bot to move plays (or, with `seat`, that bot answers the redeal question).

    A beginner plays under the table's lock on the default queue; any other level thinks without
    the lock, on the bots' queue."""
    if not enabled():
        return
    pause = bot_pause()
    args = (table_id, expected_event) if seat is None else (table_id, expected_event, seat)
    countdown = pause if pause > 0 else None
    if level == "beginner":
        _send(BOT_MOVE_TASK, args, countdown)
    else:
        _send(BOT_THINK_TASK, args, countdown, queue=settings.BOT_QUEUE)


def queue_bot_play(table_id: int, expected_event: int, seat: int, action: int, seconds: float) -> bool:
    """A strong bot's decided move, played `seconds` from now (the rest of its budget) by the bots'
    worker, which meanwhile thinks for other tables instead of sleeping; False when tasks are not
    queued (the caller then waits and plays itself)."""
    if not enabled():
        return False
    _send(BOT_PLAY_TASK, (table_id, expected_event, seat, action), seconds if seconds > 0 else None,
          queue=settings.BOT_QUEUE)
    return True


def queue_clock(table_id: int, expected_event: int, seconds: float) -> None:
    if not enabled():
        return
    _send(MOVE_CLOCK_TASK, (table_id, expected_event), max(0.0, seconds))
