"""Who is connected at a table: seated players' sockets opening and closing, dead servers' sockets.

`gameplay.tables.servers` says which server processes are alive; the sockets of the others are dropped.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from gameplay.models import Seat, SeatConnection, TableStatus
from gameplay.protocol.frames import grace_seconds
from gameplay.tables import broadcast, servers

logger = logging.getLogger(__name__)


@transaction.atomic
def connection_changed(*, table_id: int, seat: int, delta: int = 0, channel_name: str = "",
                       server_id: str | None = None, dead_servers: tuple[str, ...] | list[str] = (),
                       skip_locked: bool = False) -> bool:
    """A socket of a seated player opened (+1) or closed (-1) in server process `server_id` (this
    one by default), and/or the sockets that dead server processes left behind are dropped
    (`dead_servers`, from `reap_dead_servers`): keep one `SeatConnection` row per socket (by its
    channel name), the count equal to the rows, the disconnection time and the grace.

    Idempotent: opening a recorded socket again only moves it to `server_id` (a process whose
    heartbeat lapsed records its sockets under a new id), closing one already dropped changes
    nothing, and nothing changed sends nothing. With `skip_locked`, a seat another
    transaction holds is left for the next try. Returns whether the seat changed.
    """
    # the seat row only: Seat's default ordering joins the table, whose lock would make the reaper
    # skip every seat of a table while one of them (or a move) is being done
    # (the table's status comes with it, read but not locked: one query where a connect took two)
    row = (Seat.objects.select_for_update(skip_locked=skip_locked, of=("self",))
           .filter(table_id=table_id, seat=seat, is_bot=False).annotate(table_status=F("table__status"))
           .order_by("pk").first())
    if row is None:
        return False
    server_id = server_id or servers.SERVER_ID
    links = SeatConnection.objects.filter(seat=row)
    if delta > 0 and channel_name:
        # a socket recorded again (its process's heartbeat lapsed) only moves to `server_id`
        SeatConnection.objects.bulk_create(
            [SeatConnection(seat=row, server_id=server_id, channel_name=channel_name)],
            update_conflicts=True, unique_fields=["channel_name"], update_fields=["server_id"])
    elif delta > 0:
        SeatConnection.objects.create(seat=row, server_id=server_id,
                                      channel_name=f"direct-{secrets.token_hex(8)}")
    elif delta < 0 and channel_name:
        links.filter(channel_name=channel_name).delete()
    elif delta < 0:
        oldest = links.filter(server_id=server_id).order_by("opened_at", "id").values("pk")[:1]
        SeatConnection.objects.filter(pk__in=oldest).delete()
    if dead_servers:
        links.filter(server_id__in=list(dead_servers)).delete()
    now = timezone.now()
    before = row.connections
    row.connections = links.count()
    if row.connections == before:
        return False
    playing = row.table_status == TableStatus.PLAYING
    if before == 0 and row.connections > 0 and row.disconnected_at is not None and playing:
        row.grace_used = min(grace_seconds(), row.grace_used + (now - row.disconnected_at).total_seconds())
    if row.connections > 0:
        row.disconnected_at = None
    elif before > 0 and row.connections == 0:
        row.disconnected_at = now
    row.save(update_fields=["connections", "grace_used", "disconnected_at"])
    transaction.on_commit(lambda: broadcast.send_presence(table_id), robust=True)
    return True


def reap_dead_servers() -> int:
    """Drop the socket rows of server processes whose heartbeat key is gone; returns seats changed.

    Each seat is one `connection_changed` transaction that takes the seat row lock with SKIP LOCKED,
    so two beats at once never do a seat twice (the second finds its rows gone) and a seat that a
    move or a connect holds is simply done on the next beat. Seats whose count has no rows behind
    it (counted before socket rows existed) are recounted the same way.
    """
    server_ids = sorted(set(SeatConnection.objects.values_list("server_id", flat=True)))
    dead = sorted(set(server_ids) - servers.live_servers(server_ids))
    seats = set(SeatConnection.objects.filter(server_id__in=dead)
                .values_list("seat__table_id", "seat__seat").distinct()) if dead else set()
    seats |= set(Seat.objects.filter(connections__gt=0, is_bot=False)
                 .annotate(rows=Count("live_connections", filter=Q(live_connections__isnull=False)))
                 .filter(rows=0).values_list("table_id", "seat"))
    changed = 0
    for table_id, seat in sorted(seats):
        try:
            changed += connection_changed(table_id=table_id, seat=seat, dead_servers=dead,
                                          skip_locked=True)
        except Exception:  # one seat must not keep the others connected
            logger.exception("Dropping dead sockets of table %s seat %s failed", table_id, seat)
    if dead:
        logger.info("Dropped the sockets of dead servers %s (%d seats changed)", ", ".join(dead), changed)
    return changed
