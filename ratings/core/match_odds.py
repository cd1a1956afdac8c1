"""From one deal to the match: the chance a pair wins a match to 12 eyes, by the real scoring.

A deal is a small game between the two partnerships. The model says how likely each side is to
win it (``d``: the first pair's expected margin in a deal, in standard deviations of the luck of
the cards, when neither side holds the jack of clubs), how often a deal is eggs, a rout or Lucy,
and how much the pair on duty gains from holding the jack of clubs. The eyes of each outcome come from the
engine's own rule (``gameplay.engine.scoring.score_deal``), so eggs, the pair on duty's smaller
reward, Lucy and every house rule of RULES.md play out exactly as at the table. A dynamic
programme over the score (eyes of each pair, eggs carried, first deal played or not) gives the
match probability; it is tabulated once per rule set on a grid of ``d`` and read by linear
interpolation, since updates must be fast.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from gameplay.engine.scoring import WIN_SCORE, score_deal
from gameplay.engine.sheets import ScoringRules

GRID_LIMIT = 6.0
GRID_STEP = 0.05
MAX_EGGS = 3  # eggs in a row beyond this are folded into the last count: (1/30)^4 is nothing


#: The rule parameters that change how deals become a match (RULES.md, "Scoring a deal"): the
#: same frozen rules the score sheets are checked by, so both read a table's rules alike.
ScoringKey = ScoringRules

DEFAULT_RULES = ScoringKey()


@dataclass(frozen=True)
class DealShape:
    """How one deal goes, as an ordered probit model on a latent margin (tuned, then frozen).

    The first pair's margin is ``z = d + duty_edge`` when it holds the jack of clubs (``- duty_edge``
    when the other pair does) plus standard normal noise: a deal's card points are the sum of many
    cards' worth, so the margin is near normal (a logistic margin's heavier tails made upsets
    routed by the weaker pair too common). It wins the deal when the margin is above 0,
    with a rout above ``rout_cut`` and Lucy above ``lucy_cut`` (the other pair likewise below the
    negatives). So a stronger pair routs more often, as at the table, and a rout says more about
    strength than a plain win. ``eggs``: the share of played deals that end 60:60.
    """

    duty_edge: float = 0.55
    eggs: float = 0.015
    rout_cut: float = 1.25
    lucy_cut: float = 3.0

    def bounds(self, winner: int, kind: str) -> tuple[float, float]:
        """The margin interval of one outcome: winner 0 (first pair) or 1, kind win/rout/lucy/any."""
        inf = math.inf
        lo, hi = {
            "win": (0.0, self.rout_cut),
            "rout": (self.rout_cut, self.lucy_cut),
            "lucy": (self.lucy_cut, inf),
            "any": (0.0, inf),
        }[kind]
        return (lo, hi) if winner == 0 else (-hi, -lo)


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def interval_probability(z: float, lo: float, hi: float) -> float:
    """P(lo < z + noise < hi), the noise standard normal."""
    up = 1.0 if lo == -math.inf else normal_cdf(z - lo)
    down = 0.0 if hi == math.inf else normal_cdf(z - hi)
    return up - down


# Outcome classes a deal can have, from the first pair's side: (winner, kind).
_KINDS = ("win", "rout", "lucy")


def _synthetic(kind: str, winner: int, rules: ScoringKey) -> tuple[tuple[int, int], tuple[int, int]]:
    """Card points and tricks of a deal of this kind, to ask the engine's scoring what it is worth."""
    p = {"win": 70, "rout": rules.rout_at, "lucy": 120}[kind]
    points = (p, 120 - p) if winner == 0 else (120 - p, p)
    if kind == "lucy":
        tricks = (8, 0) if winner == 0 else (0, 8)
    else:
        tricks = (4, 4)
    return points, tricks


State = tuple[int, int, int, bool]  # eyes of pair 0, eyes of pair 1, eggs carried, a deal played
WON, LOST = -1, -2  # "next state" of a move that ends the match


