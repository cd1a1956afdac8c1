"""Simulated Bilka matches for the rating harness: hidden, slowly drifting strengths, deals by the rules.

Nothing here uses the rating model's formula. Each player has a hidden strength (card points a
deal, in units of ``POINTS`` points); a pair's is its partners' sum plus, for fixed pairs, a
hidden understanding of its own. In each deal the jack of clubs goes to a random seat (its pair
is on duty and has the stronger hand), the first pair's card points are
``60 + POINTS * (strength difference +- DUTY) + noise`` rounded to a total the cards can make;
a pair far enough ahead takes every trick (Lucy). The engine's own scoring
(``gameplay.engine.scoring.score_deal``) turns the deal into eyes, eggs and Lucy included,
until a pair has 12. Since the simulation knows each deal's exact outcome distribution, a
dynamic programme over the score gives each match's exact win probability: the floor of the
log-loss any system could reach.

What this flatters: the model reads a deal's card points as a normal margin, and the points
here are a normal margin too (the tuning found the simulation's own constants: duty edge 0.55,
22 points a unit, Lucy from 66 points ahead). Real deals are lumpier; so the harness's held-out
shapes give the systems less (eyes only, the final score only) and one of them is not made here
at all: its deals are played out by the engine's bots (``bench/ratings/botstreams.py``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

from gameplay.engine.scoring import WIN_SCORE, score_deal
from gameplay.engine.sheets import POSSIBLE_POINTS, ScoringRules
from ratings.core.match_odds import match_probability_exact

POINTS = 22.0  # card points one unit of strength is worth in a deal
NOISE = 22.0  # spread of a deal's points from the cards dealt
DUTY = 0.55  # strength units the pair on duty gains from the jack of clubs and its trump
LUCY_AT = 126  # raw points from which the leading pair takes every trick
RULES = ScoringRules()
_POSSIBLE = sorted(POSSIBLE_POINTS)
_SNAP = [min(_POSSIBLE, key=lambda p, r=r: abs(p - r)) for r in range(121)]


def _deal_points(raw: float, duty: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Points and tricks per pair from the first pair's raw score."""
    if raw >= LUCY_AT:
        return (120, 0), (8, 0)
    if raw <= 120 - LUCY_AT:
        return (0, 120), (0, 8)
    p = _SNAP[max(0, min(120, round(raw)))]
    if duty == 0:
        p = max(p, 2)
    else:
        p = min(p, 118)
    return (p, 120 - p), (4, 4)


def play_match(rng: random.Random, diff: float) -> tuple[str, tuple[int, int], list[dict[str, object]]]:
    """One match to 12 eyes: winner, final eyes, and the deals as the CLI reads them."""
    score = [0, 0]
    eggs = 0
    played = False
    deals: list[dict[str, object]] = []
    while True:
        duty = rng.randrange(2)
        raw = 60.0 + POINTS * (diff + (DUTY if duty == 0 else -DUTY)) + rng.gauss(0.0, NOISE)
        points, tricks = _deal_points(raw, duty)
        s = score_deal(RULES, points, tricks, duty, eggs, not played, (score[0], score[1]))  # type: ignore[arg-type]
        played = True
        score[0] += s.eyes[0]
        score[1] += s.eyes[1]
        if s.reset is not None:
            score[s.reset] = 0
        deals.append(
            {
                "NS": s.eyes[0],
                "EW": s.eyes[1],
                "outcome": s.outcome,
                "on_duty": "NS" if duty == 0 else "EW",
                "points": list(points),
            }
        )
        eggs = 0 if s.decided else eggs + 1
        if s.match_won is not None or max(score) >= WIN_SCORE:
            won = s.match_won if s.match_won is not None else (0 if score[0] >= WIN_SCORE else 1)
            eyes = (min(score[0], WIN_SCORE), min(score[1], WIN_SCORE))
            return ("NS" if won == 0 else "EW"), eyes, deals


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _classes(diff: float, duty: int) -> list[float]:
    """Exact probabilities of eggs, NS win/rout/Lucy, EW win/rout/Lucy for one deal."""
    mean = 60.0 + POINTS * (diff + (DUTY if duty == 0 else -DUTY))
    out = [0.0] * 7

    def below(x: float) -> float:
        return _phi((x - mean) / NOISE)

    out[3] = 1.0 - below(LUCY_AT)
    out[6] = below(120 - LUCY_AT)
    for r in range(121):
        lo = -math.inf if r == 0 else r - 0.5
        hi = math.inf if r == 120 else r + 0.5
        lo, hi = max(lo, 120 - LUCY_AT), min(hi, LUCY_AT)
        if hi <= lo:
            continue
        pr = below(hi) - below(lo)
        (p0, _), _ = _deal_points(float(r), duty)
        if p0 == 60:
            out[0] += pr
        elif p0 > 60:
            out[2 if p0 >= RULES.rout_at else 1] += pr
        else:
            out[5 if 120 - p0 >= RULES.rout_at else 4] += pr
    return out


@lru_cache(maxsize=1)
def _true_table() -> tuple[float, ...]:
    step, limit = 0.005, 3.0
    n = int(round(limit / step))
    upper = [match_probability_exact((_classes(i * step, 0), _classes(i * step, 1))) for i in range(n + 1)]
    return tuple([1.0 - v for v in reversed(upper[1:])] + upper)


