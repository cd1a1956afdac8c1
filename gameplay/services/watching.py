"""Who may watch a private table besides its players: a duplicate event's tables are watched by
anyone signed in except the event's own players (`Table.spectators_barred`)."""

from __future__ import annotations

from collections.abc import Iterable

from gameplay.models import Table


def bar_spectators(*, table_ids: Iterable[int], user_ids: Iterable[int]) -> int:
    """Let signed-in people watch these private tables, except `user_ids` (the whole list is
    replaced, so a caller that learns of a new player calls it again with everyone). A socket
    already open is not closed: a barred user is refused when he connects or reloads, and the
    event's players hold seats at their own tables, where nothing of another table reaches them.
    Returns how many tables were changed."""
    barred = sorted({int(u) for u in user_ids})
    return Table.objects.filter(pk__in=list(table_ids), public=False).update(spectators_barred=barred)
