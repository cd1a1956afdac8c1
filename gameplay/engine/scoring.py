"""Turning a deal's card points into eyes (RULES.md, "Scoring a deal"): pure, no state.

Kept apart from the state so the tables of RULES.md can be read against one small function.
"""

from __future__ import annotations

from typing import NamedTuple

from gameplay.engine.rules import Rules

WIN_SCORE = 12


class DealScore(NamedTuple):
    """What a played deal did to the match.

    `eyes` is what the deal opened per pair (never negative); `reset` names a pair whose eyes
    go back to 0 (`lucy: zero`); `match_won` names the pair a `lucy: win` gives the match.
    `decided` is False for eggs, which carry over to the next decided deal.
    """

    outcome: str
    winner: int | None
    eyes: tuple[int, int]
    reset: int | None = None
    match_won: int | None = None
    decided: bool = True


def score_deal(
    rules: Rules,
    points: tuple[int, int],
    tricks: tuple[int, int],
    pair_on_duty: int,
    eggs_before: int,
    first_played: bool,
    score: tuple[int, int],
) -> DealScore:
    """Score one complete deal.

    `points`/`tricks` are per pair (0 = NS, 1 = EW); `eggs_before` counts eggs deals since the
    last decided deal; `first_played` is True for the first played deal of the match;
    `score` is the match score before this deal.
    """
    if points[0] == points[1]:
        return DealScore("eggs", None, (0, 0), decided=False)
    winner = 0 if points[0] > points[1] else 1
    p = points[winner]
    on_duty = winner == pair_on_duty
    if rules.lucy_by == "tricks":
        lucy = tricks[1 - winner] == 0
    else:
        lucy = p == 120
    if lucy and rules.lucy == "win":
        eyes = [0, 0]
        eyes[winner] = max(0, WIN_SCORE - score[winner])
        return DealScore("lucy", winner, (eyes[0], eyes[1]), match_won=winner)
    rout = lucy or p >= rules.rout_at
    base = (2 if on_duty else 3) if rout else (1 if on_duty else 2)
    if first_played and rules.first_deal_two_eyes and not lucy:
        base = 2
    k = eggs_before
    if k:
        if rules.eggs == "double":
            base *= k + 1
        elif rules.eggs == "four":
            base = 4 * k
        else:
            base += 4 * k
    eyes = [0, 0]
    eyes[winner] = base
    if lucy:
        return DealScore("lucy", winner, (eyes[0], eyes[1]), reset=1 - winner)
    return DealScore("rout" if rout else "win", winner, (eyes[0], eyes[1]))
