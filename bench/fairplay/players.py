"""The bots the fair-play statistic is calibrated on, and the records of the deals they play.

The reviewed player always sits North; East, South and West are beginner bots. Kinds:
- `all-seeing`: with every hand known, plays a double-dummy best card (the solver's), at random
  among equal ones: the cheat the statistic must find.
- `partner-seeing`: the strong bot's reasoning with its partner's real hand known (the sampler
  draws only the opponents'): a partnership sharing cards.
- `reader`: honest, reads the others' play (`reader.py`): the hard case.
- `beginner`, `strong`: the engine's honest bots (`bot.py`; `strong_bot.py` with a fixed number of
  sampled layouts and no clock, so a run is reproducible).
The sampling players (`strong`, `reader`, `partner-seeing`) play the beginner's card in the first trick:
a first-trick solve costs ten times all the others together, and the review leaves the first
trick out (`fairplay.FROM_TRICK`), so this cuts the calibration's time without touching what is
reviewed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bench.fairplay import reader
from gameplay.engine import bot, strong_bot
from gameplay.engine.fairplay import knowledge, position
from gameplay.engine.match import MatchState
from gameplay.engine.record import write_record
from gameplay.engine.rules import Rules
from gameplay.engine.solver import Solver
from gameplay.engine.state import Phase

KINDS = ("all-seeing", "partner-seeing", "beginner", "strong", "reader")
HONEST = ("beginner", "strong", "reader")
#: Layouts the sampling players solve per card.
PLAYER_SAMPLES = 8

Player = Callable[[MatchState, int], int]


class _Free(strong_bot.CostModel):
    """A cost model that lets every solve run: the strong bot then draws exactly `max_samples`."""

    def predict(self, cards_left: int) -> float:
        return 0.0


def _best(values: dict[int, int], seat: int, rng: random.Random) -> int:
    sign = 1 if seat % 2 == 0 else -1
    top = max(sign * v for v in values.values())
    return rng.choice(sorted(c for c, v in values.items() if sign * v == top))


def _in_play(state: MatchState, seat: int) -> bool:
    return state.phase == Phase.PLAY and len(state.observation(seat).legal) > 1


def player(kind: str, rng: random.Random, *, samples: int = PLAYER_SAMPLES) -> Player:
    """The bot of `kind` as `(state, seat) -> action`; only the cheats look past the observation."""

    def beginner(state: MatchState, seat: int) -> int:
        return bot.choose_action(state.observation(seat), rng)

    def strong(state: MatchState, seat: int) -> int:
        obs = state.observation(seat)
        if not _in_play(state, seat) or len(obs.history) < 4:
            return beginner(state, seat)
        return strong_bot.decide(obs, rng, budget=1e9, max_samples=samples, costs=_Free())[0]

    def reads(state: MatchState, seat: int) -> int:
        obs = state.observation(seat)
        if not _in_play(state, seat) or len(obs.history) < 4:
            return beginner(state, seat)
        return reader.choose(obs, rng, samples)

    def all_seeing(state: MatchState, seat: int) -> int:
        if not _in_play(state, seat):
            return beginner(state, seat)
        obs = state.observation(seat)
        k = knowledge(obs)
        return _best(Solver(state.trump, k.next_seat).card_values(position(obs, k, state.hands)), seat, rng)

    def partner_seeing(state: MatchState, seat: int) -> int:
        obs = state.observation(seat)
        if not _in_play(state, seat) or len(obs.history) < 4:
            return beginner(state, seat)
        k = knowledge(obs, state.hands, partner_known=True)
        sampler = k.sampler()
        solver = Solver(state.trump, k.next_seat)
        totals: dict[int, int] = {}
        for _ in range(samples):
            for card, v in solver.card_values(position(obs, k, sampler.draw(rng))).items():
                totals[card] = totals.get(card, 0) + v
        return _best(totals, seat, rng)

    plays = {"all-seeing": all_seeing, "partner-seeing": partner_seeing, "beginner": beginner,
             "strong": strong, "reader": reads}
    if kind not in plays:
        raise ValueError(f"unknown player {kind!r}: one of {', '.join(KINDS)}")
    return plays[kind]


def _played(state: MatchState) -> int:
    return sum(1 for log in state.deals if log.redeal is None and log.outcome is not None)


def play_deals(kind: str, deals: int, *, seed: int = 0,
               samples: int = PLAYER_SAMPLES) -> list[dict[str, Any]]:
    """Records of matches in which a `kind` bot sits North and beginners elsewhere, until `deals`
    deals were played (the last match is cut after the deal that reaches the count)."""
    rng = random.Random(seed)  # noqa: S311 - reproducible play, not secrets
    records = []
    done = 0
    while done < deals:
        state = MatchState(Rules(), rng=random.Random(rng.getrandbits(64)))  # noqa: S311
        seats: list[Player] = [player(kind, random.Random(rng.getrandbits(64)), samples=samples)]  # noqa: S311
        seats += [player("beginner", random.Random(rng.getrandbits(64))) for _ in range(3)]  # noqa: S311
        while state.phase != Phase.OVER and done + _played(state) < deals:
            if state.phase == Phase.REDEAL:
                seat = state.redeal_pending[0]
                state.apply(seats[seat](state, seat), seat)
            else:
                seat = state.to_move if state.to_move is not None else 0
                state.apply(seats[seat](state, seat))
        done += _played(state)
        records.append(write_record(state))
    return records
