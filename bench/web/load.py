"""Benchmark: a 256-pair Swiss under load — its home and standings pages and the API's standings.

Builds once (kept between runs; `--rebuild` makes it again) a PostgreSQL database holding one club's
Swiss of `--pairs` pairs (256) over 9 rounds with `--rounds` (5) played and the next paired, its
results not in. Starts one server process (uvicorn, production settings: bench/web/settings.py),
then for each address runs wrk (Debian's `wrk`; `--connections` 32, two threads, `--seconds` each)
and prints requests/s and the latency p50/p99 as wrk measured them, and the server process's CPU time
per request (user and system, from /proc: less noisy than the rates on a shared machine).

Beside it runs the site's Celery worker, started as bin/site starts it (`celery -A config worker`),
which learns the ratings from each result (which moves every page again); with `--refresh` it also
works the public pages out again after each commit (`PUBLIC_PAGES_REFRESH`,
config.fresh), where by default the first reader after a result works them out in
the server process.

Then freshness: the organiser confirms a result of the open round through the API (`POST
/api/v1/matches/<id>/result/` with a write key; an organiser's result is confirmed at once) while
wrk keeps loading the standings page, and two readers of the bench poll the standings page and the
API's standings, each on its own, until each shows it; it prints the worst time from the result's
answer to the first page and the first API answer showing it, over `--fresh` results, and each
one. Goal: each address at least 200 requests/s with p99 under 100 ms; fresh within a second.

Bounded: loopback only, at most 60 s per address. The machine has two cores, shared with the load
generator and PostgreSQL: note the load average printed beside the figures.

    .venv/bin/python -m bench.web.load [--pairs 256] [--rounds 5] [--seconds 10] [--connections 32]
                                       [--fresh 5] [--rebuild] [--only home|standings|api]
                                       [--no-copies] [--refresh]

`DATABASE_URL` defaults to postgres://postgres@127.0.0.1:5432/bilka_bench_web, `REDIS_URL` to
redis://127.0.0.1:6379/15 (the site's cache, flushed before the run).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from .common import ROOT, ensure_database, start_server

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bilka_bench_web")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.web.settings"
SLUG = "bench-swiss"


def prepare(args) -> None:
    """Create and migrate the database when needed; build the Swiss unless it is there."""
    ensure_database(rebuild=args.rebuild)

    import django

    django.setup()
    from tournaments.models import Tournament

    if not Tournament.objects.filter(slug=SLUG).exists():
        started = time.perf_counter()
        build(args.pairs, args.rounds)
        print(f"built the Swiss: {args.pairs} pairs, {args.rounds} rounds played "
              f"({time.perf_counter() - started:.0f} s)", flush=True)


def build(pairs: int, rounds: int) -> None:
    from clubs.models import Club, Membership, Role, User
    from tournaments import services
    from tournaments.models import Match, MatchStatus

    rng = random.Random(7)
    organiser = User.objects.create_user(username="bench-organiser", password="bench-web")  # noqa: S106
    club = Club.objects.create(name="Клуб «Белка»", slug="bench-club")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Чемпионат Успенки", format="swiss",
                                   swiss_rounds=9)
    Tournament = type(t)
    Tournament.objects.filter(pk=t.pk).update(slug=SLUG)
    t.refresh_from_db()
    text = "\n".join(f"Игрок {2 * i + 1} & Игрок {2 * i + 2}" for i in range(pairs))
    services.register_entries_bulk(actor=organiser, tournament=t, text=text)
    for number in range(rounds + 1):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        if number == rounds:
            break  # the open round: its results come in during the freshness check
        for match in Match.objects.filter(round=rnd, status=MatchStatus.SCHEDULED):
            loser = rng.randint(0, 11)
            home = rng.random() < 0.5
            services.enter_result(actor=organiser, match=match, home_eyes=12 if home else loser,
                                  away_eyes=loser if home else 12)


def start_worker(env: dict[str, str]) -> subprocess.Popen:
    """The site's worker as bin/site starts it (default queue, prefork pool, one child a core), on the
    bench's Redis; returns once it answers a ping."""
    from config.celery import app

    hostname = f"bench-web-{os.getpid()}@%h"
    worker = subprocess.Popen(  # noqa: S603
        [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--loglevel=WARNING",
         "--hostname", hostname],
        cwd=ROOT, env=env,
    )
    name = hostname.replace("%h", socket.gethostname())
    for _ in range(60):
        if worker.poll() is not None:
            sys.exit(f"the Celery worker exited ({worker.returncode})")
        if app.control.ping(destination=[name], timeout=0.5):
            return worker
    worker.terminate()
    sys.exit("the Celery worker did not answer in 30 s")


