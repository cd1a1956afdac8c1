"""A digest of every row the site keeps, table by table: a refused write must leave it as it was."""

from __future__ import annotations

from django.apps import apps
from django.db import connection

#: What a request changes without anyone doing anything: the session, the sign-in lockout's log,
#: when a key or an account was last used, the language the reader last used the site in.
VOLATILE_TABLES = ("django_session",)
VOLATILE_COLUMNS = ("last_login", "last_used_at", "last_used", "language")
APPS = ("clubs", "tournaments", "gameplay", "account")


def _tables() -> list[str]:
    names = []
    for label in APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            names.append(model._meta.db_table)
    return sorted(set(names) - set(VOLATILE_TABLES))


def world_state() -> dict[str, str]:
    """Each table's digest, in one query."""
    drop = "".join(f" - '{column}'" for column in VOLATILE_COLUMNS)
    parts = [  # table and column names from the models, no input
        f"SELECT '{table}', md5(coalesce(string_agg(j, '|' ORDER BY j), '')) "  # noqa: S608
        f"FROM (SELECT (to_jsonb(t){drop})::text AS j FROM \"{table}\" t) s"
        for table in _tables()
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return dict(cursor.fetchall())


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(table for table in before if before[table] != after.get(table))
