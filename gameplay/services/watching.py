"""Who may watch a private table besides its players: a duplicate event's tables are watched by
anyone signed in except the event's own players (`Table.spectators_barred`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from gameplay.models import Table
from gameplay.tables import broadcast


def bar_spectators(*, table_ids: Iterable[int], user_ids: Iterable[int]) -> int:
    """Let signed-in people watch these private tables, except `user_ids` (the whole list is
    replaced, so a caller that learns of a new player calls it again with everyone). A barred
    user is refused when he connects or reloads; a socket he already has open as a spectator (a
    substitute who was watching before he joined the event) is told why and closed once this
    commits. Seated players keep their sockets: nothing of another table reaches a seat.
    Returns how many tables were changed."""
    barred = sorted({int(u) for u in user_ids})
    tables = list(Table.objects.filter(pk__in=list(table_ids), public=False).values_list("pk", flat=True))
    changed = Table.objects.filter(pk__in=tables).update(spectators_barred=barred)
    if tables and barred:
        transaction.on_commit(lambda: broadcast.send_barred(tables, barred), robust=True)
    return changed
