"""The bench's tables in its own PostgreSQL database: made fresh for every run, played into their deals.

Used by bench.ws.load before each run (and by the tests of the stagger). Everything here runs in
the load generator's process, through the services, as the site would.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def matches_ended() -> str:
    """How the matches that ended during the run ended (a table whose match is over makes no more
    moves, so moves/s falls below tables/interval)."""
    from django.db.models import Count

    from gameplay.models import Table

    rows = (Table.objects.filter(status="finished").values_list("result__reason")
            .annotate(n=Count("id")).order_by())
    return ", ".join(f"{n} by {reason}" for reason, n in rows) or "0"


def prepare(args) -> list[tuple[int, list[str]]]:
    """Create the bench database if needed, migrate, and open the tables; [(table id, 4 session keys)]."""
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)  # noqa: S603

    import django

    django.setup()
    from django.conf import settings

    from gameplay.models import Table

    Table.objects.all().delete()
    vacuum()
    # The first mover's clock starts when the fourth player sits, here, before the server has
    # started and the 2,000 sockets have connected (15-30 s): give those first clocks 100 times
    # the time, so no table is lost on time before it could move. Every later clock is the
    # server's, `--move-seconds`.
    settings.GAMEPLAY_CLOCK_SCALE = 100 * float(os.environ["BENCH_CLOCK_SCALE"])
    tables = [open_table() for _ in range(args.tables)]
    if args.stagger:
        stagger(tables, random.Random(args.seed))
    return tables


def open_table() -> tuple[int, list[str]]:
    """A table with four guests seated (each a session of its own): (its id, their session keys)."""
    from django.contrib.sessions.backends.db import SessionStore

    from gameplay import services

    keys = []
    for _seat in range(4):
        session = SessionStore()
        session["bilka_guest"] = True
        session.create()
        keys.append(session.session_key)
    table = services.create_table(rules={"move_seconds": 60}, seating="in_order", session_key=keys[0])
    for key in keys[1:]:
        services.sit(table_id=table.pk, session_key=key)
    return table.pk, keys


def vacuum() -> None:
    """Compact the bench database after the last run's tables are deleted, so every run starts
    from the same tables. Every move rewrites its table's row (its record grows card by card) and
    adds an event; where PostgreSQL's autovacuum is off (this machine's configuration file turns it
    off, a site's leaves it on), each run left ~20 MB of dead rows behind and after four runs the
    bench database (258 MB) had outgrown shared_buffers (128 MB); runs must start alike."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        if cursor.fetchone()[0] != "on":
            print("note: PostgreSQL's autovacuum is off: dead rows pile up during the run as they "
                  "would not on a site (the run starts compacted)")
        cursor.execute("VACUUM (FULL, ANALYZE)")


DEAL_MOVES = 4 + 32  # the redeal question's four answers, then 32 cards


def stagger(tables: list[tuple[int, list[str]]], rng: random.Random) -> None:
    """Play each table 0 to DEAL_MOVES - 1 moves into its match before the run, through the
    service as the server would, so that the tables' deals end at different times. Without it all
    100 tables start their first deal in the same second and, moving every `--interval` seconds,
    end it in the same few seconds, and every deal after it about 70 s later: a deal's last card
    (its scores, the next deal, the new redeal question) is dearer than a card, and the clusters
    of slow moves they made every 70 s fell into the same windows of `--flood-windows` in every run
    (its order of windows was seeded alike), most of them flooded ones. A site's tables are at every
    point of their deals at once. Clock tasks are not queued for these moves (their clocks are the
    first clocks' long ones; the run's first move at each table sets the next)."""
    from django.conf import settings

    from gameplay import services
    from gameplay.engine.state import Phase
    from gameplay.models import Table

    queued = settings.GAMEPLAY_QUEUE_TASKS
    settings.GAMEPLAY_QUEUE_TASKS = False
    try:
        for tid, _keys in tables:
            for _ in range(rng.randrange(DEAL_MOVES)):
                table = Table.objects.get(pk=tid)
                state = services.load_state(table)
                if table.status != "playing" or state is None:
                    break
                if state.phase == Phase.REDEAL:
                    seat, action, expected = min(state.redeal_pending), "pass", table.decision_event
                else:
                    seat, expected = state.to_move, table.event_seq
                    action = rng.choice([services.public_action(a) for a in state.legal_actions()])
                outcome = services.play(table_id=tid, seat=seat, action=action, expected_event=expected)
                if not outcome.ok:
                    raise SystemExit(f"stagger: table {tid}: {outcome.message}")
    finally:
        settings.GAMEPLAY_QUEUE_TASKS = queued
