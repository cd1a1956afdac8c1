"""Round-robin schedules from the Berger tables (FIDE Handbook C.05, Annex 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.core.ids import EntryId


@dataclass(frozen=True)
class RoundRobinRound:
    """One round (a matchday): its games as (home, away) and the entry that sits out, if any."""

    number: int
    games: tuple[tuple[EntryId, EntryId], ...]
    bye: EntryId | None


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` (even) numbers 1..n: for each round the boards as (home, away).

    Rule: FIDE Handbook C.05 Annex 1 ("Berger tables for round-robin tournaments"). Round 1 is
    1-n, 2-(n-1), ..., n/2-(n/2+1). Each next round keeps the boards, adds n/2 to every number
    except n (modulo n-1, in 1..n-1), and the board holding n alternates: n is away in odd rounds
    and home in even rounds. This reproduces the published tables exactly (e.g. for 6: round 2
    is 6-4, 5-3, 1-2), so printed schedules agree with the ones clubs already know.
    """
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table needs an even number of at least 2, not {n}")
    half = n // 2
    boards = [(i + 1, n - i) for i in range(half)]
    table = [boards]

    def shift(x: int) -> int:
        return x if x == n else (x - 1 + half) % (n - 1) + 1

    for round_index in range(1, n - 1):
        shifted = [(shift(a), shift(b)) for a, b in table[-1]]
        a, b = shifted[0]
        other = a if b == n else b
        first = (n, other) if round_index % 2 else (other, n)
        table.append([first, *shifted[1:]])
    return table


def round_robin(entries: Sequence[EntryId], *, double: bool = False) -> list[RoundRobinRound]:
    """All rounds of a single or double round robin among ``entries`` (in draw order).

    Rule: Berger tables (FIDE Handbook C.05 Annex 1); entry i gets Berger number i+1. For an odd
    number of entries a dummy number n+1 is added and whoever meets the dummy has the bye that
    round (C.05: "if the number of players is odd, the player meeting the highest number has a
    bye"). Double round robin (our decision, as in league football): the second cycle repeats the
    first in the same order with home and away swapped, so every pair meets once on each side.
    In Bilka "home" only decides who is listed first and who fetches the score sheet.
    """
    ids = list(entries)
    if len(set(ids)) != len(ids):
        raise ValueError("an entry is listed twice")
    if len(ids) < 2:
        raise ValueError("a round robin needs at least two entries")
    n = len(ids) + len(ids) % 2
    dummy = len(ids) + 1 if len(ids) % 2 else None
    rounds: list[RoundRobinRound] = []
    cycles = 2 if double else 1
    table = berger_table(n)
    for cycle in range(cycles):
        for boards in table:
            games: list[tuple[EntryId, EntryId]] = []
            bye: EntryId | None = None
            for home, away in boards:
                if dummy in (home, away):
                    bye = ids[(away if home == dummy else home) - 1]
                    continue
                h, a = ids[home - 1], ids[away - 1]
                games.append((a, h) if cycle else (h, a))
            rounds.append(RoundRobinRound(number=len(rounds) + 1, games=tuple(games), bye=bye))
    return rounds
