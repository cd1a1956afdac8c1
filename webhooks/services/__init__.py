"""The webhooks' writers: events recorded from the tournaments' changes, hooks, and delivery attempts."""

from .deliveries import attempt, sweep
from .events import record_audited, record_finished
from .hooks import create_hook, delete_hook, set_hook_active

__all__ = [
    "attempt",
    "create_hook",
    "delete_hook",
    "record_audited",
    "record_finished",
    "set_hook_active",
    "sweep",
]
