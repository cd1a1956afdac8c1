"""Eyes for physical tables: checking a final score, and a deal-by-deal score sheet.

The scoring is the card-by-card engine's own (``scoring.score_deal``): one rule, one
implementation, for the score sheets of tournaments played at real tables and for the ratings'
match odds alike. ``deal_eyes`` takes any object with the five rule
attributes it reads (``EyeRules``), the engine's frozen ``Rules`` included.

Pairs are numbered as in the engine: 0 is the first-named pair (NS at an online table, the
home entry on a score sheet), 1 the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from gameplay.engine.scoring import WIN_SCORE, score_deal

DEAL_POINTS = 120
JACK_OF_CLUBS_POINTS = 2

Outcome = Literal["win", "rout", "eggs", "lucy"]


class InvalidScore(ValueError):
    """A score or a deal the rules cannot produce; the message says which rule it breaks.

    ``code`` and ``params`` say the same for a reader in any language: the pages word it through
    a page's own words (the engine itself speaks no language but the rules')."""

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class EyeRules(Protocol):
    """The rule parameters that turn points into eyes (RULES.md; defaults in ``ScoringRules``)."""

    @property
    def rout_at(self) -> int: ...
    @property
    def lucy(self) -> str: ...
    @property
    def lucy_by(self) -> str: ...
    @property
    def eggs(self) -> str: ...
    @property
    def first_deal_two_eyes(self) -> bool: ...


_CHOICES: dict[str, tuple[object, ...]] = {
    "rout_at": (90, 91),
    "lucy": ("win", "zero"),
    "lucy_by": ("tricks", "points"),
    "eggs": ("double", "four", "plus_four"),
    "first_deal_two_eyes": (False, True),
}


@dataclass(frozen=True)
class ScoringRules:
    """The scoring parameters of a table, with the defaults of RULES.md (seed 000)."""

    rout_at: int = 90
    lucy: str = "win"
    lucy_by: str = "tricks"
    eggs: str = "double"
    first_deal_two_eyes: bool = False

    def __post_init__(self) -> None:
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            # True == 1 in Python: compare types too, so a JSON true is never a rout_at.
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise InvalidScore(
                    f"rule {key} must be one of {', '.join(map(str, allowed))}, not {value!r}",
                    "rule", rule=key, value=value,
                )

    @classmethod
    def from_rules(cls, rules: Mapping[str, object]) -> ScoringRules:
        """Take the scoring keys from a table's full rules object; the other keys are not ours to judge."""
        return cls(**{key: rules[key] for key in _CHOICES if key in rules})  # type: ignore[arg-type]


def _possible_points() -> frozenset[int]:
    """Every card-point total one pair can take: sums of a subset of the 20 counting cards.

    Every deck of RULES.md has four each of A (11), 10 (10), K (4), Q (3) and J (2); the rest
    count 0. So 1 or 119 points, for instance, cannot happen.
    """
    sums = {0}
    for value in (11, 10, 4, 3, 2):
        for _ in range(4):
            sums |= {s + value for s in sums}
    return frozenset(sums)


POSSIBLE_POINTS = _possible_points()


@dataclass(frozen=True)
class DealSummary:
    """What a score sheet records of one played deal (redeals are not written down).

    ``points`` per pair; ``jack_holder`` is the pair that held the jack of clubs (the pair on
    duty); ``all_tricks`` the pair that took every trick, if one did.
    """

    points: tuple[int, int]
    jack_holder: int
    all_tricks: int | None = None


@dataclass(frozen=True)
class DealEyes:
    """What one deal did: eyes opened per pair, a pair reset to 0 (Lucy "zero"), a match won (Lucy "win")."""

    outcome: Outcome
    winner: int | None
    eyes: tuple[int, int]
    reset: int | None = None
    match_won: int | None = None

    @property
    def decided(self) -> bool:
        """False for eggs, which pass their value on to the next decided deal."""
        return self.outcome != "eggs"


def check_deal(deal: DealSummary) -> None:
    """Refuse a deal summary that no play of the cards can produce.

    Checks, each a consequence of RULES.md:
    - points are whole numbers from 0 to 120 that add up to 120 (every deck totals 120), and
      each is a total the counting cards can make (``POSSIBLE_POINTS``: not 1, not 119);
    - ``jack_holder`` and ``all_tricks`` name pair 0 or 1;
    - the jack-holder's pair has at least 2 points: the jack of clubs beats every card, so the
      trick it is played to — and its 2 points — always go to its holder's pair. Hence also:
    - only the jack-holder's pair can take every trick, and a pair that took every trick has
      all 120 points.
    """
    a, b = deal.points
    for p in (a, b):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= DEAL_POINTS:
            raise InvalidScore(f"points run from 0 to 120, not {p!r}", "points_range", points=p)
    if a + b != DEAL_POINTS:
        raise InvalidScore(
            f"the points of a deal add up to 120, not {a} + {b} = {a + b}", "points_sum", a=a, b=b, sum=a + b
        )
    for p in (a, b):
        if p not in POSSIBLE_POINTS:
            raise InvalidScore(f"no set of cards is worth {p} points", "points_impossible", points=p)
    if deal.jack_holder not in (0, 1):
        raise InvalidScore(
            f"the jack of clubs is held by pair 0 or 1, not {deal.jack_holder!r}", "jack_pair"
        )
    if deal.points[deal.jack_holder] < JACK_OF_CLUBS_POINTS:
        raise InvalidScore(
            "the pair holding the jack of clubs always takes at least its 2 points", "jack_points"
        )
    if deal.all_tricks is not None:
        if deal.all_tricks not in (0, 1):
            raise InvalidScore(f"every trick is taken by pair 0 or 1, not {deal.all_tricks!r}", "all_pair")
        if deal.all_tricks != deal.jack_holder:
            raise InvalidScore("only the pair holding the jack of clubs can take every trick", "all_jack")
        if deal.points[deal.all_tricks] != DEAL_POINTS:
            raise InvalidScore("a pair that took every trick took all 120 points", "all_points")


