"""Puzzles from real play: the puzzles' page (the daily one, the next one, the list) and one puzzle.

A puzzle's page draws the position as the seat to move saw it — its own hand, the cards played
with their seats, the trump, the jack of clubs, the pair on duty — and never a card of the three
hidden hands; it names nobody and links to no match. The seat's legal cards are the buttons of a
POST form (it works without JavaScript); after the answer (kept for a signed-in person, in the
session for a visitor) the same address shows the solution: all four hands, every legal card's
result with best play, the best line to the end of the deal, the par kept or lost.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from archive import puzzle_selectors as puzzles
from archive.models import Puzzle
from archive.replays import card_view
from archive.services.puzzles import PuzzleError, attempt_puzzle, check_card
from gameplay.engine.cards import PAIRS, SEATS
from gameplay.words import SUIT_SYMBOL, pair_name, seat_letter, suit_name

#: The session's answers of a visitor: {puzzle id: card}.
SESSION_KEY = "puzzle_answers"
#: Where each seat sits, counted from the seat to move (at the bottom) in play order.
PLACES = ("bottom", "left", "top", "right")


def _session_answers(request: HttpRequest) -> dict[str, str]:
    answers = request.session.get(SESSION_KEY)
    return answers if isinstance(answers, dict) else {}


@require_safe
def puzzle_index(request: HttpRequest) -> HttpResponse:
    """The daily puzzle, the next one to try, the person's rating and streak, the newest puzzles."""
    answers = _session_answers(request)
    answered = {int(k): v for k, v in answers.items() if k.isdigit()}
    visitor_results: dict[int, bool] = {}
    if answered:
        cards = dict(puzzles.visible_puzzles().filter(pk__in=list(answered)).values_list("pk", "card"))
        visitor_results = {pk: answered[pk] == card for pk, card in cards.items()}
    daily = puzzles.daily_puzzle(timezone.localdate())
    return render(request, "archive/puzzles.html", {
        "daily": daily,
        "next": puzzles.next_puzzle(request.user, set(answered)),
        "player": puzzles.puzzle_player(request.user),
        "rows": puzzles.puzzle_rows(request.user, visitor_results),
    })


def puzzle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One puzzle: the position and its form, or (once answered) the solution."""
    puzzle = puzzles.visible_puzzle(pk)
    if puzzle is None:
        raise Http404()
    if request.method == "POST":
        return _answer(request, puzzle)
    return _render(request, puzzle)


def _answer(request: HttpRequest, puzzle: Puzzle) -> HttpResponse:
    card = request.POST.get("card")
    answers = _session_answers(request)
    if not request.user.is_authenticated and str(puzzle.pk) in answers:
        return redirect(_address(puzzle))  # sent twice: the first answer stands
    try:
        answer = attempt_puzzle(user=request.user, puzzle_id=puzzle.pk, card=card)
    except PuzzleError as error:
        return _render(request, puzzle, error=str(error), status=400)
    if not request.user.is_authenticated:
        request.session[SESSION_KEY] = {**answers, str(puzzle.pk): answer.card}
    return redirect(_address(puzzle))


def _address(puzzle: Puzzle) -> str:
    return reverse("archive:puzzle", kwargs={"pk": puzzle.pk})


def _answered(request: HttpRequest, puzzle: Puzzle) -> tuple[str | None, float | None]:
    """The card the person (or the visitor, in this session) answered, and his rating's move."""
    attempt = puzzles.attempt_of(request.user, puzzle)
    if attempt is not None:
        return attempt.card, attempt.change
    if request.user.is_authenticated:
        return None, None
    card = _session_answers(request).get(str(puzzle.pk))
    try:
        return (check_card(puzzle, card), None) if card else (None, None)
    except PuzzleError:
        return None, None


