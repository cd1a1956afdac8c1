"""The puzzles' one writer: puzzles found in an analysed match, and a person's attempt at one.

`find_for_match` runs after the match's analysis is stored (`analysis.analyse_match`, in the
analysis worker) and in the backfill command `find_puzzles`. It is idempotent: a match is searched
once per record (`MatchAnalysis.puzzles_hash`); the solver works outside any transaction, and what
it found is kept only if the match still holds the record it read. Every analysed match is searched,
public or not, so a tournament match becomes a puzzle once its round is over; the pages show only
the puzzles of public matches (`puzzle_selectors`).

`attempt_puzzle` takes a signed-in person's answer. His first answer to a puzzle is the one that
counts: it moves his puzzle rating and the puzzle's difficulty (`puzzle_rating`, one Glicko game)
and his streak; any later answer, a double submission included, changes nothing and is answered
with the first. A visitor's answer is checked the same way and counts for no rating (a visitor has
none, and a session is too cheap to make for the difficulty to trust it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from archive import puzzle_rating
from archive.models import ArchivedMatch, MatchAnalysis, Puzzle, PuzzleAttempt, PuzzlePlayer
from archive.puzzle_selectors import visible_puzzle
from gameplay.engine import EngineError
from gameplay.engine import puzzles as finder
from gameplay.engine.cards import SEATS


class PuzzleError(ValueError):
    """An answer that cannot be taken, in words for the person."""


def find_for_match(*, match_id: int, again: bool = False) -> tuple[int, int]:
    """Look for the puzzles of an analysed match: (puzzles kept, deals searched); (0, 0) when there
    is nothing to search (no analysis, or searched already in this record unless `again`)."""
    row = (MatchAnalysis.objects.filter(match_id=match_id).exclude(result=None)
           .values_list("record_hash", "puzzles_hash", "result").first())
    if row is None:
        return 0, 0
    digest, searched, result = row
    if searched == digest and not again:
        return 0, 0
    record = (ArchivedMatch.objects.filter(pk=match_id, record_hash=digest)
              .values_list("record", flat=True).first())
    if record is None:
        return 0, 0  # the record changed after its analysis: the new analysis will search it
    try:
        found = finder.find_puzzles(record, result, key=digest)
        made = [_puzzle(match_id, digest, record, f) for f in found]
    except EngineError:
        made = []
    with transaction.atomic():
        locked = ArchivedMatch.objects.select_for_update().filter(pk=match_id)
        if locked.values_list("record_hash", flat=True).first() != digest:
            return 0, 0
        Puzzle.objects.filter(match_id=match_id).exclude(record_hash=digest).delete()
        # Searched again with a stricter finder: a puzzle it no longer finds goes, unless someone
        # has answered it (his answer and streak stay what they were).
        now_found = {(p.deal, p.ply) for p in made}
        gone = [pk for pk, deal, ply in (Puzzle.objects.filter(match_id=match_id, tries__isnull=True)
                                         .values_list("pk", "deal", "ply")) if (deal, ply) not in now_found]
        Puzzle.objects.filter(pk__in=gone).delete()
        kept = {(d, p) for d, p in Puzzle.objects.filter(match_id=match_id).values_list("deal", "ply")}
        Puzzle.objects.bulk_create(p for p in made if (p.deal, p.ply) not in kept)
        MatchAnalysis.objects.filter(match_id=match_id, record_hash=digest).update(puzzles_hash=digest)
    return len(made), len(result.get("deals", []))


def _puzzle(match_id: int, digest: str, record: dict[str, Any], found: finder.Found) -> Puzzle:
    view = finder.seat_view(finder.observation_at(record, found.deal, found.ply), found.deal, found.ply)
    solution = finder.solution(record, found.deal, found.ply)
    return Puzzle(match_id=match_id, record_hash=digest, deal=found.deal, ply=found.ply,
                  seat=SEATS.index(found.seat), card=found.card, played=found.played, lost=found.lost,
                  agreeing=found.agreeing, samples=found.samples, view=view, solution=solution)


@dataclass(frozen=True)
class Answer:
    """What an answer did: the card taken, whether it keeps the par, and for a signed-in person
    whether it was his first (the one that counted) and his rating's move."""

    puzzle: Puzzle
    card: str
    solved: bool
    counted: bool
    change: float = 0.0


def check_card(puzzle: Puzzle, card: Any) -> str:
    """The card as the puzzle knows it, or PuzzleError: not a card, or not one the seat may play."""
    if not isinstance(card, str) or not card.strip():
        raise PuzzleError(_("Choose a card to play."))
    code = card.strip().upper()
    if code not in puzzle.view.get("legal", []):
        raise PuzzleError(_("That card cannot be played here: choose one of the cards you may play."))
    return code


def attempt_puzzle(*, user: Any, puzzle_id: int, card: Any) -> Answer:
    """Take an answer to a visible puzzle (PuzzleError: no such puzzle, or a card it does not take)."""
    puzzle = visible_puzzle(puzzle_id)
    if puzzle is None:
        raise PuzzleError(_("There is no such puzzle."))
    code = check_card(puzzle, card)
    if user is None or not user.is_authenticated:
        return Answer(puzzle=puzzle, card=code, solved=code == puzzle.card, counted=False)
    try:
        with transaction.atomic():
            return _first_attempt(user, puzzle.pk, code)
    except IntegrityError:  # the same answer sent twice at once: the other one counted
        pass
    first = PuzzleAttempt.objects.get(user=user, puzzle_id=puzzle.pk)
    return Answer(puzzle=puzzle, card=first.card, solved=first.solved, counted=False, change=first.change)


def _first_attempt(user: Any, puzzle_id: int, code: str) -> Answer:
    puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
    first = PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()
    if first is not None:
        return Answer(puzzle=puzzle, card=first.card, solved=first.solved, counted=False, change=first.change)
    player, _created = PuzzlePlayer.objects.select_for_update().get_or_create(user=user)
    solved = code == puzzle.card
    person, task = puzzle_rating.attempt(puzzle_rating.Glicko(player.rating, player.deviation),
                                         puzzle_rating.Glicko(puzzle.rating, puzzle.deviation), solved)
    change = person.rating - player.rating
    PuzzleAttempt.objects.create(puzzle=puzzle, user=user, card=code, solved=solved,
                                 puzzle_rating=puzzle.rating, change=change)
    player.rating, player.deviation = person.rating, person.deviation
    player.attempts += 1
    player.solved += solved
    player.streak = player.streak + 1 if solved else 0
    player.best_streak = max(player.best_streak, player.streak)
    player.save()
    puzzle.rating, puzzle.deviation = task.rating, task.deviation
    puzzle.attempts += 1
    puzzle.solved += solved
    puzzle.save(update_fields=["rating", "deviation", "attempts", "solved"])
    return Answer(puzzle=puzzle, card=code, solved=solved, counted=True, change=change)
