"""Benchmark: Swiss pairing time per round for 64, 256 and 1,000 entries over 9 rounds.

Goal: 256 entries <= 1 s and 1,000 entries <= 10 s per round. Results are drawn with
the Elo win probability from each entry's rating (seeded RNG, so runs are comparable); odd fields
get a bye worth one match point. Prints, per size: mean and max seconds per round, rematches made,
and how many pairs joined different score groups (floaters), a measure of pairing quality.

    .venv/bin/python -m bench.tournaments.swiss_pairing [--sizes 64 256 1000] [--rounds 9] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.core.swiss import SwissEntry, pair_swiss_round


def simulate(size: int, rounds: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed * 100_003 + size)
    ratings = sorted((rng.gauss(1500, 200) for _ in range(size)), reverse=True)
    score = [0] * size
    opponents: list[set[int]] = [set() for _ in range(size)]
    had_bye = [False] * size
    times: list[float] = []
    rematches = floats = 0
    for _ in range(rounds):
        entries = [
            SwissEntry(
                id=i, score=score[i], seed=i + 1, opponents=frozenset(opponents[i]), had_bye=had_bye[i]
            )
            for i in range(size)
        ]
        started = time.perf_counter()
        pairing = pair_swiss_round(entries)
        times.append(time.perf_counter() - started)
        rematches += sum(1 for a, b in pairing.pairs if b in opponents[a])
        floats += sum(1 for a, b in pairing.pairs if score[a] != score[b])
        for a, b in pairing.pairs:
            opponents[a].add(b)
            opponents[b].add(a)
            p_a = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            score[a if rng.random() < p_a else b] += 1
        if pairing.bye is not None:
            score[pairing.bye] += 1
            had_bye[pairing.bye] = True
    return {
        "mean": statistics.mean(times),
        "max": max(times),
        "rematches": rematches,
        "floats": floats,
        "pairs": rounds * (size // 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1000])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{'entries':>8} {'rounds':>6} {'mean s/round':>13} {'max s/round':>12} {'rematches':>9}"
        f" {'cross-group pairs':>18}"
    )
    for size in args.sizes:
        r = simulate(size, args.rounds, args.seed)
        print(
            f"{size:>8} {args.rounds:>6} {r['mean']:>13.4f} {r['max']:>12.4f} {int(r['rematches']):>9}"
            f" {int(r['floats']):>8} of {int(r['pairs'])}"
        )


if __name__ == "__main__":
    main()
