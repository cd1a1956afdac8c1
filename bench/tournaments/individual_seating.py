"""Prints how long individual-event seating takes and how many repeats it leaves, by field size.

Usage: .venv/bin/python -m bench.tournaments.individual_seating
Swiss: 7 rounds with random table results; movement: the full cycle (or 9 rounds, whichever is less).
"""

from __future__ import annotations

import random
import time

from tournaments.core.movement import movement
from tournaments.core.seating import (
    IndividualPlayer,
    IndividualRound,
    full_cycle,
    repeat_counts,
    seat_swiss_round,
)


def swiss(n: int, rounds: int = 7) -> tuple[float, str]:
    rng = random.Random(n)
    players = list(range(1, n + 1))
    score = dict.fromkeys(players, 0)
    played: list[IndividualRound] = []
    worst = 0.0
    for _ in range(rounds):
        field = [IndividualPlayer(id=p, score=score[p], seed=p) for p in players]
        start = time.perf_counter()
        r = seat_swiss_round(field, played)
        worst = max(worst, time.perf_counter() - start)
        played.append(r)
        for t in r.tables:
            for p in t.partnerships[rng.randrange(2)]:
                score[p] += 1
        for p in r.byes:
            score[p] += 1
    c = repeat_counts(played)
    return worst, f"partner repeats {c.partner_repeats}, opponent repeats {c.opponent_repeats}"


if __name__ == "__main__":
    for n in (16, 33, 64, 101, 200):
        worst, counts = swiss(n)
        print(f"swiss    n={n:4d}: slowest round {worst * 1000:8.1f} ms; {counts}")
    for n in (12, 13, 16, 17, 22, 23, 32, 40):
        rounds = min(full_cycle(n), 9)
        start = time.perf_counter()
        c = repeat_counts(movement(list(range(n)), rounds))
        took = time.perf_counter() - start
        print(
            f"movement n={n:4d} x {rounds:2d} rounds: {took * 1000:8.1f} ms; "
            f"partner repeats {c.partner_repeats}, opponent repeats {c.opponent_repeats},"
            f" most opposed {c.max_opponent}"
        )
