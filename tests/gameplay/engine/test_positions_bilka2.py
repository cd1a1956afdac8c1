"""The replay of a Bilka-for-two record: two seats, two cards a trick, the stock's cards joining the
hands when they were drawn, the points by player; at every card the hands, the trick and the points
agree with the engine's own state played to the same card."""

from __future__ import annotations

import random

import pytest

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import card_from_str, card_to_str, mask_cards
from gameplay.engine.positions import Replay
from gameplay.engine.record_games import write_game_record
from gameplay.engine.state import Phase
from gameplay.engine.variant_bot import choose_action


def _played(stock: str, seed: int) -> Bilka2MatchState:
    state = Bilka2MatchState(Bilka2Rules(stock=stock), seed=seed)
    rng = random.Random(seed)  # noqa: S311 - test players
    while state.phase != Phase.OVER:
        state.apply(choose_action(state.observation(state.to_move), rng), state.to_move)
    return state


@pytest.mark.parametrize("stock", ["halves", "after_trick"])
def test_every_position_of_a_bilka2_replay_is_the_engines(stock):
    record = write_game_record(_played(stock, 7))
    replay = Replay.from_record(record)
    assert replay.seats == "NS" and replay.sides == ("N", "S") and replay.per_trick == 2
    assert replay.winner in ("N", "S") and set(replay.score) == {"N", "S"}
    again = Bilka2MatchState(Bilka2Rules(stock=stock), seed=7)
    for index, deal in enumerate(replay.deals):
        assert deal.jack_holder is None and deal.pair_on_duty is None and deal.redeal is None
        assert len(deal.draws) == 16 and {seat for _at, seat, _c in deal.draws} == {"N", "S"}
        for card in range(deal.plays + 1):
            pos = replay.position(index, card)
            if card == deal.plays:
                break
            for player, seat in enumerate("NS"):
                assert set(pos.hands[seat]) == {card_to_str(c) for c in mask_cards(again.hands[player])}, (
                    index, card, seat)
            assert pos.points == {"N": again.points[0], "S": again.points[1]}
            assert pos.to_move == "NS"[again.to_move]
            again.apply(card_from_str(record["deals"][index]["plays"][card]), again.to_move)
        assert pos.eyes_after == deal.score_after
    data = replay.to_json()
    assert data["seats"] == "NS" and data["sides"] == ["N", "S"] and "draws" in data["deals"][0]
