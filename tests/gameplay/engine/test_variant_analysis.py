"""The replay analysis of Kozyol and Bilka-for-two records: Bilka's bilka-analysis/1 shape, every
card analysed from where the solver is quick, each card's loss against best play, and a redealt
deal skipped."""

from __future__ import annotations

import random

import pytest

from gameplay.engine import variant_bot
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.errors import RecordError
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.match import MatchState
from gameplay.engine.record import write_record
from gameplay.engine.record_games import write_game_record
from gameplay.engine.state import Phase
from gameplay.engine.variant_analysis import (
    AFTER_TRICK_FROM_CARDS,
    KOZYOL_FROM_CARDS,
    analyse_game_record,
)


def played(state: KozyolMatchState | Bilka2MatchState, deals: int, seed: int) -> dict[str, object]:
    """The record of `deals` deals played by the beginner at every seat."""
    rng = random.Random(seed)
    while len([d for d in state.deals if d.outcome is not None]) < deals and state.winner is None:
        if state.phase == Phase.REDEAL:
            state.end_redeal_phase()  # type: ignore[union-attr]
            continue
        state.apply(variant_bot.choose_action(state.observation(state.to_move), rng))  # type: ignore[arg-type]
    return write_game_record(state)


def check_cards(deal: dict[str, object], sides: tuple[str, str], first: int, plays: int) -> None:
    cards = deal["cards"]
    assert isinstance(cards, list)
    assert [c["ply"] for c in cards] == list(range(first, plays))
    assert deal["from_ply"] == first
    if cards:
        assert cards[0]["par"] == deal["par"]
    for c in cards:
        assert c["lost"] >= 0
        assert (c["lost"] == 0) == (c["card"] in c["best"])
        assert sum(c["par"][s] for s in sides) == 120


@pytest.mark.parametrize("deck", ["36", "32"])
def test_kozyol_deals_are_analysed_from_the_last_cards(deck: str) -> None:
    state = KozyolMatchState(KozyolRules(deck=deck, redeal_below=0), seed=5)
    result = analyse_game_record(played(state, 2, 5))
    assert result["format"] == "bilka-analysis/1" and result["game"] == "kozyol"
    assert [d["deal"] for d in result["deals"]] == [1, 2]
    for deal, log in zip(result["deals"], state.deals, strict=False):
        total = sum(h.bit_count() for h in log.hands)
        check_cards(deal, ("NS", "EW"), max(0, total - KOZYOL_FROM_CARDS), len(log.plays))
        assert deal["catch"] == (None if log.catch is None else "NESW"[log.catch])


def test_bilka2_halves_is_analysed_from_the_first_card_and_after_trick_from_twenty_cards() -> None:
    state = Bilka2MatchState(Bilka2Rules(), seed=3)
    result = analyse_game_record(played(state, 1, 3))
    assert result["game"] == "bilka-2"
    check_cards(result["deals"][0], ("N", "S"), 0, len(state.deals[0].plays))
    state = Bilka2MatchState(Bilka2Rules(stock="after_trick"), seed=3)
    result = analyse_game_record(played(state, 1, 3))
    # 32 cards, 2 drawn per trick while the stock lasts: 20 cards are left after 6 tricks
    assert AFTER_TRICK_FROM_CARDS == 20
    check_cards(result["deals"][0], ("N", "S"), 12, len(state.deals[0].plays))


def test_a_bilka_record_is_refused() -> None:
    with pytest.raises(RecordError):
        analyse_game_record(write_record(MatchState(seed=1)))
