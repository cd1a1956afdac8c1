"""What a live table asks of a match whatever its game (`games.py`): a viewer's view as JSON, a bot's
move, how many deals are over.

Bilka's view is `Observation.to_json()`, untouched. Kozyol's is built here in the same shape (the
same keys, so the table's page draws both), from the seat's own hand and what is public: the trick,
the last trick, the tricks taken, the score; never another hand. Kozyol has no pair on duty and no
suits of seats (`on_duty`, `jack_holder`, `suits` are None); it adds `game` and, in `last_deal` /
`last_played`, `catch`, the seat whose шамок caught the other pair's queen of clubs. Its permanent
trumps are a constant of the rules (`permanent_trumps`), drawn by the page, never in a frame, so
that a frame names no card but those its viewer may see.

Bilka for two is played at a table's seats N and S (0 and 2), its players 0 and 1: the services
speak of the table's seats and this module turns them into the engine's players (`engine_player`,
`table_seat`, `mover`). Its view (`bilka2_view`) has the same keys, each side being a player
(`score`, `tricks_taken`, ... keyed `N` and `S`), the trump of the deal, and `stock_left`, how many
cards the stock still holds; never the opponent's hand or the stock's cards or order.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.engine import bots, variant_bot, variant_strong_bot
from gameplay.engine.bilka2 import Bilka2MatchState
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.cards import (
    DIAMONDS,
    JACK_RANK,
    PAIRS,
    SEATS,
    SUITS,
    action_to_str,
    card_to_str,
    hand_sort_key,
    mask_cards,
)
from gameplay.engine.games import BILKA, AnyMatch
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_rules import QUEEN_RANK, KozyolDealLog, ladder_of, trump_order
from gameplay.engine.match import MatchState
from gameplay.engine.state import Phase

#: The bot levels each game's tables may seat (`variant_bot.py`, `variant_strong_bot.py` for the others).
BOT_LEVELS: dict[str, tuple[str, ...]] = {BILKA: ("beginner", "strong"), "kozyol": ("beginner", "strong"),
                                          BILKA2: ("beginner", "strong")}
#: The table's seats (0..3, N E S W) a game's players sit at, in the engine's order of players.
_TWO_SEATS: tuple[int, ...] = (0, 2)
_FOUR_SEATS: tuple[int, ...] = (0, 1, 2, 3)


def game_of_state(state: AnyMatch) -> str:
    """The `game` of a match state (`bilka` for Bilka's)."""
    return BILKA if isinstance(state, MatchState) else str(getattr(state, "game", BILKA))


def table_seats(state_or_game: AnyMatch | str) -> tuple[int, ...]:
    """The table's seats (0..3) a match's players sit at: N and S (0, 2) for Bilka for two."""
    game = state_or_game if isinstance(state_or_game, str) else game_of_state(state_or_game)
    return _TWO_SEATS if game == BILKA2 else _FOUR_SEATS


def engine_player(state: AnyMatch, seat: int) -> int:
    """The engine's player of the table's `seat` (the seat itself but in Bilka for two: N 0, S 1);
    ValueError for a seat the game has not."""
    if isinstance(state, Bilka2MatchState):
        if seat not in _TWO_SEATS:
            raise ValueError(f"Bilka for two has no seat {seat!r}")
        return seat // 2
    return seat


def table_seat(state: AnyMatch, player: int) -> int:
    """The table's seat (0..3) of the engine's `player`."""
    return player * 2 if isinstance(state, Bilka2MatchState) else player


def mover(state: AnyMatch) -> int | None:
    """The table's seat to move, or None."""
    to_move = state.to_move
    return None if to_move is None else table_seat(state, to_move)


def sides(state: AnyMatch) -> tuple[str, str]:
    """The names of a match's two sides as its score keys them: pairs, or Bilka for two's players."""
    return ("N", "S") if isinstance(state, Bilka2MatchState) else (PAIRS[0], PAIRS[1])


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
    view = state.observation(engine_player(state, seat))
    if level == "strong":  # it guesses the hidden hands (and Bilka for two's stock)
        return variant_strong_bot.choose_action(view, rng, budget=budget)
    return variant_bot.choose_action(view, rng)


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


def bilka2_sort_key(trump: int) -> Any:
    """A hand's display order at a Bilka-for-two table: the jacks, the deal's trump suit, then the
    other suits as Bilka's hand shows them."""
    def key(card: int) -> tuple[int, int, int]:
        major, minor = hand_sort_key(card)
        if card % 9 == JACK_RANK:
            return (0, major, minor)
        return (1 if card // 9 == trump else 2, major, minor)
    return key


def _players(values: tuple[int, int] | list[int]) -> dict[str, int]:
    return {"N": values[0], "S": values[1]}


def bilka2_view(state: Bilka2MatchState, seat: int | None) -> dict[str, Any]:
    """The game as the table's `seat` (0 N or 2 S) sees it, or a spectator (None): the keys of
    Observation.to_json, each side a player (N, S), with the trump and the stock's count."""
    player = None if seat is None else engine_player(state, seat)
    log = state.deals[-1] if state.deals else None
    in_deal = log is not None and log.outcome is None
    to_move = state.to_move

    def letter(p: int | None) -> str | None:
        return None if p is None else SEATS[table_seat(state, p)]
    hand = None
    if player is not None and in_deal:
        key = bilka2_sort_key(state.trump)
        hand = [card_to_str(c) for c in sorted(mask_cards(state.hands[player]), key=key)]
    legal = state.legal_actions() if player is not None and to_move == player else []
    last_trick = state.last_trick if state.rules.review_tricks == "last" and in_deal else None
    finished = [d for d in state.deals if d.outcome is not None]
    last_deal = last_played = None
    if finished:
        d = finished[-1]
        last_deal = {"outcome": d.outcome, "points": _players(d.points), "eyes": _players(d.eyes),
                     "redeal": None}
        last_played = {"deal": len(finished), "outcome": d.outcome, "points": _players(d.points),
                       "eyes": _players(d.eyes), "on_duty": None, "score": _players(d.score_after)}
    return {
        "seat": None if seat is None else SEATS[seat],
        "phase": state.phase.name.lower(),
        "deal": len(state.deals),
        "dealer": letter(state.dealer),
        "to_move": letter(to_move),
        "hand": hand,
        "legal": [action_to_str(a) for a in legal],
        "hand_sizes": {"N": state.hands[0].bit_count() if in_deal else 0,
                       "S": state.hands[1].bit_count() if in_deal else 0},
        "trump": SUITS[state.trump] if in_deal else None,
        "jack_holder": None,
        "on_duty": None,
        "suits": None,
        "trick": {"leader": letter(state.trick_leader) if in_deal else None,
                  "cards": [card_to_str(c) for c in state.trick] if in_deal else []},
        "last_trick": None if last_trick is None else {
            "leader": letter(last_trick[0]), "cards": [card_to_str(c) for c in last_trick[1]],
            "winner": letter(last_trick[2])},
        "tricks_taken": _players(state.tricks_taken if in_deal else (0, 0)),
        "last_deal": last_deal,
        "answered": [],
        "score": _players(state.capped_score),
        "eggs": state.eggs,
        "winner": letter(state.winner),
        "end": None if state.end is None else {"reason": state.end[0], "seat": letter(state.end[1])},
        "deck": state.rules.deck,
        "last_played": last_played,
        "game": state.game,
        "stock_left": state.stock_left if in_deal else 0,
    }


def view_json(state: AnyMatch, seat: int | None) -> dict[str, Any]:
    """A viewer's view of a match of any game (Bilka's exactly as its observation writes it)."""
    if isinstance(state, MatchState):
        obs = state.observation(seat) if seat is not None else state.spectator_observation()
        return obs.to_json()
    if isinstance(state, KozyolMatchState):
        return kozyol_view(state, seat)
    if isinstance(state, Bilka2MatchState):
        return bilka2_view(state, seat)
    raise ValueError(f"no live table plays {game_of_state(state)} yet")


__all__ = ["BOT_LEVELS", "bilka2_view", "bot_action", "deals_finished", "engine_player", "game_of_state",
           "kozyol_view", "mover", "permanent_trumps", "sides", "table_seat", "table_seats", "view_json"]
