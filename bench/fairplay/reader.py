"""An honest bot that reads the play better than uniform sampling: the hard case for the review.

Like the strong bot it solves sampled layouts of the hidden hands and plays the card best on
average, but it keeps only layouts under which the other three seats would have played the cards
they did — by the beginner's rule, which is how the calibration's other seats really play (the
exact posterior, so no honest reader can do better). For each layout drawn uniformly it replays
the deal so far from each other seat's view under that layout and weighs the layout by the
chance that the beginner plays each of their cards (1 or 0, or 1/n where it leads one of n plain
aces at random). It draws until `samples` layouts have weight, or `MAX_DRAWS` draws; if none has,
it falls back to the uniform layouts. It sees only its own observation.
"""

from __future__ import annotations

import random
from dataclasses import replace

from gameplay.engine import bot
from gameplay.engine.cards import JACK_RANK, mask_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.fairplay import knowledge, position
from gameplay.engine.observation import Observation
from gameplay.engine.solver import Solver

#: Uniform draws tried per decision before falling back.
MAX_DRAWS = 300


def _beginner_chance(view: Observation, card: int) -> float:
    """The chance that the beginner bot plays `card` from `view`."""
    legal = view.legal
    if len(legal) == 1:
        return 1.0 if card in legal else 0.0
    trump = view.trump if view.trump is not None else 0
    if not view.trick:
        aces = [c for c in legal if c % 9 == 8 and c % 9 != JACK_RANK and c // 9 != trump]
        if aces:
            return 1.0 / len(aces) if card in aces else 0.0
    return 1.0 if bot.choose_action(view, random.Random(0)) == card else 0.0  # noqa: S311


def layout_weight(obs: Observation, hands: tuple[int, int, int, int]) -> float:
    """How likely the others' cards of this deal were under the layout `hands` (held now)."""
    assert obs.trump is not None and obs.seat is not None and obs.rules is not None  # noqa: S101
    start = list(hands)
    for s, c in obs.history:
        start[s] |= 1 << c
    if not obs.history:
        return 1.0
    leader = obs.history[0][0]
    k = knowledge(obs)
    pos = Position.start((start[0], start[1], start[2], start[3]), obs.trump, leader,
                         ace_discard_ban=obs.rules.ace_discard_ban, next_seat=k.next_seat)
    weight = 1.0
    for s, c in obs.history:
        if s != obs.seat:
            view = replace(obs, seat=s, hand=tuple(mask_cards(pos.hands[s])),
                           legal=tuple(mask_cards(pos.legal_mask())), trick=pos.trick, redeal_phase=False)
            weight *= _beginner_chance(view, c)
            if weight == 0:
                return 0.0
        pos = pos.play(c)
    return weight


def choose(obs: Observation, rng: random.Random, samples: int) -> int:
    """The reader's card: the best average over the layouts weighed by the others' play."""
    k = knowledge(obs)
    sampler = k.sampler()
    assert obs.trump is not None and obs.seat is not None  # noqa: S101
    solver = Solver(obs.trump, k.next_seat)
    kept: list[tuple[float, tuple[int, int, int, int]]] = []
    uniform: list[tuple[float, tuple[int, int, int, int]]] = []
    for _ in range(MAX_DRAWS):
        hands = sampler.draw(rng)
        if len(uniform) < samples:
            uniform.append((1.0, hands))
        w = layout_weight(obs, hands)
        if w > 0:
            kept.append((w, hands))
            if len(kept) == samples:
                break
    totals: dict[int, float] = {}
    for w, hands in kept or uniform:
        for card, v in solver.card_values(position(obs, k, hands)).items():
            totals[card] = totals.get(card, 0.0) + w * v
    sign = 1 if obs.seat % 2 == 0 else -1
    top = max(sign * v for v in totals.values())
    return rng.choice(sorted(c for c, v in totals.items() if sign * v == top))
