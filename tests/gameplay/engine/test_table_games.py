"""What a live table reads of a Kozyol match (`table_games.py`): each seat's view in the shape of
Bilka's, with no other hand in it, the catch named once it happens, and the beginner bot's move."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.engine.bots import DEFAULT_BUDGET
from gameplay.engine.cards import SEATS, card_to_str, mask_cards
from gameplay.engine.games import new_match, rules_from_json
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.match import MatchState
from gameplay.engine.state import Phase
from gameplay.engine.table_games import bot_action, deals_finished, permanent_trumps, view_json


def _kozyol(seed: int) -> KozyolMatchState:
    state = new_match(rules_from_json({"game": "kozyol"}), seed=seed)
    assert isinstance(state, KozyolMatchState)
    return state


def _step(state: KozyolMatchState, rng: random.Random) -> None:
    seat = state.redeal_pending[0] if state.redeal_pending else state.to_move
    state.apply(bot_action("beginner", state, seat, rng), seat)


def test_the_view_has_bilkas_keys_and_only_the_viewers_hand():
    state = _kozyol(4)
    bilka = view_json(MatchState(seed=4), 0)
    rng = random.Random(4)  # noqa: S311
    for _ in range(60):
        _step(state, rng)
        for viewer in (0, 1, 2, 3, None):
            view = view_json(state, viewer)
            assert set(bilka) <= set(view) and view["game"] == "kozyol"
            assert view["jack_holder"] is None and view["on_duty"] is None and view["suits"] is None
            others = {card_to_str(c) for s in range(4) if s != viewer for c in mask_cards(state.hands[s])}
            text = json.dumps({k: v for k, v in view.items() if k not in ("trick", "last_trick")})
            assert not any(f'"{card}"' in text for card in others), (viewer, text)
            if viewer is None:
                assert view["hand"] is None and view["legal"] == []
            elif state.current_deal is not None:
                assert set(view["hand"]) == {card_to_str(c) for c in mask_cards(state.hands[viewer])}


def test_a_catch_is_named_in_the_next_deals_view():
    for seed in range(200):
        state, rng = _kozyol(seed), random.Random(seed)  # noqa: S311
        while state.phase != Phase.OVER:
            before = deals_finished(state)
            _step(state, rng)
            if deals_finished(state) > before and state.deals[before].outcome == "catch":
                log = state.deals[before]
                view = view_json(state, 2)
                assert view["last_played"]["outcome"] == "catch"
                assert view["last_played"]["catch"] == SEATS[log.catch]
                assert view["last_played"]["on_duty"] is None
                assert view["last_deal"]["catch"] == SEATS[log.catch]
                return
    pytest.fail("no catch in 200 bot matches")


def test_kozyols_strong_bot_plays_legal_cards_and_its_permanent_trumps_are_the_shamok_queens_and_jacks():
    state = _kozyol(1)
    rng = random.Random(1)  # noqa: S311
    # the strong bot answers the redeal question and plays every card of a deal, legally, from
    # its own view (it searches once at most 24 cards are left)
    def played() -> bool:
        return any(d.outcome not in (None, "redeal") for d in state.deals)
    while not played():
        seat = state.redeal_pending[0] if state.redeal_pending else state.to_move
        options = state.redeal_options(seat) if state.redeal_pending else state.legal_actions()
        action = bot_action("strong", state, seat, rng, budget=0.2)
        assert action in options
        state.apply(action, seat)
    assert next(d for d in state.deals if d.outcome not in (None, "redeal")).plays
    with pytest.raises(ValueError, match="grandmaster"):
        bot_action("grandmaster", state, state.redeal_pending[0] if state.redeal_pending else state.to_move,
                   rng, budget=DEFAULT_BUDGET)
    assert permanent_trumps(state.rules) == ["6C", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD"]
    no_shamok = rules_from_json({"game": "kozyol", "six_of_clubs": False})
    assert permanent_trumps(no_shamok)[0] == "QC"
