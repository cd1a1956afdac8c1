"""Puzzles from real play: positions where the seat to move missed the one card that keeps the par,
and that card is also the best in at least 90% of the layouts of the hidden hands the seat could
not see, so the puzzle is solvable from the seat and not a guess.

A record's bilka-analysis/1 (`analysis.analyse_record`) already says, for every card played,
the best cards with all hands known and the points the card lost. A candidate is a card that lost
points where exactly one card kept the par. For it the seat's own view is rebuilt by replaying the
record up to that card (`observation_at`: the engine's `Observation`, so the puzzle shows only
what the seat saw), the strong bot's sampler (`sampler.Knowledge`) draws a fixed number of
layouts of the hidden hands consistent with that view, from a seed fixed by the record and the
position (the same record always gives the same puzzles), and the solver values every legal
card in each. The candidate is a puzzle when the seat had at least `MIN_CHOICES` legal cards and
the missing card is a best card (ties counted) in at least `THRESHOLD` of them; the drawing stops
as soon as too many layouts disagree.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from gameplay.engine.analysis import start_position
from gameplay.engine.cards import (
    PAIRS,
    SEATS,
    SUITS,
    VALUE,
    card_from_str,
    card_to_str,
    hand_sort_key,
    mask_cards,
)
from gameplay.engine.deal_position import Position
from gameplay.engine.errors import RecordError
from gameplay.engine.observation import Observation, observe
from gameplay.engine.record import read_record
from gameplay.engine.sampler import Inconsistent, Knowledge
from gameplay.engine.solver import Solver

#: Layouts drawn per candidate: enough that 90% of them means the card is the seat's to find,
#: few enough that a match's puzzles take seconds on the C solver.
SAMPLES = 40
#: A puzzle offers at least this many legal cards: with two, a guess solves half of them (the demo
#: archive's beginner bots gave 50 such positions of 120).
MIN_CHOICES = 3
#: The share of the layouts in which the missing card must be a best card.
THRESHOLD = 0.9
TOTAL = 120
FORMAT = "bilka-puzzle/1"


@dataclass(frozen=True)
class Found:
    """One puzzle of a record: deal (from 1, redeals counted), ply (cards of the deal played before
    it), the seat to move, the card that keeps the par and the card the game played instead, the
    points that card lost, and in how many of the drawn layouts the solution was a best card."""

    deal: int
    ply: int
    seat: str
    card: str
    played: str
    lost: int
    agreeing: int
    samples: int


def observation_at(record: dict[str, Any], deal: int, ply: int) -> Observation:
    """What the seat to move saw before card `ply` of deal `deal`: the record replayed up to there
    (later deals, penalties and the match's end left out), observed from that seat."""
    deals = record.get("deals")
    if not isinstance(deals, list) or not 1 <= deal <= len(deals):
        raise RecordError(f"there is no deal {deal}")
    cut = dict(deals[deal - 1])
    plays = cut.get("plays") or []
    if not 0 <= ply < len(plays):
        raise RecordError(f"deal {deal} has no card {ply + 1}", deal)
    cut["plays"] = plays[:ply]
    cut.pop("passed", None)
    short = {k: v for k, v in record.items() if k not in ("deals", "end", "penalties")}
    short["deals"] = [*deals[:deal - 1], cut]
    short["penalties"] = [p for p in record.get("penalties", []) if p.get("after_deal", 0) < deal]
    state = read_record(short, rng=random.Random(0))  # noqa: S311 - no later deal is dealt
    seat = state.to_move
    if seat is None:
        raise RecordError(f"nobody is to play card {ply + 1} of deal {deal}", deal)
    return observe(state, seat)


def _seed(key: str, deal: int, ply: int) -> int:
    digest = hashlib.sha256(f"{key}/{deal}/{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _maximises(seat: int) -> bool:
    return seat % 2 == 0  # the solver counts North-South's points


def layouts_agreeing(obs: Observation, card: int, *, samples: int = SAMPLES, seed: int = 0,
                     threshold: float = THRESHOLD) -> int:
    """In how many of `samples` layouts of the hidden hands (drawn by the strong bot's sampler from
    what `obs` shows) `card` is a best card for the seat. Stops early, with the count so far, once
    the threshold can no longer be met."""
    if obs.seat is None or obs.trump is None or obs.trick_leader is None:
        raise ValueError("not a seat's observation of a deal in play")
    knowledge = Knowledge.of(obs)
    sampler = knowledge.sampler()
    rng = random.Random(seed)  # noqa: S311 - a reproducible draw, not a secret
    solver = Solver(obs.trump, knowledge.next_seat)
    allowed_misses = samples - _needed(samples, threshold)
    agreeing = misses = 0
    for _ in range(samples):
        hands = sampler.draw(rng)
        pos = Position(hands, obs.trump, obs.trick_leader, obs.trick, knowledge.unled_aces,
                       knowledge.points, knowledge.next_seat)
        values = solver.card_values(pos)
        best = max(values.values()) if _maximises(obs.seat) else min(values.values())
        if values[card] == best:
            agreeing += 1
        else:
            misses += 1
            if misses > allowed_misses:
                break
    return agreeing


def _needed(samples: int, threshold: float) -> int:
    """The least number of agreeing layouts that makes `threshold` of `samples`."""
    needed = int(threshold * samples)
    return needed if needed >= threshold * samples else needed + 1


def candidates(analysis: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(deal, card entry) of every card in a bilka-analysis/1 that lost points where exactly one
    card kept the par."""
    out = []
    for deal in analysis.get("deals", []):
        for entry in deal.get("cards", []):
            if entry["lost"] > 0 and len(entry["best"]) == 1 and entry["card"] not in entry["best"]:
                out.append((int(deal["deal"]), entry))
    return out


def find_puzzles(record: dict[str, Any], analysis: dict[str, Any], *, key: str = "",
                 samples: int = SAMPLES, threshold: float = THRESHOLD) -> list[Found]:
    """Every puzzle of one record, from its analysis. `key` (the record's hash) seeds the layouts
    drawn for each position, so finding again gives the same puzzles."""
    found = []
    for deal, entry in candidates(analysis):
        obs = observation_at(record, deal, entry["ply"])
        if obs.seat is None or SEATS[obs.seat] != entry["seat"]:
            raise RecordError("the analysis does not belong to this record", deal)
        if len([c for c in obs.legal if c < 36]) < MIN_CHOICES:
            continue
        card = card_from_str(entry["best"][0])
        try:
            agreeing = layouts_agreeing(obs, card, samples=samples, seed=_seed(key, deal, entry["ply"]),
                                        threshold=threshold)
        except Inconsistent:
            continue  # cannot come from a real table; nothing to ask
        if agreeing >= _needed(samples, threshold):
            found.append(Found(deal=deal, ply=entry["ply"], seat=entry["seat"], card=entry["best"][0],
                               played=entry["card"], lost=int(entry["lost"]), agreeing=agreeing,
                               samples=samples))
    return found


def _sorted(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [card_to_str(c) for c in sorted(cards, key=hand_sort_key)]


def seat_view(obs: Observation, deal: int, ply: int) -> dict[str, Any]:
    """The position as the seat saw it, and nothing else: its hand and legal cards, every card
    played in the deal with who played it, the trump, the jack-of-clubs holder and the pair on
    duty, whose suit is whose, the number of cards each seat holds, the points taken so far and
    the eyes before the deal."""
    if obs.seat is None or obs.hand is None or obs.trump is None:
        raise ValueError("not a seat's observation of a deal in play")
    history = [(SEATS[s], card_to_str(c)) for s, c in obs.history]
    complete = len(history) - len(history) % 4
    knowledge = Knowledge.of(obs)
    tricks = []
    for start in range(0, complete, 4):
        cards = history[start:start + 4]
        winner = obs.history[start + 4][0] if start + 4 < len(obs.history) else obs.trick_leader
        tricks.append({"cards": [list(c) for c in cards],
                       "winner": SEATS[winner if winner is not None else 0],
                       "points": sum(VALUE[card_from_str(c)] for _, c in cards)})
    return {
        "format": FORMAT,
        "deal": deal,
        "ply": ply,
        "seat": SEATS[obs.seat],
        "deck": obs.deck,
        "hand": _sorted(obs.hand),
        "legal": _sorted([c for c in obs.legal if c < 36]),
        "trump": SUITS[obs.trump],
        "jack_holder": SEATS[obs.jack_holder] if obs.jack_holder is not None else None,
        "on_duty": PAIRS[obs.pair_on_duty] if obs.pair_on_duty is not None else None,
        "suits": (None if obs.suit_of_seat is None
                  else {SEATS[s]: SUITS[obs.suit_of_seat[s]] for s in range(4)}),
        "hand_sizes": dict(zip(SEATS, obs.hand_sizes, strict=True)),
        "tricks": tricks,
        "trick": [list(c) for c in history[complete:]],
        "points": dict(zip(PAIRS, knowledge.points, strict=True)),
        "score": dict(zip(PAIRS, obs.score, strict=True)),
        "dealer": SEATS[obs.dealer],
    }


def _pair_points(seat: int, ns_points: int) -> int:
    return ns_points if _maximises(seat) else TOTAL - ns_points


def _line_order(card: int) -> tuple[int, int]:
    return (VALUE[card], card)


def solution(record: dict[str, Any], deal: int, ply: int) -> dict[str, Any]:
    """What the puzzle shows after the attempt, worked out by the solver with all hands known: the
    four hands at the position, every legal card's final points for the seat's pair, the par (the
    best of them), and the best line from there to the end of the deal (among equal cards the
    cheapest, then the lowest), each card with its seat."""
    state = read_record(record)
    if not 1 <= deal <= len(state.deals):
        raise RecordError(f"there is no deal {deal}")
    log = state.deals[deal - 1]
    if log.redeal is not None or not 0 <= ply < len(log.plays):
        raise RecordError(f"deal {deal} has no card {ply + 1}", deal)
    pos = start_position(state.rules, log)
    for card in log.plays[:ply]:
        pos = pos.play(card)
    seat = pos.to_move
    hands = {SEATS[s]: _sorted(mask_cards(pos.hands[s])) for s in range(4)}
    solver = Solver(pos.trump, pos.next_seat)
    values = solver.card_values(pos)
    par = max(values.values()) if _maximises(seat) else min(values.values())
    line = []
    at = pos
    while not at.over:
        here = solver.card_values(at)
        want = max(here.values()) if _maximises(at.to_move) else min(here.values())
        card = min((c for c, v in here.items() if v == want), key=_line_order)
        line.append([SEATS[at.to_move], card_to_str(card)])
        at = at.play(card)
    return {
        "seat": SEATS[seat],
        "hands": hands,
        "values": {card_to_str(c): _pair_points(seat, v) for c, v in values.items()},
        "par": _pair_points(seat, par),
        "best": sorted(card_to_str(c) for c, v in values.items() if v == par),
        "played": card_to_str(log.plays[ply]),
        "line": line,
        "points": dict(zip(PAIRS, pos.points, strict=True)),
    }


__all__ = ["FORMAT", "MIN_CHOICES", "SAMPLES", "THRESHOLD", "Found", "candidates", "find_puzzles",
           "layouts_agreeing", "observation_at", "seat_view", "solution"]