def wrk(url: str, seconds: int, connections: int) -> dict[str, float]:
    out = subprocess.run(  # noqa: S603
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency", url],  # noqa: S607
        capture_output=True, text=True, check=True,
    ).stdout
    unit = {"us": 0.001, "ms": 1.0, "s": 1000.0}

    def latency(pct: str) -> float:
        m = re.search(rf"^\s*{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        return float(m.group(1)) * unit[m.group(2)] if m else float("nan")

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    total = re.search(r"(\d+) requests in", out)
    return {
        "rps": float(rps.group(1)) if rps else 0.0,
        "p50": latency("50"),
        "p99": latency("99"),
        "requests": int(total.group(1)) if total else 0,
        "non2xx": int(bad.group(1)) if bad else 0,
        "errors": errors.group(0) if errors else "",
    }


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used so far (Linux: /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(url: str, headers: dict | None = None) -> str:
    request = urllib.request.Request(url, headers=headers or {})  # noqa: S310 - loopback
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return response.read().decode()


def standings_table(html: str) -> str:
    """The standings table of the page (the rest carries a fresh CSP nonce and CSRF token each time)."""
    m = re.search(r"<table.*?</table>", html, re.S)
    return m.group(0) if m else ""


def freshness(base: str, results: int, seconds: int, connections: int) -> tuple[list[float], list[float]]:
    """Seconds from a confirmed result's answer to the first standings page and API answer showing it."""
    from clubs.models import User
    from clubs.services.tokens import create_token
    from tournaments.models import Match, MatchStatus, Tournament

    t = Tournament.objects.get(slug=SLUG)
    organiser = User.objects.get(username="bench-organiser")
    _, key = create_token(actor=organiser, name=f"bench {time.time():.0f}", scope="write", clubs=[t.club])
    page_url, api_url = f"{base}/t/{SLUG}/standings/", f"{base}/api/v1/tournaments/{SLUG}/standings/"
    load = threading.Thread(target=wrk, args=(page_url, seconds, connections), daemon=True)
    load.start()
    time.sleep(1)
    page_s, api_s = [], []
    open_matches = list(Match.objects.filter(round__tournament=t, status=MatchStatus.SCHEDULED)
                        .order_by("round__number", "table")[:results])
    for match in open_matches:
        before_page = standings_table(get(page_url))
        before_api = get(api_url)
        request = urllib.request.Request(  # noqa: S310
            f"{base}/api/v1/matches/{match.pk}/result/", method="POST",
            data=json.dumps({"home_eyes": 12, "away_eyes": 5}).encode(),
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            assert response.status in (200, 201), response.status
        answered = time.perf_counter()
        # the page and the API each polled by a reader of its own, as a spectator's browser and a
        # club's bot would: one loop asking both in turn counted the slower one's answers into the
        # other's time
        seen: dict[str, float] = {}

        def poll(name: str, url: str, before: str, shown=lambda body: body) -> None:
            while time.perf_counter() - answered < 10:  # noqa: B023 - each result's own
                if shown(get(url)) != before:
                    seen[name] = time.perf_counter() - answered  # noqa: B023
                    return
                time.sleep(0.01)

        readers = [threading.Thread(target=poll, args=("page", page_url, before_page, standings_table)),
                   threading.Thread(target=poll, args=("api", api_url, before_api))]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        seen_page, seen_api = seen.get("page"), seen.get("api")
        page_s.append(seen_page if seen_page is not None else float("inf"))
        api_s.append(seen_api if seen_api is not None else float("inf"))
    load.join()
    return page_s, api_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--fresh", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--only", choices=["home", "standings", "api"])
    parser.add_argument("--no-copies", action="store_true",
                        help="without the visitors' copies in front of Django (to compare)")
    parser.add_argument("--refresh", action="store_true",
                        help="the worker works the pages out after each commit (PUBLIC_PAGES_REFRESH)")
    args = parser.parse_args()
    if not 1 <= args.seconds <= 60 or not 1 <= args.connections <= 256:
        parser.error("at most 60 s per address and 256 connections")
    prepare(args)
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.web.settings",
           "VISITOR_COPIES": "0" if args.no_copies else "1",
           "PUBLIC_PAGES_REFRESH": "1" if args.refresh else "0"}
    worker = start_worker(env)
    server, base = start_server(env)
    try:
        addresses = {
            "home": f"{base}/t/{SLUG}/",
            "standings": f"{base}/t/{SLUG}/standings/",
            "api": f"{base}/api/v1/tournaments/{SLUG}/standings/",
        }
        print(f"one uvicorn process, {args.connections} connections, {args.seconds} s each, "
              f"{args.pairs} pairs; load average before: {os.getloadavg()[0]:.2f}", flush=True)
        print(f"{'address':<42} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} "
              f"{'CPU ms/req':>10}  load", flush=True)
        for name, url in addresses.items():
            if args.only and name != args.only:
                continue
            for _ in range(3):  # warm: the first request of a process compiles the templates
                started = time.perf_counter()
                get(url)
            print(f"  one request alone: {1000 * (time.perf_counter() - started):.0f} ms", flush=True)
            used = cpu_seconds(server.pid)
            r = wrk(url, args.seconds, args.connections)
            cpu_ms = 1000 * (cpu_seconds(server.pid) - used) / max(r["requests"], 1)
            print(f"{url.removeprefix(base):<42} {r['rps']:>8.0f} {r['p50']:>8.1f} {r['p99']:>8.1f} "
                  f"{r['non2xx']:>8} {cpu_ms:>10.2f}  {os.getloadavg()[0]:.2f} {r['errors']}", flush=True)
        if args.fresh:
            page_s, api_s = freshness(base, args.fresh, max(args.seconds, 3 * args.fresh), args.connections)
            print(f"fresh after a confirmed result (standings page under load), worst of {len(page_s)}: "
                  f"page {max(page_s):.3f} s, API {max(api_s):.3f} s", flush=True)
            print(f"  each: page {' '.join(f'{s:.2f}' for s in page_s)}; "
                  f"API {' '.join(f'{s:.2f}' for s in api_s)}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=20)
        worker.terminate()  # a warm shutdown: 5-10 s
        worker.wait(timeout=60)


if __name__ == "__main__":
    main()