@lru_cache(maxsize=32)
def _transitions(rules: ScoringKey) -> tuple[tuple[tuple[tuple[int, int, int], ...], ...], bool]:
    """Per state (numbered in solving order), its moves: (outcome slot, next state or WON/LOST, the
    losing pair's eyes when the move ends the match, else 0).

    Outcome slot = duty * 7 + index; index 0 is eggs, then (winner, kind) in order; duty 0: the
    first pair is on duty. A move to the same state (eggs beyond ``MAX_EGGS``) is kept; the solver
    divides it out. The second value says whether any move sends the score back (Lucy "zero").
    """
    flags = (False, True) if rules.first_deal_two_eyes else (True,)
    states: list[State] = [
        (a, b, k, f)
        for a in range(WIN_SCORE)
        for b in range(WIN_SCORE)
        for k in range(MAX_EGGS + 1)
        for f in flags
    ]
    # Scores only grow unless Lucy resets a pair: solve the states with more eyes (and eggs) first.
    states.sort(key=lambda s: (-(s[0] + s[1]), -s[2], s[3]))
    # The start state is the last one: (0, 0, 0, first deal not played yet when that matters).
    number = {st: i for i, st in enumerate(states)}
    backwards = False
    table = []
    for a, b, k, played in states:
        moves: list[tuple[int, int, int]] = []
        for duty in (0, 1):
            moves.append((duty * 7, number[(a, b, min(k + 1, MAX_EGGS), played)], 0))
            index = 1
            for winner in (0, 1):
                for kind in _KINDS:
                    points, tricks = _synthetic(kind, winner, rules)
                    s = score_deal(rules, points, tricks, duty, k, not played, (a, b))  # type: ignore[arg-type]
                    na, nb = a + s.eyes[0], b + s.eyes[1]
                    if s.reset == 0:
                        na = 0
                    elif s.reset == 1:
                        nb = 0
                    loser = 0
                    if s.match_won is not None:
                        nxt = WON if s.match_won == 0 else LOST
                        loser = nb if s.match_won == 0 else na
                    elif na >= WIN_SCORE:
                        nxt, loser = WON, nb
                    elif nb >= WIN_SCORE:
                        nxt, loser = LOST, na
                    else:
                        nxt = number[(na, nb, 0, True)]
                        backwards = backwards or na + nb < a + b
                    moves.append((duty * 7 + index, nxt, min(max(loser, 0), WIN_SCORE - 1)))
                    index += 1
        table.append(tuple(moves))
    return tuple(table), backwards


def deal_odds(d: float, shape: DealShape) -> tuple[list[float], list[float]]:
    """Probabilities of the seven outcome classes with the first pair on duty, then with the other."""
    out = []
    decided = 1.0 - shape.eggs
    for edge in (shape.duty_edge, -shape.duty_edge):
        z = d + edge
        row = [shape.eggs]
        for winner in (0, 1):
            for kind in _KINDS:
                row.append(decided * interval_probability(z, *shape.bounds(winner, kind)))
        out.append(row)
    return out[0], out[1]


def match_probability_exact(
    outcome_probs: tuple[list[float], list[float]], rules: ScoringKey = DEFAULT_RULES
) -> float:
    """P(first pair wins the match) when each deal's outcome classes have these probabilities.

    The pair on duty is whoever holds the jack of clubs, one chance in two for each pair. One sweep
    from the most eyes down solves it; Lucy "zero" can send the score back, so then the sweep
    repeats until nothing moves.
    """
    table, backwards = _transitions(rules)
    probs = [0.5 * p for p in outcome_probs[0]] + [0.5 * p for p in outcome_probs[1]]
    value = [0.5] * len(table)
    for _ in range(500):
        change = 0.0
        for i, moves in enumerate(table):
            v = 0.0
            stay = 0.0
            for slot, nxt, _ in moves:
                if nxt == i:
                    stay += probs[slot]
                elif nxt >= 0:
                    v += probs[slot] * value[nxt]
                elif nxt == WON:
                    v += probs[slot]
            v /= 1.0 - stay
            change = max(change, abs(v - value[i]))
            value[i] = v
        if not backwards or change < 1e-12:
            break
    return value[-1]


