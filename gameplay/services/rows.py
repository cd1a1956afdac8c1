"""The four statements every move runs, as SQL written once instead of compiled by the ORM per call.

A move locks the table row, reads its four seats, advances the table by compare-and-set and
appends its event. Through the ORM each of these cost about 1 ms of query compilation and model
building on top of the round trip, more than the engine's work (profile of `services.play`);
the pool thread holds the GIL all that time, which the server's event loop waits for. Here the
statements are built once per database vendor from the models' own fields, values go through the
fields' own `get_db_prep_save` (JSON, dates), and rows come back as model instances
(`Model.from_db`), so callers see the same objects as before. PostgreSQL and SQLite alike; on
SQLite there is no row lock and the compare-and-set on `event_seq` is the guard (STACK-NOTES.md).
`post_save` is sent for each inserted event, as `objects.create` would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connections, router
from django.db.models.signals import post_save

from gameplay.models import Seat, Table, TableEvent


def _columns(model: Any) -> list[Any]:
    return [f for f in model._meta.concrete_fields]  # noqa: SLF001


def _q(name: str, alias: str) -> str:
    return connections[alias].ops.quote_name(name)


@cache
def _select_sql(model: Any, where: str, alias: str, vendor: str, lock: bool,
                order: str = "") -> tuple[str, list[str]]:
    fields = _columns(model)
    cols = ", ".join(_q(f.column, alias) for f in fields)
    sql = f"SELECT {cols} FROM {_q(model._meta.db_table, alias)} WHERE {where}"  # noqa: S608, SLF001 - names from the models
    if order:
        sql += f" ORDER BY {order}"
    if lock and connections[alias].features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql, [f.attname for f in fields]


@cache
def _converters(model: Any, alias: str) -> list[tuple[int, list[Any], Any]]:
    """(column index, converters, column) as the ORM's compiler applies them: the backend's, then
    the field's; built once per model and database, not on every move."""
    connection = connections[alias]
    table = model._meta.db_table  # noqa: SLF001
    out = []
    for i, field in enumerate(_columns(model)):
        col = field.get_col(table)
        funcs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if funcs:
            out.append((i, funcs, col))
    return out


def _fetch(model: Any, sql: str, attnames: list[str], params: list[Any], alias: str) -> list[Any]:
    connection = connections[alias]
    converters = _converters(model, alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = list(row)
        for i, funcs, col in converters:
            for func in funcs:
                values[i] = func(values[i], col, connection)
        out.append(model.from_db(alias, attnames, values))
    return out


def lock_table(table_id: int) -> Table | None:
    """The table row, locked until the transaction ends (SELECT ... FOR UPDATE), or None."""
    alias = router.db_for_write(Table)
    vendor = connections[alias].vendor
    sql, attnames = _select_sql(Table, f"{_q('id', alias)} = %s", alias, vendor, True)
    rows = _fetch(Table, sql, attnames, [table_id], alias)
    return rows[0] if rows else None


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in seat order."""
    alias = router.db_for_write(Seat)
    vendor = connections[alias].vendor
    where = f"{_q('table_id', alias)} = %s"
    sql, attnames = _select_sql(Seat, where, alias, vendor, False, _q("seat", alias))
    return _fetch(Seat, sql, attnames, [table.pk], alias)


_TABLE_UPDATED = ("event_seq", "status", "record", "move_deadline", "decision_event", "result", "started_at",
                  "finished_at")


@cache
def _update_sql(alias: str, vendor: str) -> str:
    sets = ", ".join(f"{_q(Table._meta.get_field(name).column, alias)} = %s" for name in _TABLE_UPDATED)  # noqa: SLF001
    return (f"UPDATE {_q(Table._meta.db_table, alias)} SET {sets} "  # noqa: S608, SLF001 - names from the model
            f"WHERE {_q('id', alias)} = %s AND {_q('event_seq', alias)} = %s")


def advance_table(table: Table, number: int) -> bool:
    """Store the table's changed fields with `event_seq = number` if nobody advanced it since
    `table.event_seq` was read (compare-and-set); False if somebody did."""
    alias = router.db_for_write(Table)
    connection = connections[alias]
    values = {**{name: getattr(table, name) for name in _TABLE_UPDATED}, "event_seq": number}
    params = [Table._meta.get_field(name).get_db_prep_save(values[name], connection)  # noqa: SLF001
              for name in _TABLE_UPDATED]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(alias, connection.vendor), [*params, table.pk, table.event_seq])
        return cursor.rowcount == 1


@cache
def _insert_sql(alias: str, vendor: str) -> tuple[str, list[Any], bool]:
    fields = [f for f in _columns(TableEvent) if f.name != "id"]
    cols = ", ".join(_q(f.column, alias) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    returning = connections[alias].features.can_return_columns_from_insert
    sql = f"INSERT INTO {_q(TableEvent._meta.db_table, alias)} ({cols}) VALUES ({marks})"  # noqa: S608, SLF001
    if returning:
        sql += f" RETURNING {_q('id', alias)}"
    return sql, fields, returning


def insert_event(event: TableEvent) -> TableEvent:
    """INSERT an unsaved event (its fields already set), give it its id and send `post_save`."""
    alias = router.db_for_write(TableEvent)
    connection = connections[alias]
    sql, fields, returning = _insert_sql(alias, connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(event, add=True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        event.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    event._state.adding = False  # noqa: SLF001
    event._state.db = alias  # noqa: SLF001
    post_save.send(sender=TableEvent, instance=event, created=True, update_fields=None, raw=False,
                   using=alias)
    return event
