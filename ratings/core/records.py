"""Matches as JSON lines (the ``predict`` command's input) read into the model's ``Match``.

One object a line: ``{"id", "date", "ns": [a, b], "ew": [c, d], "winner": "NS"|"EW", "eyes":
{"NS": n, "EW": m}, "deals": [{"NS": eyes, "EW": eyes, "outcome"?, "on_duty"?, "points"?}...],
"rules"?, "ended"?}``. ``deals`` may be missing (a match known only by its score); an empty list
is a forfeit before the first card, which is not rated. When a deal does not say its outcome or
the pair on duty, they are read from its eyes where the rules make them certain (1 eye: the
winner was on duty; 3: a rout by the other pair); 2 eyes are one of two ("win-or-rout": a plain
win by the pair not on duty or a rout by the pair on duty); otherwise left open.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from ratings.core.match_odds import ScoringKey
from ratings.core.model import EW, NS, Deal, Match

MATCH_KEYS = {"id", "date", "ns", "ew", "winner", "eyes", "deals", "rules", "ended"}
DEAL_KEYS = {"NS", "EW", "outcome", "on_duty", "points"}
OUTCOMES = {"win", "rout", "eggs", "lucy", "redeal"}


class BadRecord(ValueError):
    """A line the command cannot read; the message says what is wrong."""


def _eyes(obj: Any, what: str) -> tuple[int, int]:
    if not isinstance(obj, dict) or set(obj) != {NS, EW}:
        raise BadRecord(f"{what} must be an object with NS and EW")
    ns, ew = obj[NS], obj[EW]
    for v in (ns, ew):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BadRecord(f"{what}: eyes are whole numbers from 0, not {v!r}")
    return ns, ew


def _deal(obj: Any, n: int, eggs: int, rules: ScoringKey) -> Deal | None:
    """One deal; None for a redeal (not played). ``eggs``: eggs deals just before this one."""
    what = f"deal {n}"
    if not isinstance(obj, dict):
        raise BadRecord(f"{what} must be an object")
    unknown = set(obj) - DEAL_KEYS
    if unknown:
        raise BadRecord(f"{what}: unknown key {sorted(unknown)[0]!r}")
    ns, ew = _eyes({k: obj.get(k) for k in (NS, EW)}, what)
    outcome = obj.get("outcome")
    if outcome is not None and outcome not in OUTCOMES:
        raise BadRecord(f"{what}: outcome is one of {', '.join(sorted(OUTCOMES))}, not {outcome!r}")
    duty = obj.get("on_duty")
    if duty is not None and duty not in (NS, EW):
        raise BadRecord(f"{what}: on_duty is NS or EW, not {duty!r}")
    points = obj.get("points")
    if points is not None and (
        not isinstance(points, list)
        or len(points) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        or sum(points) != 120
    ):
        raise BadRecord(f"{what}: points are [NS, EW] adding up to 120")
    if outcome == "redeal":
        return None
    if ns and ew:
        raise BadRecord(f"{what}: only one pair opens eyes in a deal")
    if outcome == "eggs" or (not ns and not ew and outcome is None):
        return Deal(None, "eggs", duty, (points[0], points[1]) if points else None)
    if not ns and not ew:
        raise BadRecord(f"{what}: a {outcome} deal opens eyes")
    winner = NS if ns else EW
    kind = outcome or "any"
    if outcome is None and points is not None:
        kind = "rout" if max(points) >= rules.rout_at else "win"
    if (kind == "any" or duty is None) and rules.eggs == "double" and not rules.first_deal_two_eyes:
        base, rest = divmod(ns or ew, eggs + 1)
        if not rest:
            if duty is None:
                duty = winner if base == 1 else (EW if winner == NS else NS) if base == 3 else None
            if kind == "any" and duty is not None and base in (1, 2, 3):
                kind = "win" if base == (1 if duty == winner else 2) else "rout"
            elif kind == "any" and base == 2:
                kind = "win-or-rout"  # a plain win by the pair not on duty, or a rout by the pair on duty
    return Deal(winner, kind, duty, (points[0], points[1]) if points else None)


def parse_match(obj: Any) -> tuple[str, Match]:
    """The match's id and the model's ``Match``; ``BadRecord`` names what is wrong."""
    if not isinstance(obj, dict):
        raise BadRecord("a line is one JSON object")
    unknown = set(obj) - MATCH_KEYS
    if unknown:
        raise BadRecord(f"unknown key {sorted(unknown)[0]!r}")
    for key in ("id", "ns", "ew", "winner"):
        if key not in obj:
            raise BadRecord(f"missing key {key!r}")
    mid = obj["id"]
    if isinstance(mid, bool) or not isinstance(mid, str | int):
        raise BadRecord("id is a string or a number")
    sides = []
    for key in ("ns", "ew"):
        side = obj[key]
        if (
            not isinstance(side, list)
            or len(side) != 2
            or not all(isinstance(p, str | int) and not isinstance(p, bool) for p in side)
        ):
            raise BadRecord(f"{key} is a list of two player ids")
        sides.append((str(side[0]), str(side[1])))
    if len({*sides[0], *sides[1]}) != 4:
        raise BadRecord("a match has four different players")
    winner = obj["winner"]
    if winner not in (NS, EW):
        raise BadRecord(f"winner is NS or EW, not {winner!r}")
    day = None
    if "date" in obj:
        try:
            day = float(date.fromisoformat(str(obj["date"])).toordinal())
        except ValueError:
            raise BadRecord(f"date is YYYY-MM-DD, not {obj['date']!r}") from None
    if not isinstance(obj.get("rules", {}), dict):
        raise BadRecord("rules is an object")
    try:
        rules = ScoringKey.from_rules(obj.get("rules") or {})
    except (TypeError, ValueError) as e:
        raise BadRecord(f"rules: {e}") from None
    ended = obj.get("ended", "normal")
    if ended not in ("normal", "resigned", "timeout"):
        raise BadRecord(f"ended is normal, resigned or timeout, not {ended!r}")
    eyes: tuple[int, int] | None = None
    if "eyes" in obj:
        eyes = _eyes(obj["eyes"], "eyes")
        won = eyes[0] if winner == NS else eyes[1]
        lost = eyes[1] if winner == NS else eyes[0]
        if ended == "normal" and (won < 12 or lost >= 12):
            raise BadRecord(f"the winner of a played-out match has 12 eyes, the other fewer, not {eyes}")
    deals: tuple[Deal, ...] | None = None
    if "deals" in obj:
        if not isinstance(obj["deals"], list):
            raise BadRecord("deals is a list")
        out: list[Deal] = []
        eggs = 0
        for n, raw in enumerate(obj["deals"], 1):
            deal = _deal(raw, n, eggs, rules)
            if deal is None:
                continue
            eggs = eggs + 1 if deal.winner is None else 0
            out.append(deal)
        deals = tuple(out)
    return str(mid), Match(sides[0], sides[1], winner, deals, day, rules, ended, eyes=eyes)