@dataclass(frozen=True)
class MatchTable:
    """P(first pair wins the match) on a grid of deal strength, for one rule set and deal shape."""

    values: tuple[float, ...]

    def at(self, d: float) -> float:
        x = (d + GRID_LIMIT) / GRID_STEP
        if x <= 0.0:
            return self.values[0]
        last = len(self.values) - 1
        if x >= last:
            return self.values[last]
        i = int(x)
        t = x - i
        return self.values[i] * (1.0 - t) + self.values[i + 1] * t


@lru_cache(maxsize=32)
def match_table(rules: ScoringKey, shape: DealShape) -> MatchTable:
    """Tabulate the match probability for this rule set (cached: built once per process)."""
    half = int(round(GRID_LIMIT / GRID_STEP))
    # The game is the same for both pairs: P(d) = 1 - P(-d), so only d >= 0 is solved.
    upper = [match_probability_exact(deal_odds(i * GRID_STEP, shape), rules) for i in range(half + 1)]
    vals = [1.0 - v for v in reversed(upper[1:])] + upper
    return MatchTable(tuple(vals))


def final_score_exact(
    outcome_probs: tuple[list[float], list[float]], rules: ScoringKey = DEFAULT_RULES
) -> list[float]:
    """P(the match ends with the first pair winning and the other on k eyes), k = 0..11, then the
    same with the other pair winning: 24 numbers adding up to 1. Probability flows forward from
    the start (lowest scores first); Lucy "zero" sends some back, so the flow repeats until spent."""
    table, _ = _transitions(rules)
    probs = [0.5 * p for p in outcome_probs[0]] + [0.5 * p for p in outcome_probs[1]]
    out = [0.0] * (2 * WIN_SCORE)
    mass = [0.0] * len(table)
    mass[-1] = 1.0
    for _ in range(200):
        left = 0.0
        for i in range(len(table) - 1, -1, -1):
            m = mass[i]
            if m <= 0.0:
                continue
            mass[i] = 0.0
            moves = table[i]
            stay = sum(probs[slot] for slot, nxt, _ in moves if nxt == i)
            m /= 1.0 - stay
            for slot, nxt, loser in moves:
                if nxt == i:
                    continue
                q = m * probs[slot]
                if nxt == WON:
                    out[loser] += q
                elif nxt == LOST:
                    out[WIN_SCORE + loser] += q
                else:
                    mass[nxt] += q
                    if nxt > i:
                        left += q
        if left < 1e-12:
            break
    return out


@dataclass(frozen=True)
class ScoreTable:
    """P(final score) on the grid of deal strength: ``at(d, k)`` = P(the first pair wins with the other
    on k eyes); P(the other pair wins with the first on k) is ``at(-d, k)`` by symmetry."""

    values: tuple[tuple[float, ...], ...]  # per grid point, the 12 probabilities

    def at(self, d: float, k: int) -> float:
        x = (d + GRID_LIMIT) / GRID_STEP
        last = len(self.values) - 1
        if x <= 0.0:
            return self.values[0][k]
        if x >= last:
            return self.values[last][k]
        i = int(x)
        t = x - i
        return self.values[i][k] * (1.0 - t) + self.values[i + 1][k] * t


@lru_cache(maxsize=32)
def score_table(rules: ScoringKey, shape: DealShape) -> ScoreTable:
    """Tabulate the final-score distribution for this rule set and deal shape (built once per process)."""
    half = int(round(GRID_LIMIT / GRID_STEP))
    rows = [final_score_exact(deal_odds(i * GRID_STEP, shape), rules)[:WIN_SCORE]
            for i in range(-half, half + 1)]
    return ScoreTable(tuple(tuple(r) for r in rows))
