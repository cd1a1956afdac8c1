"""The puzzles' reads: which puzzles anyone may see, the daily one, the next one to try, a person's.

A puzzle is shown only while its match passes the archive's one visibility rule for someone who is
not signed in (`selectors.visible_matches(None)`: a public match): never a private match, a game
against bots its players have not shared, or a tournament match whose round is still running,
whoever asks — not even to the people who sat in it, since a puzzle is the same page for all.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, time
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from archive.models import Puzzle, PuzzleAttempt, PuzzlePlayer
from archive.selectors import visible_matches

#: How many puzzles the list shows.
LIST_SIZE = 30


def visible_puzzles() -> QuerySet[Puzzle]:
    """Every puzzle anyone may see: those of public matches, whose record they were found in."""
    return Puzzle.objects.filter(match__in=visible_matches(None).values("pk"))


def visible_puzzle(pk: int) -> Puzzle | None:
    return visible_puzzles().filter(pk=pk).first()


def daily_puzzle(day: date) -> Puzzle | None:
    """The puzzle of `day`: the same all day for everyone, picked by a hash of the date among the
    visible puzzles found before the day began (so a puzzle found today cannot change today's);
    when none was found before, among all visible ones."""
    start = timezone.make_aware(datetime.combine(day, time.min))
    ids = list(visible_puzzles().filter(found_at__lt=start).order_by("pk").values_list("pk", flat=True))
    if not ids:
        ids = list(visible_puzzles().order_by("pk").values_list("pk", flat=True))
    if not ids:
        return None
    digest = hashlib.sha256(f"bilka puzzle {day.isoformat()}".encode()).digest()
    return visible_puzzles().get(pk=ids[int.from_bytes(digest[:8], "big") % len(ids)])


def puzzle_player(user: Any) -> PuzzlePlayer | None:
    """The signed-in person's puzzle rating and streak (None before his first attempt)."""
    if user is None or not user.is_authenticated:
        return None
    return PuzzlePlayer.objects.filter(user=user).first()


def attempt_of(user: Any, puzzle: Puzzle) -> PuzzleAttempt | None:
    if user is None or not user.is_authenticated:
        return None
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()


def attempted_ids(user: Any) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(PuzzleAttempt.objects.filter(user=user).values_list("puzzle_id", flat=True))


def next_puzzle(user: Any, answered: set[int], *, after: int = 0) -> Puzzle | None:
    """A visible puzzle the person has not answered (`answered`: the ids a visitor answered in this
    session), the nearest to his puzzle rating; the first after `after` for a visitor."""
    done = answered | attempted_ids(user)
    todo = visible_puzzles().exclude(pk__in=done)
    player = puzzle_player(user)
    if player is not None:
        above = todo.filter(rating__gte=player.rating).order_by("rating", "pk").first()
        below = todo.filter(rating__lt=player.rating).order_by("-rating", "-pk").first()
        near = [p for p in (above, below) if p is not None]
        return min(near, key=lambda p: abs(p.rating - player.rating)) if near else None
    return todo.filter(pk__gt=after).order_by("pk").first() or todo.order_by("pk").first()


def puzzle_rows(user: Any, answered: dict[int, bool]) -> list[dict[str, Any]]:
    """The list: the newest visible puzzles, each with its difficulty and whether the person (or
    the visitor, in this session) solved it, missed it, or has not tried it."""
    mine = dict(PuzzleAttempt.objects.filter(user=user).values_list("puzzle_id", "solved")) \
        if user is not None and user.is_authenticated else {}
    rows = []
    newest = visible_puzzles().order_by("-pk").only("pk", "rating", "attempts", "solved", "view")
    for puzzle in newest[:LIST_SIZE]:
        result = mine.get(puzzle.pk, answered.get(puzzle.pk))
        rows.append({"puzzle": puzzle, "result": result,
                     "trick": puzzle.view["ply"] // 4 + 1, "seat": puzzle.view["seat"]})
    return rows
