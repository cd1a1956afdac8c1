"""A live table's finished match goes to the archive: its seats and result as the archive keeps them.

The archive knows nothing of the tables; the tables hand it a `PlayedMatch` through its one writer
(`archive.services.archive_match`).
"""

from __future__ import annotations

from archive import services as archive
from archive.models import ArchivedMatch, MatchSource, SeatKind
from clubs.models import Player
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.cards import SEATS
from gameplay.engine.games import game_of
from gameplay.models import Table, TableStatus


def seats_of_table(table: Table) -> list[archive.SeatIn]:
    """The seats of a live table as the archive keeps them (four, or N and S in Bilka for two)."""
    rows = list(table.seats.all())
    players = dict(Player.objects.filter(user_id__in=[s.user_id for s in rows if s.user_id])
                   .values_list("user_id", "pk"))
    out = []
    for s in rows:
        if s.is_bot:
            out.append(archive.SeatIn(seat=s.seat, name=s.name, kind=SeatKind.BOT, bot_level=s.bot_level))
        elif s.user_id is None:
            out.append(archive.SeatIn(seat=s.seat, name=s.name, kind=SeatKind.GUEST))
        else:
            out.append(archive.SeatIn(seat=s.seat, name=s.name, player_id=players.get(s.user_id),
                                      user_id=s.user_id))
    return out


def table_result(table: Table) -> tuple[int, int, str, str, int | None]:
    """(NS eyes, EW eyes, winner, reason, reason seat) as the table stored its result; in Bilka
    for two N's eyes, S's eyes and the winner's seat letter (N or S)."""
    result = table.result or {}
    seat = result.get("seat")
    first, second = ("N", "S") if game_of(table.rules) == BILKA2 else ("NS", "EW")
    return (int(result["score"][first]), int(result["score"][second]), str(result["winner"]),
            str(result.get("reason") or "eyes"), SEATS.index(seat) if seat else None)


def archive_table(table: Table) -> ArchivedMatch | None:
    """A casual table whose match was decided goes to the archive (called as it ends, in the
    same transaction). A cancelled match has no result and a tournament table waits for its
    tournament; neither is archived here."""
    if not table.casual or table.status != TableStatus.FINISHED or not (table.result or {}).get("winner"):
        return None
    ns, ew, winner, reason, seat = table_result(table)
    seats = seats_of_table(table)
    # a game against bots is its players' own until one of them shares it (many are left unfinished)
    against_bots = any(s.kind == SeatKind.BOT for s in seats)
    return archive.archive_match(played=archive.PlayedMatch(
        source=MatchSource.TABLE, seats=seats, rules=table.rules, rated=table.rated,
        played_at=table.finished_at or table.created_at, ns_eyes=ns, ew_eyes=ew, winner=winner,
        reason=reason, reason_seat=seat, record=table.record, table_id=table.pk,
        public=table.public and not against_bots,
    ))
