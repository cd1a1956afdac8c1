"""How fast the site's full rating recompute runs on PostgreSQL: read, compute, write.

    .venv/bin/python -m bench.ratings.recompute [--matches 1000000] [--players 3000] [--rebuild] [--runs 1]

Builds, once, the database ``bilka_ratings_bench`` (migrated with ``manage.py migrate``) holding
``--matches`` rated archived matches, each with its four seats and its deals (deals simulated by
the engine's own scoring, ``bench.ratings.sim.play_match``, from hidden strengths: eggs, wins,
routs and Lucy in their real shares; about 5 % known by their score alone, a few resigned, casual
groups that meet again and again, late entries played before matches entered earlier), written
with COPY. Later runs reuse it unless ``--rebuild``. Then it times ``recompute()`` (the first run
writes into empty rating tables, later ones replace the rows the previous run wrote) and prints
read / compute / write seconds, the total, matches a second and the rows written, and, from the
same command, the pure model's updates a second (``bench/ratings/speed.py``). The goal: the full
recompute of 1,000,000 matches within 120 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time

DB = os.environ.get("BILKA_BENCH_DB", "bilka_ratings_bench")  # another name for a small trial
SERVER = "postgres://postgres@127.0.0.1:5432"
os.environ["DATABASE_URL"] = f"{SERVER}/{DB}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/8")

import psycopg  # noqa: E402

from clubs.translit import search_key  # noqa: E402

from .sim import play_match  # noqa: E402

EPOCH = datetime.datetime(2021, 1, 1, 6, tzinfo=datetime.UTC)
CHUNK = 50_000


def _ensure_db(rebuild: bool) -> bool:
    """The bench database exists (created now when missing or asked to rebuild); True if new."""
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB,)).fetchone()
        if exists and not rebuild:
            return False
        if exists:
            conn.execute(f'DROP DATABASE "{DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB}"')
    return True


def _players(cur: psycopg.Cursor, n: int) -> list[int]:
    now = datetime.datetime.now(datetime.UTC)
    with cur.copy("COPY clubs_player (display_name, city, search_name, created_at) FROM STDIN") as copy:
        for i in range(n):
            copy.write_row((f"Игрок {i}", f"Село {i % 97}", f"igrok {i}", now))
    return [r[0] for r in cur.execute("SELECT id FROM clubs_player ORDER BY id")]


def _fill(n: int, n_players: int, seed: int) -> None:
    """n rated matches: players of uneven activity, tournaments in rounds, casual groups, deals."""
    rng = random.Random(seed)
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn, conn.cursor() as cur:
        cur.execute("SET session_replication_role = replica")  # the rows are consistent by construction
        ids = _players(cur, n_players)
        strength = {p: rng.gauss(0, 0.3) for p in ids}
        activity = [1.0 / (k + 1) ** 0.8 for k in range(len(ids))]  # a few play daily, most now and then
        rng.shuffle(activity)
        groups = [rng.choices(ids, activity, k=8) for _ in range(n_players // 4)]
        conn.commit()
        minutes = 5 * 365 * 24 * 60 / n  # five years of play
        made = 0
        while made < n:
            size = min(CHUNK, n - made)
            matches, seats, deals = [], [], []
            for i in range(made + 1, made + size + 1):
                at = EPOCH + datetime.timedelta(minutes=i * minutes)
                tournament: int | None = None
                if rng.random() < 0.7:  # a tournament round: every match at the round's time
                    tournament = 1 + i // 400
                    at = EPOCH + datetime.timedelta(minutes=(i // 40) * 40 * minutes)
                elif rng.random() < 0.03:  # a late entry, played weeks before it was archived
                    at -= datetime.timedelta(days=rng.uniform(1, 60))
                if tournament is None and rng.random() < 0.5:  # a casual group meeting again
                    four = list(dict.fromkeys(rng.choice(groups)))[:4]
                else:
                    four = []
                while len(four) < 4:
                    four = list(dict.fromkeys(four + rng.choices(ids, activity, k=4 - len(four))))[:4]
                diff = strength[four[0]] + strength[four[2]] - strength[four[1]] - strength[four[3]]
                winner, (ns, ew), played = play_match(rng, diff)
                reason = "eyes"
                if rng.random() < 0.02:
                    reason = rng.choice(("resign", "timeout"))
                    played = played[: max(1, len(played) // 2)]
                sheet_only = rng.random() < 0.05
                rules = '{"rout_at": 91}' if rng.random() < 0.1 else "{}"
                src = "tournament" if tournament else "table"
                matches.append((i, src, tournament, i if tournament else None, at, at, rules, rules[:16], ns,
                                ew, winner, reason, not sheet_only, 0 if sheet_only else len(played), True,
                                True, "",
                                f"Турнир {tournament}" if tournament else "", ""))
                for seat, pid in enumerate(four):
                    name = f"Игрок {pid}"  # no bot_level: a person
                    seats.append((i, seat, "player", pid, name, "", search_key(name)))
                if sheet_only:
                    continue
                score = [0, 0]
                for number, d in enumerate(played, start=1):
                    score = [score[0] + d["NS"], score[1] + d["EW"]]
                    if d["outcome"] == "lucy":
                        score[1 if d["NS"] else 0] = 0
                    duty = 0 if d["on_duty"] == "NS" else 1
                    holder = duty + 2 * rng.randrange(2)
                    deals.append((i, number, d["outcome"], duty, holder, d["points"][0], d["points"][1],
                                  d["NS"], d["EW"], min(score[0], 12), min(score[1], 12)))
            _copy(cur, matches, seats, deals)
            conn.commit()
            made += size
            print(f"  {made:,} matches archived", flush=True)
        # the sequence kept the name it had before the archive got an app of its own: ask for it
        cur.execute("SELECT setval(pg_get_serial_sequence('archive_archivedmatch', 'id'), %s)", (n,))
        conn.commit()
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def _copy(cur: psycopg.Cursor, matches: list, seats: list, deals: list) -> None:
    with cur.copy("COPY archive_archivedmatch (id, source, tournament, tournament_match, played_at,"
                  " archived_at, rules, rules_key, ns_eyes, ew_eyes, winner, reason, has_record, deal_count,"
                  " rated, public,"
                  " record_hash, event_name, event_url) FROM STDIN") as copy:
        for row in matches:
            copy.write_row(row)
    with cur.copy("COPY archive_archivedseat (match_id, seat, kind, player_id, name, bot_level, search_name)"
                  " FROM STDIN") as copy:
        for row in seats:
            copy.write_row(row)
    with cur.copy("COPY archive_archiveddeal (match_id, number, outcome, pair_on_duty, jack_holder,"
                  " ns_points, ew_points, ns_eyes, ew_eyes, ns_score, ew_score) FROM STDIN") as copy:
        for row in deals:
            copy.write_row(row)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=3_000)
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    _ensure_db(args.rebuild)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from archive.models import ArchivedMatch
    from ratings.services import recompute as ratings

    # A reused database gets the migrations added since it was built (new tables the recompute writes).
    call_command("migrate", verbosity=0)
    have = ArchivedMatch.objects.filter(rated=True).count()
    if have != args.matches:
        if have:
            sys.exit(f"{DB} holds {have:,} matches, not {args.matches:,}: run with --rebuild")
        started = time.perf_counter()
        print(f"building {DB}: {args.matches:,} matches, {args.players:,} players")
        _fill(args.matches, args.players, args.seed)
        print(f"built in {time.perf_counter() - started:.0f} s")
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM archive_archiveddeal")
        deal_rows = cur.fetchone()[0]
    print(f"{args.matches:,} rated matches, {deal_rows:,} deals ({deal_rows / args.matches:.1f} a match); "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for run in range(1, args.runs + 1):
        timings: dict[str, float] = {}
        started = time.perf_counter()
        learnt = ratings.recompute(timings=timings)
        total = time.perf_counter() - started
        timings["write"] = timings.get("write", 0) + timings.get("commit", 0)
        with connection.cursor() as cur:
            counts = []
            for table in ("ratings_ratingchange", "ratings_playerrating", "ratings_pairrating"):
                cur.execute(f"SELECT count(*) FROM {table}")  # noqa: S608
                counts.append(cur.fetchone()[0])
        print(f"run {run}: {learnt:,} matches in {total:.1f} s = read {timings.get('read', 0):.1f} + compute "
              f"{timings.get('compute', 0):.1f} + write {timings.get('write', 0):.1f} (of which the "
              f"commit's foreign-key checks {timings.get('commit', 0):.1f}) s; {learnt / total:,.0f} "
              f"matches/s; wrote {counts[0]:,} rating changes, {counts[1]:,} player and {counts[2]:,} pair "
              f"ratings; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    from . import speed

    print("pure model (python -m bench.ratings.speed):", flush=True)
    sys.argv = [sys.argv[0]]
    speed.main()


if __name__ == "__main__":
    main()
