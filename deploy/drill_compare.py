"""The restore drill's comparisons (deploy/restore-drill): the rows of every table and the sequences
of two PostgreSQL databases, and the public pages as the site renders them from one database.

    python deploy/drill_compare.py counts SOURCE_URL RESTORED_URL    # exit 1 when they differ
    python deploy/drill_compare.py counts - RESTORED_URL              # the restored one's figures only
    python deploy/drill_compare.py pages --out FILE [--require-ok]   # with DATABASE_URL in the environment
    python deploy/drill_compare.py same-pages SOURCE.json RESTORED.json  # exit 1 when they differ

A page is compared by the hash of its body with what differs on every request taken out (the
form token, the script nonce), so the same rows give the same hash and any missing row shows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
PER_REQUEST = [
    (re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*"'), rb'\1"'),
    (re.compile(rb'(nonce=")[^"]*"'), rb'\1"'),
]


def table_counts(url: str) -> dict[str, int]:
    """Exact rows of every table outside PostgreSQL's own schemas, by schema.table."""
    with psycopg.connect(url) as conn:
        tables = conn.execute(
            "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2"
        ).fetchall()
        counts = {}
        for schema, table in tables:
            name = sql.Identifier(schema, table)
            query = sql.SQL("SELECT count(*) FROM {}").format(name)
            counts[f"{schema}.{table}"] = conn.execute(query).fetchone()[0]
        return counts


def sequence_values(url: str) -> dict[str, int | None]:
    """Where every sequence stands: a restore that lost them would hand out ids already taken."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2"
        ).fetchall()
    return {f"{schema}.{name}": value for schema, name, value in rows}


def compare_counts(source: str, restored: str) -> int:
    after = table_counts(restored)
    print(f"restored: {len(after)} tables, {sum(after.values())} rows, "
          f"{sum(1 for n in after.values() if n)} of them with rows")
    if source == "-":
        return 0
    before = table_counts(source)
    differ = {t: (before.get(t), after.get(t)) for t in sorted(set(before) | set(after))
              if before.get(t) != after.get(t)}
    sequences_before, sequences_after = sequence_values(source), sequence_values(restored)
    sequences_differ = {s: (sequences_before.get(s), sequences_after.get(s))
                        for s in sorted(set(sequences_before) | set(sequences_after))
                        if sequences_before.get(s) != sequences_after.get(s)}
    for table, (was, now) in differ.items():
        print(f"  DIFFERS  {table}: {was} rows in the source, {now} restored")
    for sequence, (was, now) in sequences_differ.items():
        print(f"  DIFFERS  sequence {sequence}: {was} in the source, {now} restored")
    if differ or sequences_differ:
        return 1
    print(f"source and restored: the same {len(before)} tables with the same row counts "
          f"({sum(before.values())} rows), the same {len(sequences_before)} sequences")
    return 0


def render_pages() -> dict[str, Any]:
    """GET the public pages as a visitor, in this process, from the database of DATABASE_URL.

    The cache gets a key prefix of its own, or the second database's pages could come out of the
    first one's cached fragments and look the same whatever was restored."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django
    from django.conf import settings

    prefix = f"drill-{uuid.uuid4().hex[:10]}"
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": prefix}}
    django.setup()
    from django.test import Client

    from gameplay.models import Table
    from tournaments.models import Tournament

    paths = ["/", "/archive/", "/tournaments/", "/ratings/", "/clubs/"]
    slugs = Tournament.objects.order_by("pk").values_list("slug", flat=True)
    paths += [f"/t/{slug}/standings/" for slug in slugs]
    paths += [f"/tables/{pk}/replay/" for pk in Table.objects.filter(public=True).order_by("pk")
              .values_list("pk", flat=True)[:3]]
    client = Client(HTTP_HOST="localhost")
    pages = {}
    for path in paths:
        response = client.get(path)
        body = response.content
        for pattern, replacement in PER_REQUEST:
            body = pattern.sub(replacement, body)
        pages[path] = {"status": response.status_code, "bytes": len(body),
                       "sha256": hashlib.sha256(body).hexdigest()}
    return pages


def show_pages(pages: dict[str, Any]) -> None:
    for path, page in pages.items():
        print(f"  {page['status']} {page['bytes']:>7} bytes  {page['sha256'][:12]}  {path}")


def same_pages(source: Path, restored: Path) -> int:
    before, after = json.loads(source.read_text()), json.loads(restored.read_text())
    differ = sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))
    for path in differ:
        print(f"  DIFFERS  {path}: {before.get(path)} from the source, {after.get(path)} restored")
    if differ:
        return 1
    show_pages(before)
    print(f"{len(before)} pages render the same from both (status, bytes, sha256 of the body without "
          "the form token and the script nonce)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    counts = commands.add_parser("counts", help="compare the row counts of every table and the sequences")
    counts.add_argument("source", help="the database backed up (postgres:// URL), or - for none")
    counts.add_argument("restored", help="the database restored into (postgres:// URL)")
    pages = commands.add_parser("pages", help="render the public pages from DATABASE_URL's database")
    pages.add_argument("--out", type=Path, required=True)
    pages.add_argument("--require-ok", action="store_true", help="print them; exit 1 unless all are 200")
    same = commands.add_parser("same-pages", help="compare two renderings written by `pages`")
    same.add_argument("source", type=Path)
    same.add_argument("restored", type=Path)
    args = parser.parse_args()
    if args.command == "counts":
        return compare_counts(args.source, args.restored)
    if args.command == "same-pages":
        return same_pages(args.source, args.restored)
    rendered = render_pages()
    args.out.write_text(json.dumps(rendered, indent=1, sort_keys=True))
    if not args.require_ok:
        return 0
    show_pages(rendered)
    failing = {path: page["status"] for path, page in rendered.items() if page["status"] != 200}
    print(f"{len(rendered)} pages rendered from the restored database; not 200: {failing or 'none'}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
