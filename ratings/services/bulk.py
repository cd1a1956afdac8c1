"""PostgreSQL fast paths of the full rating recompute (``recompute``): one read of every
rated match with its seats and deals over a server-side cursor, and COPY for what it writes.

The ORM path (``recompute``) reads a batch of matches, then their seats, then their deals, and
writes with ``bulk_create``: fine for a few thousand matches, minutes for a million. Here one
query returns each match with its seats and deals folded into two strings, in the model's order
(played_at, then id), streamed in chunks while the model learns; the rating changes are
formatted for COPY as they are computed (into a temporary file), then copied in one go. Both
run in the caller's transaction, under its lock. SQLite (the dev site) keeps the ORM path.
"""

from __future__ import annotations

import datetime
import json
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from archive.models import ArchivedDeal, ArchivedMatch, ArchivedSeat
from ratings.models import BILKA_GAME, RatedGame

_READ = f"""
SELECT m.id, m.played_at, m.rules::text, m.winner, m.reason, m.tournament, m.ns_eyes, m.ew_eyes,
  (SELECT string_agg(s.seat || ':' || coalesce(s.player_id::text, ''), ',')
     FROM {ArchivedSeat._meta.db_table} s WHERE s.match_id = m.id),
  (SELECT string_agg(d.outcome || ',' || coalesce(d.pair_on_duty::text, '') || ','
                     || coalesce(d.ns_points::text, '') || ',' || coalesce(d.ew_points::text, '') || ','
                     || d.ns_eyes || ',' || d.ew_eyes, ';' ORDER BY d.number)
     FROM {ArchivedDeal._meta.db_table} d WHERE d.match_id = m.id)
FROM {ArchivedMatch._meta.db_table} m
WHERE m.rated AND {{game}}
ORDER BY m.played_at, m.id
"""  # noqa: S608 - the table names are the models', nothing comes from outside
#: Which game's matches ``_READ`` reads, as ``recompute.of_game``: Bilka's rules name no game, the
#: others' name theirs (the value passed as a parameter).
_BILKA_ONLY = "NOT (m.rules ? 'game')"
_GAME_NAMED = "m.rules->>'game' = %s"
CHANGE_COLUMNS = ("match_id", "player_id", "game", "played_at", "seq", "before", "after", "deviation_before",
                  "deviation_after", "weight")


class ArchivedRow:
    """The fields of an archived match the recompute reads (``ArchivedMatch`` names, no model)."""

    __slots__ = ("pk", "played_at", "rules", "winner", "reason", "tournament", "ns_eyes", "ew_eyes")

    def __init__(self, pk: int, played_at: datetime.datetime, rules: dict[str, Any], winner: str, reason: str,
                 tournament: int | None, ns_eyes: int | None = None, ew_eyes: int | None = None) -> None:
        self.pk, self.played_at, self.rules = pk, played_at, rules
        self.winner, self.reason, self.tournament = winner, reason, tournament
        self.ns_eyes, self.ew_eyes = ns_eyes, ew_eyes


def deal_row(text: str) -> tuple[str, int | None, int | None, int | None, int, int]:
    """One deal as ``_READ`` folds it (outcome, duty, NS and EW points, NS and EW eyes)."""
    outcome, duty, ns_points, ew_points, ns_eyes, ew_eyes = text.split(",")
    return (outcome, int(duty) if duty else None, int(ns_points) if ns_points else None,
            int(ew_points) if ew_points else None, int(ns_eyes), int(ew_eyes))


def rated_matches(conn: Any, itersize: int = 5000, *, game: RatedGame = BILKA_GAME
                  ) -> Iterator[tuple[ArchivedRow, list[str], list[str]]]:
    """Every rated match of ``game`` in the model's order: the row, its four players (N E S W, ""
    for a seat without one) and its deals, each still folded (``deal_row`` unfolds it)."""
    rules_of: dict[str, dict[str, Any]] = {}
    bilka = game.key == BILKA_GAME.key
    with conn.cursor(name="bilka_ratings_recompute") as cur:
        cur.itersize = itersize
        cur.execute(_READ.replace("{game}", _BILKA_ONLY if bilka else _GAME_NAMED),
                    None if bilka else (game.engine,))
        while rows := cur.fetchmany(itersize):
            for (pk, played_at, rules_text, winner, reason, tournament, ns_eyes, ew_eyes, seats_text,
                 deals_text) in rows:
                rules = rules_of.get(rules_text)
                if rules is None:
                    rules = rules_of[rules_text] = json.loads(rules_text)
                seats = ["", "", "", ""]
                if seats_text:
                    for part in seats_text.split(","):
                        seat, _, player = part.partition(":")
                        seats[int(seat)] = player
                yield (ArchivedRow(pk, played_at, rules, winner, reason, tournament, ns_eyes, ew_eyes), seats,
                       deals_text.split(";") if deals_text else [])


