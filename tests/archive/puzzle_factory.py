"""A puzzle row for tests that need one on a given archived match (the route tables, the words
test): its position and solution are worked out by the engine from a real record, the match's own
when it has cards played, else a short match played by the engine's bots."""

from __future__ import annotations

from typing import Any

from archive.models import ArchivedMatch, Puzzle
from gameplay.engine import Rules, write_record
from gameplay.engine.analysis import analyse_record
from gameplay.engine.cards import SEATS
from gameplay.engine.puzzles import candidates, observation_at, seat_view, solution
from gameplay.engine.selfplay import bot_match


def short_record(seed: int = 1) -> dict[str, Any]:
    """A real match, resigned early in its second deal: one deal of 32 cards."""
    state = bot_match(Rules(), seed=seed, stop_after=36)
    state.end_match("resign", 1)
    return write_record(state)


def make_puzzle(match: ArchivedMatch, record: dict[str, Any] | None = None) -> Puzzle:
    """The match's puzzle at the first card of `record` that missed the one card keeping the par
    (found again, not made twice)."""
    record = record or short_record()
    deal, entry = candidates(analyse_record(record))[0]
    ply = entry["ply"]
    puzzle, _ = Puzzle.objects.get_or_create(match=match, deal=deal, ply=ply, defaults={
        "record_hash": match.record_hash, "seat": SEATS.index(entry["seat"]), "card": entry["best"][0],
        "played": entry["card"], "lost": entry["lost"], "agreeing": 40, "samples": 40,
        "view": seat_view(observation_at(record, deal, ply), deal, ply),
        "solution": solution(record, deal, ply)})
    return puzzle