def true_probability(diff: float) -> float:
    """P(NS wins the match) at this true strength difference (exact DP, read from a 0.005 grid)."""
    t = _true_table()
    x = (diff + 3.0) / 0.005
    if x <= 0:
        return t[0]
    if x >= len(t) - 1:
        return t[-1]
    i = int(x)
    f = x - i
    return t[i] * (1 - f) + t[i + 1] * f


@dataclass
class SimMatch:
    """One simulated match, with what the harness knows and the systems do not."""

    ns: tuple[str, str]
    ew: tuple[str, str]
    day: float
    winner: str
    eyes: tuple[int, int]
    deals: list[dict[str, object]]
    p_true: float
    fixed: bool
    strengths: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # ns[0], ns[1], ew[0], ew[1] then


@dataclass
class Stream:
    """A stream of one shape: its matches in order and the hidden strengths at each player's 60th match.

    ``truth_at_60`` is keyed by unit: a player ``(p,)``, or a fixed pair ``(a, b)`` sorted in a league
    (its partners' strengths plus its own term).
    """

    kind: str
    matches: list[SimMatch] = field(default_factory=list)
    truth_at_60: dict[tuple[str, ...], float] = field(default_factory=dict)
    index_at_60: dict[tuple[str, ...], int] = field(default_factory=dict)
    chemistry: dict[tuple[str, str], float] = field(default_factory=dict)  # each fixed pair's own term


def simulate(
    field: str,
    seed: int,
    players: int = 200,
    per_player: int = 120,
    days: int = 365,
    spread: float = 0.25,
    drift: float = 0.006,
    chemistry: float = 0.1,
) -> Stream:
    """A stream of one field: "league" (fixed pairs), "rotating" or "mix" (uneven activity, late joiners).

    The generator is seeded by field and seed only, the strengths are its first draws and the cards
    come from a source of their own, so the same seed at another ``spread``, ``drift`` or
    ``chemistry`` has the same schedule of the same players, only their strengths differ (scaled
    by the ratio of the spreads when there is no drift).
    """
    kind = field
    rng = random.Random(f"{kind}-{seed}")
    luck = random.Random(f"{kind}-{seed}-cards")  # the deals apart: the schedule does not hang on results
    ids = [f"p{i}" for i in range(players)]
    strength = {p: rng.gauss(0.0, spread) for p in ids}
    n_fixed = players if kind == "league" else (players // 2 if kind == "mix" else 0)
    pairs = [(ids[i], ids[i + 1]) for i in range(0, n_fixed, 2)]
    chem = {pr: rng.gauss(0.0, chemistry) for pr in pairs}
    weight = {p: (rng.lognormvariate(0.0, 1.0) if kind == "mix" else 1.0) for p in ids}
    start = {p: (rng.uniform(0, days * 0.6) if kind == "mix" and rng.random() < 0.3 else 0.0) for p in ids}
    gap = {p: (rng.uniform(0, days), rng.uniform(20, 120)) if kind == "mix" else (0.0, 0.0) for p in ids}
    total = players * per_player // 4
    match_days = sorted(rng.uniform(0, days) for _ in range(total))
    stream = Stream(kind, chemistry=chem)
    count: dict[tuple[str, ...], int] = {}
    today = 0.0
    pair_of = {p: pr for pr in pairs for p in pr}
    for day in match_days:
        step = day - today
        if step > 0:
            for p in ids:
                strength[p] += rng.gauss(0.0, drift * math.sqrt(step))
            today = day
        if kind == "league":
            a, b = rng.sample(pairs, 2)
            ns, ew, fixed = a, b, True
        else:
            active = [p for p in ids if start[p] <= day and not gap[p][0] <= day < gap[p][0] + gap[p][1]]
            first = rng.choices(active, [weight[p] for p in active])[0]
            if first in pair_of and rng.random() < 0.5:
                own = pair_of[first]
                others = [pr for pr in pairs if pr != own and pr[0] in active and pr[1] in active]
                ns, ew, fixed = own, rng.choice(others), True
            else:
                rest = [p for p in active if p != first]
                three: list[str] = []
                while len(three) < 3:
                    q = rng.choices(rest, [weight[p] for p in rest])[0]
                    if q not in three:
                        three.append(q)
                four = [first, *three]
                rng.shuffle(four)
                ns, ew, fixed = (four[0], four[1]), (four[2], four[3]), False
        if rng.random() < 0.5:
            ns, ew = ew, ns

        def pair_strength(pr: tuple[str, str]) -> float:
            return strength[pr[0]] + strength[pr[1]] + chem.get(pr, chem.get((pr[1], pr[0]), 0.0))

        diff = pair_strength(ns) - pair_strength(ew)
        winner, eyes, deals = play_match(luck, diff)
        four = (strength[ns[0]], strength[ns[1]], strength[ew[0]], strength[ew[1]])
        stream.matches.append(SimMatch(ns, ew, day, winner, eyes, deals, true_probability(diff), fixed, four))
        units: list[tuple[str, ...]] = (
            [tuple(sorted(ns)), tuple(sorted(ew))] if kind == "league" else [(p,) for p in (*ns, *ew)]
        )
        for u in units:
            count[u] = count.get(u, 0) + 1
            if count[u] == 60:
                stream.truth_at_60[u] = sum(strength[p] for p in u) + (
                    chem.get((u[0], u[1]), chem.get((u[-1], u[0]), 0.0)) if len(u) == 2 else 0.0
                )
                stream.index_at_60[u] = len(stream.matches)  # after this match is learnt
    return stream
