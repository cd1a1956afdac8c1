"""What a live table asks of a match whatever its game (`games.py`): a viewer's view as JSON, a bot's
move, how many deals are over.

Bilka's view is `Observation.to_json()`, untouched. Kozyol's is built here in the same shape (the
same keys, so the table's page draws both), from the seat's own hand and what is public: the trick,
the last trick, the tricks taken, the score; never another hand. Kozyol has no pair on duty and no
suits of seats (`on_duty`, `jack_holder`, `suits` are None); it adds `game` and, in `last_deal` /
`last_played`, `catch`, the seat whose шамок caught the other pair's queen of clubs. Its permanent
trumps are a constant of the rules (`permanent_trumps`), drawn by the page, never in a frame, so
that a frame names no card but those its viewer may see.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.engine import bots, variant_bot, variant_strong_bot
from gameplay.engine.cards import (
    DIAMONDS,
    JACK_RANK,
    PAIRS,
    SEATS,
    SUITS,
    action_to_str,
    card_to_str,
    mask_cards,
)
from gameplay.engine.games import BILKA, AnyMatch
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_rules import QUEEN_RANK, KozyolDealLog, ladder_of, trump_order
from gameplay.engine.match import MatchState
from gameplay.engine.state import Phase

#: The bot levels each game's tables may seat (Kozyol: `variant_bot.py`, `variant_strong_bot.py`).
BOT_LEVELS: dict[str, tuple[str, ...]] = {BILKA: ("beginner", "strong"), "kozyol": ("beginner", "strong")}


def game_of_state(state: AnyMatch) -> str:
    """The `game` of a match state (`bilka` for Bilka's)."""
    return BILKA if isinstance(state, MatchState) else str(getattr(state, "game", BILKA))


def deals_finished(state: AnyMatch) -> int:
    """How many deals of the match are over (redeals included)."""
    return sum(1 for d in state.deals if d.outcome is not None)


def bot_action(level: str, state: AnyMatch, seat: int, rng: random.Random, *,
               budget: float = bots.DEFAULT_BUDGET) -> int:
    """The action of a bot of `level` at `seat`, from that seat's observation only."""
    if isinstance(state, MatchState):
        return bots.choose(level, state.observation(seat), rng, budget=budget)
    if level not in BOT_LEVELS.get(game_of_state(state), ()):
        raise ValueError(f"no {level!r} bot plays {game_of_state(state)}")
    if level == "strong":
        return variant_strong_bot.choose_action(state.observation(seat), rng, budget=budget)
    return variant_bot.choose_action(state.observation(seat), rng)


def kozyol_sort_key(state: KozyolMatchState) -> Any:
    """A hand's display order at a Kozyol table: the trumps from the highest down, then clubs,
    spades and hearts from the ace down."""
    ladder = ladder_of(state.rules)
    plain_order = {0: 0, 3: 1, 2: 2}

    def key(card: int) -> tuple[int, int, int]:
        if ladder.trumps >> card & 1:
            return (0, 0, -ladder.strength[DIAMONDS][card])
        return (1, plain_order.get(card // 9, 3), -ladder.strength[card // 9][card])  # the ten above the king
    return key


def permanent_trumps(rules: KozyolRules) -> list[str]:
    """The шамок, the queens and the jacks of the table's deck, highest first."""
    return [card_to_str(c) for c in trump_order(rules)
            if c // 9 != DIAMONDS or c % 9 in (QUEEN_RANK, JACK_RANK)]


def _pairs(values: tuple[int, int] | list[int]) -> dict[str, int]:
    return {PAIRS[0]: values[0], PAIRS[1]: values[1]}


def _seat_name(seat: int | None) -> str | None:
    return None if seat is None else SEATS[seat]


def kozyol_view(state: KozyolMatchState, seat: int | None) -> dict[str, Any]:
    """The game as `seat` (0..3) sees it, or a spectator (None): Observation.to_json's keys."""
    log: KozyolDealLog | None = state.deals[-1] if state.deals else None
    in_deal = log is not None and log.outcome is None
    redeal_phase = state.phase == Phase.REDEAL
    to_move = None if redeal_phase else state.to_move
    legal: list[int] = []
    if redeal_phase and seat is not None:
        legal = state.redeal_options(seat)
    elif seat is not None and to_move == seat:
        legal = state.legal_actions()
    hands = state.hands
    hand = None
    if seat is not None and in_deal:
        hand = [card_to_str(c) for c in sorted(mask_cards(hands[seat]), key=kozyol_sort_key(state))]
    last_trick = state.last_trick if state.rules.review_tricks == "last" and in_deal else None
    finished = [d for d in state.deals if d.outcome is not None]
    last_deal = None
    if finished:
        d = finished[-1]
        last_deal = {"outcome": d.outcome, "points": None if d.outcome == "redeal" else _pairs(d.points),
                     "eyes": _pairs(d.eyes), "redeal": _seat_name(d.redeal), "catch": _seat_name(d.catch)}
    played = [(i, d) for i, d in enumerate(state.deals) if d.outcome not in (None, "redeal")]
    last_played = None
    if played:
        number, p = played[-1]
        last_played = {"deal": number + 1, "outcome": p.outcome, "points": _pairs(p.points),
                       "eyes": _pairs(p.eyes), "on_duty": None, "score": _pairs(p.score_after),
                       "catch": _seat_name(p.catch)}
    return {
        "seat": _seat_name(seat),
        "phase": state.phase.name.lower(),
        "deal": len(state.deals),
        "dealer": SEATS[state.dealer],
        "to_move": _seat_name(to_move),
        "hand": hand,
        "legal": [action_to_str(a) for a in legal],
        "hand_sizes": dict(zip(SEATS, (h.bit_count() if in_deal else 0 for h in hands), strict=True)),
        "trump": SUITS[DIAMONDS] if in_deal else None,
        "jack_holder": None,
        "on_duty": None,
        "suits": None,
        "trick": {"leader": _seat_name(state.trick_leader) if in_deal else None,
                  "cards": [card_to_str(c) for c in state.trick] if in_deal else []},
        "last_trick": None if last_trick is None else {
            "leader": SEATS[last_trick[0]], "cards": [card_to_str(c) for c in last_trick[1]],
            "winner": SEATS[last_trick[2]]},
        "tricks_taken": _pairs(state.tricks_taken if in_deal else (0, 0)),
        "last_deal": last_deal,
        "answered": [SEATS[s] for s in log.passed] if redeal_phase and log is not None else [],
        "score": _pairs(state.capped_score),
        "eggs": state.eggs,
        "winner": None if state.winner is None else PAIRS[state.winner],
        "end": None if state.end is None else {"reason": state.end[0], "seat": SEATS[state.end[1]]},
        "deck": state.rules.deck,
        "last_played": last_played,
        "game": state.game,
    }


def view_json(state: AnyMatch, seat: int | None) -> dict[str, Any]:
    """A viewer's view of a match of any game (Bilka's exactly as its observation writes it)."""
    if isinstance(state, MatchState):
        obs = state.observation(seat) if seat is not None else state.spectator_observation()
        return obs.to_json()
    if isinstance(state, KozyolMatchState):
        return kozyol_view(state, seat)
    raise ValueError(f"no live table plays {game_of_state(state)} yet")


__all__ = ["BOT_LEVELS", "bot_action", "deals_finished", "game_of_state", "kozyol_view", "permanent_trumps",
           "view_json"]