def deal_eyes(
    rules: EyeRules,
    points: tuple[int, int],
    all_tricks: int | None,
    pair_on_duty: int,
    eggs_before: int,
    first_played: bool,
    score: tuple[int, int],
) -> DealEyes:
    """Eyes for one checked deal: the engine's own rule (``gameplay.engine.scoring.score_deal``).

    RULES.md, "Scoring a deal (eyes)": 60:60 is eggs; the winner on duty opens 1 eye (2 from
    ``rout_at``), the other pair 2 (3); Lucy wins the match or resets the other pair; the first
    deal may open exactly 2; eggs before a decided deal multiply or add. A sheet knows which pair
    took every trick, if one did (``all_tricks``): that is the engine's "the losers took no trick".
    """
    tricks = (0 if all_tricks == 1 else 1, 0 if all_tricks == 0 else 1)
    s = score_deal(rules, points, tricks, pair_on_duty, eggs_before, first_played, score)  # type: ignore[arg-type]
    return DealEyes(s.outcome, s.winner, s.eyes, s.reset, s.match_won)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SheetLine:
    """One line of the score sheet: the deal, what it scored, and the running score (capped at 12)."""

    number: int
    deal: DealSummary
    eggs_before: int
    result: DealEyes
    score: tuple[int, int]


@dataclass(frozen=True)
class ScoreSheet:
    """A match written deal by deal; ``winner`` is set once a pair reaches 12."""

    lines: tuple[SheetLine, ...]
    score: tuple[int, int]
    winner: int | None


def score_sheet(deals: Sequence[DealSummary], rules: EyeRules | None = None) -> ScoreSheet:
    """Score a match deal by deal, with the running score, refusing what cannot happen.

    Each deal passes ``check_deal``; a deal written after a pair reached 12 is refused (the match
    was over: RULES.md, "the match ends as soon as a pair has 12 or more eyes"). Scores are shown
    capped at 12, as RULES.md decides.
    """
    table = rules if rules is not None else ScoringRules()
    score = (0, 0)
    eggs = 0
    lines: list[SheetLine] = []
    winner: int | None = None
    for number, deal in enumerate(deals, start=1):
        if winner is not None:
            raise InvalidScore(
                f"deal {number} was written after the match was won in deal {number - 1}",
                "after_win", deal=number, won=number - 1,
            )
        try:
            check_deal(deal)
        except InvalidScore as error:
            raise InvalidScore(f"deal {number}: {error}", error.code, deal=number, **error.params) from error
        result = deal_eyes(table, deal.points, deal.all_tricks, deal.jack_holder, eggs, number == 1, score)
        eggs_before = eggs
        eggs = 0 if result.decided else eggs + 1
        running = [min(WIN_SCORE, s + e) for s, e in zip(score, result.eyes, strict=True)]
        if result.reset is not None:
            running[result.reset] = 0
        score = (running[0], running[1])
        if WIN_SCORE in score:
            winner = score.index(WIN_SCORE)
        lines.append(SheetLine(number, deal, eggs_before, result, score))
    return ScoreSheet(lines=tuple(lines), score=score, winner=winner)


def validate_final_score(eyes: tuple[int, int], *, forfeit: bool = False) -> int:
    """Check a match's final score in eyes and return the winning pair (0 or 1).

    Rule: a match ends when a pair reaches 12 eyes, shown capped at 12 (RULES.md), so a final
    score is 12 for the winner and 0-11 for the loser; both at 12 is impossible. A forfeit or a
    no-show is entered as 12:0.
    """
    a, b = eyes
    for e in (a, b):
        if isinstance(e, bool) or not isinstance(e, int) or not 0 <= e <= WIN_SCORE:
            raise InvalidScore(f"eyes run from 0 to 12, not {e!r}", "eyes_range", eyes=e)
    if a == b == WIN_SCORE:
        raise InvalidScore(
            "both pairs cannot have 12 eyes: the match ends when the first one gets there", "both_twelve"
        )
    if WIN_SCORE not in (a, b):
        raise InvalidScore(f"a finished match has a pair at 12 eyes, not {a}:{b}", "no_twelve", a=a, b=b)
    if forfeit and min(a, b) != 0:
        raise InvalidScore(f"a forfeit is scored 12:0, not {a}:{b}", "forfeit", a=a, b=b)
    return 0 if a == WIN_SCORE else 1
