"""Final places from a bracket, and a standings table put in the order those places give.

A bracket event is ranked by the bracket, never by its points table (where a bye counts as a
win): the champion, the final's loser, the placement matches (the third-place match; in double
elimination the losers' final), then every other pair by the round it went out in, pairs out in
the same round sharing the place ("5–8"). The standings page, its CSV/JSON export and the prize
list all read these places, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..core.ids import EntryId
from ..core.knockout import Bracket
from ..core.standings import StandingRow


def knockout_places(bracket: Bracket) -> list[tuple[int, EntryId]]:
    """Places (place, entry) once the champion is known: champion, final loser, then the third-place
    match when it was played (else both losing semifinalists share third), then the losers of each
    earlier round sharing the place after everyone who got further ("5–8" for the quarterfinals).

    Round ``r`` of ``n`` (from 1) is reached by ``2 ** (n - r + 1)`` pairs, byes included (a bracket
    is never more than half byes), so its losers share place ``2 ** (n - r) + 1``.
    """
    final = bracket.final
    if final.winner is None:
        return []
    places: list[tuple[int, EntryId]] = [(1, final.winner)]
    if final.loser is not None:
        places.append((2, final.loser))
    n = len(bracket.rounds)
    third = bracket.third_place
    for r in range(n - 1, 0, -1):  # the semifinals first, the first round last
        losers = [m.loser for m in bracket.rounds[r - 1] if m.loser is not None]
        if r == n - 1 and third is not None and third.winner is not None:
            places += [(3, third.winner)] + ([(4, third.loser)] if third.loser is not None else [])
            continue
        places += [(2 ** (n - r) + 1, e) for e in losers]
    return places


def follow_places(
    rows: Sequence[StandingRow], places: Sequence[tuple[int, EntryId]]
) -> list[tuple[StandingRow, int]]:
    """The rows in the order of ``places``, each with its place set and the last place it shares
    (``5, 8`` for "5–8"); rows with no place (not in the bracket) follow in their table order."""
    by_entry = {row.entry: row for row in rows}
    count: dict[int, int] = {}
    for place, _entry in places:
        count[place] = count.get(place, 0) + 1
    ordered = sorted(places, key=lambda p: p[0])
    result: list[tuple[StandingRow, int]] = []
    for place, entry in ordered:
        if entry in by_entry:
            row = replace(by_entry[entry], place=place, shared=count[place] > 1)
            result.append((row, place + count[place] - 1))
    placed = {entry for _place, entry in places}
    rest = [row for row in rows if row.entry not in placed]
    next_place = len(result) + 1
    for level in sorted({row.place for row in rest}):
        block = [row for row in rest if row.place == level]
        last = next_place + len(block) - 1
        result += [(replace(row, place=next_place, shared=len(block) > 1), last) for row in block]
        next_place = last + 1
    return result


def place_labels(places: Sequence[tuple[int, object]]) -> list[str]:
    """Each place as shown: "3", or "5–8" for a place four pairs share."""
    count: dict[int, int] = {}
    for place, _entry in places:
        count[place] = count.get(place, 0) + 1
    return [f"{p}\u2013{p + count[p] - 1}" if count[p] > 1 else str(p) for p, _entry in places]
