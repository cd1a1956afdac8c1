"""The webhooks' pages: a club's hooks, and a tournament's event stream."""

from .hooks import hook_delete, hook_toggle, hooks
from .stream import tournament_events

__all__ = ["hook_delete", "hook_toggle", "hooks", "tournament_events"]
