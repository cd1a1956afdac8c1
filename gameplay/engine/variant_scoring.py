"""Turning a deal of Kozyol or of Bilka for two into eyes (docs/other-games.md, "Scoring").

Neither game has a pair on duty: a win opens `win_eyes` and a rout `rout_eyes` to whichever side
took it (Kozyol 2 and 4; Bilka for two 1 and 2, or 2 and 3). Eggs, Lucy and
`first_deal_two_eyes` work as in Bilka (`scoring.py`, which stays Bilka's alone). A side is a
pair (Kozyol) or a player (Bilka for two), 0 or 1.
"""

from __future__ import annotations

from typing import Protocol

from gameplay.engine.scoring import WIN_SCORE, DealScore


class ScoringRules(Protocol):
    """The house rules the scoring reads."""

    @property
    def rout_at(self) -> int: ...
    @property
    def lucy_by(self) -> str: ...
    @property
    def lucy(self) -> str: ...
    @property
    def eggs(self) -> str: ...
    @property
    def first_deal_two_eyes(self) -> bool: ...


def with_eggs(rules: ScoringRules, base: int, eggs_before: int) -> int:
    """A decided deal's eyes after `eggs_before` eggs deals (house rule `eggs`, as in Bilka)."""
    k = eggs_before
    if not k:
        return base
    if rules.eggs == "double":
        return base * (k + 1)
    if rules.eggs == "four":
        return 4 * k
    return base + 4 * k


def score_played_deal(
    rules: ScoringRules,
    points: tuple[int, int],
    tricks: tuple[int, int],
    win_eyes: int,
    rout_eyes: int,
    eggs_before: int,
    first_played: bool,
    score: tuple[int, int],
) -> DealScore:
    """Score a deal played to its last trick: `points`/`tricks` per side, `score` before it."""
    if points[0] == points[1]:
        return DealScore("eggs", None, (0, 0), decided=False)
    winner = 0 if points[0] > points[1] else 1
    p = points[winner]
    lucy = tricks[1 - winner] == 0 if rules.lucy_by == "tricks" else p == 120
    eyes = [0, 0]
    if lucy and rules.lucy == "win":
        eyes[winner] = max(0, WIN_SCORE - score[winner])
        return DealScore("lucy", winner, (eyes[0], eyes[1]), match_won=winner)
    rout = lucy or p >= rules.rout_at
    base = rout_eyes if rout else win_eyes
    if first_played and rules.first_deal_two_eyes and not lucy:
        base = 2
    eyes[winner] = with_eggs(rules, base, eggs_before)
    if lucy:
        return DealScore("lucy", winner, (eyes[0], eyes[1]), reset=1 - winner)
    return DealScore("rout" if rout else "win", winner, (eyes[0], eyes[1]))


#: What a catch opens in Kozyol before eggs (docs/other-games.md, "the catch").
CATCH_EYES = 4


def score_catch(rules: ScoringRules, catcher: int, eggs_before: int, first_played: bool,
                first_catch_wins: bool, score: tuple[int, int]) -> DealScore:
    """Kozyol's catch: 4 eyes to the catching pair, times the eggs; never a Lucy, outside
    `first_deal_two_eyes`; with `first_catch_wins` a catch in the first played deal wins the match."""
    eyes = [0, 0]
    if first_catch_wins and first_played:
        eyes[catcher] = max(0, WIN_SCORE - score[catcher])
        return DealScore("catch", catcher, (eyes[0], eyes[1]), match_won=catcher)
    eyes[catcher] = with_eggs(rules, CATCH_EYES, eggs_before)
    return DealScore("catch", catcher, (eyes[0], eyes[1]))
