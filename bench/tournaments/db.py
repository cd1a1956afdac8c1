"""Benchmark: a Swiss on the real database — pairing a round, entering results, reading the standings.

Creates its own throwaway PostgreSQL database (like the test runner), so it never touches the site's
data. Prints, per field size: seconds to pair a round (service: load, core pairing, insert, audit),
seconds per result entered by the organiser, and seconds and SQL queries for the standings selector
and the standings page.

    BILKA_TEST_DB=bench_bilka_tourn .venv/bin/python -m bench.tournaments.db [--sizes 64 256 1000]
                                                                         [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("BILKA_TEST_DB", "bench_bilka_tourn")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402


def run(size: int, rounds: int, seed: int) -> dict[str, float]:
    from clubs.models import Club, Membership, Role, User
    from tournaments import selectors, services
    from tournaments.models import Match, MatchStatus

    rng = random.Random(seed + size)
    organiser = User.objects.create_user(username=f"bench{size}", password="x")  # noqa: S106
    club = Club.objects.create(name=f"Bench {size}", slug=f"bench-{size}")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(
        actor=organiser, club=club, name=f"Bench {size}", format="swiss", swiss_rounds=rounds
    )
    text = "\n".join(f"Игрок {size}-{2 * i} & Игрок {size}-{2 * i + 1}" for i in range(size))
    services.register_entries_bulk(actor=organiser, tournament=t, text=text)
    pair_times, result_times = [], []
    for _ in range(rounds):
        started = time.perf_counter()
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        pair_times.append(time.perf_counter() - started)
        for match in Match.objects.filter(round=rnd, status=MatchStatus.SCHEDULED):
            loser = rng.randint(0, 11)
            home = rng.random() < 0.5
            started = time.perf_counter()
            services.enter_result(
                actor=organiser, match=match, home_eyes=12 if home else loser, away_eyes=loser if home else 12
            )
            result_times.append(time.perf_counter() - started)
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as selector_queries:
        selectors.standings(tournament=t)
    selector_s = time.perf_counter() - started
    client = Client()
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as page_queries:
        response = client.get(f"/t/{t.slug}/standings/")
    page_s = time.perf_counter() - started
    assert response.status_code == 200
    return {
        "pair": max(pair_times),
        "result": statistics.mean(result_times),
        "selector": selector_s,
        "selector_q": len(selector_queries.captured_queries),
        "page": page_s,
        "page_q": len(page_queries.captured_queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(
            f"{'pairs':>6} {'max s/pairing':>14} {'s/result':>9} {'standings s':>12} {'queries':>8}"
            f" {'page s':>7} {'queries':>8}"
        )
        for size in args.sizes:
            r = run(size, args.rounds, args.seed)
            print(
                f"{size:>6} {r['pair']:>14.3f} {r['result']:>9.4f} {r['selector']:>12.3f} "
                f"{r['selector_q']:>8} {r['page']:>7.3f} {r['page_q']:>8}"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