def _render(request: HttpRequest, puzzle: Puzzle, *, error: str = "", status: int = 200) -> HttpResponse:
    view = puzzle.view
    seat = view["seat"]
    answered, change = _answered(request, puzzle)
    context: dict[str, Any] = {
        "puzzle": puzzle, "error": error, "answered": answered, "change": change,
        "position": position_context(view),
        "player": puzzles.puzzle_player(request.user),
        "pair": pair_name(PAIRS[SEATS.index(seat) % 2]),
        "seat_word": seat_letter(seat),
    }
    if answered:
        context["solution"] = solution_context(puzzle, answered)
        context["next"] = puzzles.next_puzzle(
            request.user, {int(k) for k in _session_answers(request) if k.isdigit()} | {puzzle.pk},
            after=puzzle.pk)
    return render(request, "archive/puzzle.html", context, status=status)


def _place(seat: str, me: str) -> str:
    return PLACES[(SEATS.index(seat) - SEATS.index(me)) % 4]


def _played(cards: list[list[str]], me: str) -> list[dict[str, Any]]:
    return [{"seat": seat_letter(s), "place": _place(s, me), "mine": s == me, **card_view(c)}
            for s, c in cards]


def position_context(view: dict[str, Any]) -> dict[str, Any]:
    """What the page draws before the answer: only the seat's view (bilka-puzzle/1)."""
    me = view["seat"]
    legal = set(view["legal"])
    trump = view["trump"]
    others = [{"seat": s, "letter": seat_letter(s), "place": _place(s, me), "cards": view["hand_sizes"][s],
               "jack": view["jack_holder"] == s} for s in SEATS if s != me]
    return {
        "me": me,
        "letter": seat_letter(me),
        "hand": [{**card_view(c), "legal": c in legal} for c in view["hand"]],
        "others": others,
        "trick": _played(view["trick"], me),
        "tricks": [{"number": i + 1, "cards": _played(t["cards"], me), "winner": seat_letter(t["winner"]),
                    "points": t["points"]} for i, t in enumerate(view["tricks"])],
        "trump": f"{SUIT_SYMBOL[trump]} {suit_name(trump)}",
        "trump_red": trump in "HD",
        "jack": seat_letter(view["jack_holder"]) if view["jack_holder"] else "",
        "on_duty": pair_name(view["on_duty"]) if view["on_duty"] else "",
        "points": view["points"],
        "score": view["score"],
        "trick_number": view["ply"] // 4 + 1,
        "deck_tricks": len(view["hand"]) + len(view["tricks"]) + (1 if view["trick"] else 0),
    }


def solution_context(puzzle: Puzzle, answered: str) -> dict[str, Any]:
    """What the page draws after the answer: the solver's word with all hands known."""
    solution = puzzle.solution
    me = puzzle.view["seat"]
    values = solution["values"]
    par = solution["par"]
    line = solution["line"]
    first = len(puzzle.view["trick"])  # the line completes the trick on the table first
    tricks, current = [], list(puzzle.view["trick"])
    for seat, card in line:
        current.append([seat, card])
        if len(current) == 4:
            tricks.append(current)
            current = []
    return {
        "right": answered == puzzle.card,
        "card": card_view(puzzle.card),
        "answered": card_view(answered),
        "answered_points": values.get(answered),
        "played": card_view(solution["played"]),
        "played_points": values.get(solution["played"]),
        "par": par,
        "lost": par - values.get(answered, par),
        "values": sorted(({"points": v, "best": v == par, "chosen": c == answered, **card_view(c)}
                          for c, v in values.items()), key=lambda r: (-r["points"], r["code"])),
        "hands": [{"letter": seat_letter(s), "mine": s == me, "place": _place(s, me),
                   "cards": [card_view(c) for c in solution["hands"][s]]}
                  for s in sorted(SEATS, key=lambda s: PLACES.index(_place(s, me)))],
        "line": [{"number": puzzle.view["ply"] // 4 + 1 + i, "cards": _played(t, me),
                  "on_table": i == 0 and first > 0} for i, t in enumerate(tricks)],
        "share": round(100 * puzzle.agreeing / puzzle.samples) if puzzle.samples else 0,
        "samples": puzzle.samples,
    }

