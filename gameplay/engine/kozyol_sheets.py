"""Kozyol khvalyony's score sheet for matches played at real tables (Bilka's is `sheets.py`).

A line of a Kozyol sheet is a played deal: the points each pair took, or the pair whose шамок
caught the other pair's queen of clubs (the deal stopped: its points do not count), and the pair
that took every trick, if one did. Nobody is on duty, so there is no jack of clubs' holder to
write. Eyes are the engine's own (`variant_scoring`, as `kozyol.py` scores a deal played card by
card): a win 2, a rout 4, a catch 4, eggs and Lucy by the house rules. Pairs are 0 (the home entry,
NS at an online table) and 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gameplay.engine.kozyol_rules import ROUT_EYES, WIN_EYES
from gameplay.engine.scoring import WIN_SCORE, DealScore
from gameplay.engine.sheets import DEAL_POINTS, POSSIBLE_POINTS, InvalidScore
from gameplay.engine.variant_scoring import ScoringRules, score_catch, score_played_deal


@dataclass(frozen=True)
class KozyolDealSummary:
    """What a Kozyol score sheet records of one played deal (redeals are not written down).

    `points` per pair (ignored for a catch deal, whose points do not count); `catch` the pair whose
    шамок caught the queen of clubs, if one did; `all_tricks` the pair that took every trick."""

    points: tuple[int, int]
    catch: int | None = None
    all_tricks: int | None = None

    @property
    def jack_holder(self) -> None:
        """Nobody is on duty in Kozyol: a sheet line has no jack of clubs' holder."""
        return None


@dataclass(frozen=True)
class KozyolSheetLine:
    """One line of the sheet: the deal, what it scored, and the running score (capped at 12)."""

    number: int
    deal: KozyolDealSummary
    eggs_before: int
    result: DealScore
    score: tuple[int, int]


@dataclass(frozen=True)
class KozyolScoreSheet:
    """A Kozyol match written deal by deal; `winner` is set once a pair reaches 12."""

    lines: tuple[KozyolSheetLine, ...]
    score: tuple[int, int]
    winner: int | None


class SheetRules(ScoringRules, Protocol):
    """The house rules a Kozyol sheet reads (`KozyolRules` has them all)."""

    @property
    def first_catch_wins(self) -> bool: ...


def check_kozyol_deal(deal: KozyolDealSummary) -> None:
    """Refuse a line no play of the cards can produce (docs/other-games.md, "Kozyol khvalyony").

    A catch names pair 0 or 1 and nothing else (its points do not count, every trick was not
    played). Otherwise the points add up to 120, each a total the counting cards can make, and a
    pair that took every trick took all 120."""
    if deal.catch is not None:
        if deal.catch not in (0, 1):
            raise InvalidScore(f"a catch is made by pair 0 or 1, not {deal.catch!r}", "catch_pair")
        if deal.all_tricks is not None:
            raise InvalidScore("a deal stopped by a catch has no pair that took every trick", "catch_all")
        return
    a, b = deal.points
    for p in (a, b):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= DEAL_POINTS:
            raise InvalidScore(f"points run from 0 to 120, not {p!r}", "points_range", points=p)
    if a + b != DEAL_POINTS:
        raise InvalidScore(
            f"the points of a deal add up to 120, not {a} + {b} = {a + b}", "points_sum", a=a, b=b, sum=a + b)
    for p in (a, b):
        if p not in POSSIBLE_POINTS:
            raise InvalidScore(f"no set of cards is worth {p} points", "points_impossible", points=p)
    if deal.all_tricks is not None:
        if deal.all_tricks not in (0, 1):
            raise InvalidScore(f"every trick is taken by pair 0 or 1, not {deal.all_tricks!r}", "all_pair")
        if deal.points[deal.all_tricks] != DEAL_POINTS:
            raise InvalidScore("a pair that took every trick took all 120 points", "all_points")


def score_kozyol_sheet(deals: Sequence[KozyolDealSummary], rules: SheetRules) -> KozyolScoreSheet:
    """Score a Kozyol match deal by deal, with the running score, refusing what cannot happen (a
    deal written after a pair reached 12, a line `check_kozyol_deal` refuses)."""
    score = (0, 0)
    eggs = 0
    lines: list[KozyolSheetLine] = []
    winner: int | None = None
    for number, deal in enumerate(deals, start=1):
        if winner is not None:
            raise InvalidScore(f"deal {number} was written after the match was won in deal {number - 1}",
                               "after_win", deal=number, won=number - 1)
        try:
            check_kozyol_deal(deal)
        except InvalidScore as error:
            raise InvalidScore(f"deal {number}: {error}", error.code, deal=number, **error.params) from error
        if deal.catch is not None:
            result = score_catch(rules, deal.catch, eggs, number == 1, rules.first_catch_wins, score)
        else:
            tricks = (0 if deal.all_tricks == 1 else 1, 0 if deal.all_tricks == 0 else 1)
            result = score_played_deal(rules, deal.points, tricks, WIN_EYES, ROUT_EYES, eggs, number == 1,
                                       score)
        eggs_before = eggs
        eggs = 0 if result.decided else eggs + 1
        running = [s + e for s, e in zip(score, result.eyes, strict=True)]
        if result.reset is not None:
            running[result.reset] = 0
        score = (min(WIN_SCORE, running[0]), min(WIN_SCORE, running[1]))
        if WIN_SCORE in score:
            winner = score.index(WIN_SCORE)
        lines.append(KozyolSheetLine(number, deal, eggs_before, result, score))
    return KozyolScoreSheet(lines=tuple(lines), score=score, winner=winner)


__all__ = ["KozyolDealSummary", "KozyolScoreSheet", "KozyolSheetLine", "check_kozyol_deal",
           "score_kozyol_sheet"]