class ChangeFile:
    """Rating changes formatted for COPY as they come (text format, tuples in ``CHANGE_COLUMNS``
    order; a float's repr reads back as the same float), kept in a temporary file until written.
    Formatted here rather than by psycopg's ``write_row``: four times faster for these plain rows."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.file: IO[bytes] = tempfile.TemporaryFile()
        self.lines: list[str] = []
        self.rows = 0
        self._moment: datetime.datetime | None = None
        self._moment_text = ""

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        lines = self.lines
        for match_id, player_id, game, played_at, seq, before, after, dev_before, dev_after, weight in rows:
            if played_at is not self._moment:
                self._moment, self._moment_text = played_at, played_at.isoformat()
            lines.append(f"{match_id}\t{player_id}\t{game}\t{self._moment_text}\t{seq}\t{before!r}\t{after!r}\t"
                         f"{dev_before!r}\t{dev_after!r}\t{weight!r}\n")
        if len(lines) >= 20_000:
            self._flush()

    def _flush(self) -> None:
        self.rows += len(self.lines)
        self.file.write("".join(self.lines).encode())
        self.lines.clear()

    def write(self, table: str) -> None:
        """Copy every change formatted so far into ``table``; the file is closed."""
        self._flush()
        self.file.seek(0)
        statement = f"COPY {table} ({', '.join(CHANGE_COLUMNS)}) FROM STDIN"
        with self.conn.cursor() as cur, cur.copy(statement) as copy:
            while chunk := self.file.read(1 << 20):
                copy.write(chunk)
        self.file.close()


def copy_rows(conn: Any, table: str, columns: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> None:
    with conn.cursor() as cur, cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


#: Below this many new rows the old ones are DELETEd and the keys and indexes stay: readers keep
#: the old ratings until the commit and nothing else is locked. Above it (a million matches) the
#: table is emptied with TRUNCATE and its keys and indexes are made again after the copy, which
#: locks the rating tables against readers, and writes to the tables they point at (the archive,
#: the players), until the commit: a price worth the minutes it saves only for a very large recompute.
BULK_REPLACE_ROWS = 200_000


@contextmanager
def _deleting(conn: Any, table: str, game: str) -> Iterator[None]:
    with conn.cursor() as cur:
        cur.execute(f"DELETE FROM {table} WHERE game = %s", (game,))  # noqa: S608
    yield


def replacing(conn: Any, table: str, game: str, *, rows: int = BULK_REPLACE_ROWS) -> Any:
    """Every row of ``game`` in ``table`` replaced by what the block copies in (``rows`` of them):
    by DELETE below ``BULK_REPLACE_ROWS``, else by ``_truncating``."""
    if rows < BULK_REPLACE_ROWS:
        return _deleting(conn, table, game)
    return _truncating(conn, table, game)


@contextmanager
def _truncating(conn: Any, table: str, game: str) -> Iterator[None]:
    """Every row of ``game`` in ``table`` replaced by what the block copies in.

    When the table holds that game alone (always, today): TRUNCATE, and its foreign keys and
    indexes other than the primary key dropped for the copy and made again after it (a key then
    checked by one query rather than by a trigger a row at commit, an index built by one sort
    rather than four million insertions; a million matches write four million changes, and the
    old rows' dead duplicates under the unique index and the row-by-row checks cost over a
    minute each). The same names and definitions come back (pg_get_indexdef, pg_get_constraintdef). Both are
    transactional: a rollback restores the rows and the keys. Both refuse a table with trigger
    events pending in the transaction, so the deferred checks pending are run first (SET
    CONSTRAINTS ALL IMMEDIATE; every deferrable constraint here is initially deferred, so ALL
    DEFERRED afterwards puts things back). They lock the table against readers until the commit.
    Otherwise, DELETE and a plain copy."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE game <> %s)", (game,))  # noqa: S608
        if cur.fetchone()[0]:
            cur.execute(f"DELETE FROM {table} WHERE game = %s", (game,))  # noqa: S608
            yield
            return
        cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
                    " WHERE conrelid = %s::regclass AND contype = 'f' ORDER BY conname", (table,))
        keys = cur.fetchall()
        cur.execute("SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid), c.conname,"
                    " pg_get_constraintdef(c.oid) FROM pg_index i LEFT JOIN pg_constraint c"
                    " ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid"
                    " WHERE i.indrelid = %s::regclass AND NOT i.indisprimary ORDER BY 1", (table,))
        indexes = cur.fetchall()
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cur.execute(f"TRUNCATE {table}")
        for name, _definition in keys:
            cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for index, _index_def, constraint, _definition in indexes:  # built again once, by one sort
            cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"' if constraint
                        else f"DROP INDEX {index}")
        yield
        cur.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for _index, index_def, constraint, definition in indexes:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{constraint}" {definition}' if constraint
                        else index_def)
        for name, definition in keys:
            cur.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        cur.execute("SET CONSTRAINTS ALL DEFERRED")
