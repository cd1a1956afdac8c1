"""Kozyol's score sheet (`kozyol_sheets.py`) scores a deal as the engine does card by card: matches
played by the beginner bots, written down as a sheet would (points, the catching pair, the pair that
took every trick), give the same eyes deal by deal and the same final score; what no play can give is
refused."""

from __future__ import annotations

import random

import pytest

from gameplay.engine import variant_bot
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_sheets import KozyolDealSummary, score_kozyol_sheet
from gameplay.engine.sheets import InvalidScore
from gameplay.engine.state import Phase


def _sheet_of(state: KozyolMatchState) -> list[KozyolDealSummary]:
    """Each played deal as a person writes it on the sheet (redeals are not written)."""
    deals = []
    for log in state.deals:
        if log.outcome in (None, "redeal"):
            continue
        if log.catch is not None:
            deals.append(KozyolDealSummary(points=(0, 0), catch=log.catch & 1))
            continue
        winners = {w & 1 for w in log.trick_winners}
        every = winners.pop() if len(winners) == 1 else None
        deals.append(KozyolDealSummary(points=log.points, all_tricks=every))
    return deals


@pytest.mark.parametrize("rules", [
    KozyolRules(), KozyolRules(eggs="plus_four", lucy="zero"), KozyolRules(first_catch_wins=True, deck="32"),
    KozyolRules(lucy_by="points", rout_at=91, first_deal_two_eyes=True),
], ids=["default", "plus_four-zero", "first_catch_wins", "points-91-two_eyes"])
def test_the_sheet_gives_the_engines_eyes(rules: KozyolRules) -> None:
    seen = set()
    for seed in range(40):
        state = KozyolMatchState(rules, seed=seed)
        rng = random.Random(seed)  # noqa: S311 - test players
        while state.phase != Phase.OVER:
            if state.phase == Phase.REDEAL:
                state.end_redeal_phase()
                continue
            state.apply(variant_bot.choose_action(state.observation(state.to_move), rng))
        played = [d for d in state.deals if d.outcome not in (None, "redeal")]
        if any(d.eyes != (0, 0) for d in state.deals if d.outcome == "redeal"):
            continue  # a third redeal's eye is not on a sheet of played deals
        sheet = score_kozyol_sheet(_sheet_of(state), rules)
        assert [line.result.outcome for line in sheet.lines] == [d.outcome for d in played], seed
        assert [line.result.eyes for line in sheet.lines] == [d.eyes for d in played], seed
        assert sheet.score == state.capped_score and sheet.winner == state.winner, seed
        seen |= {d.outcome for d in played}
    assert {"win", "rout", "catch"} <= seen


def test_what_no_play_gives_is_refused() -> None:
    rules = KozyolRules()
    for deal, code in [
        (KozyolDealSummary(points=(61, 58)), "points_sum"),
        (KozyolDealSummary(points=(119, 1)), "points_impossible"),
        (KozyolDealSummary(points=(100, 20), all_tricks=0), "all_points"),
        (KozyolDealSummary(points=(0, 0), catch=2), "catch_pair"),
        (KozyolDealSummary(points=(0, 0), catch=1, all_tricks=1), "catch_all"),
    ]:
        with pytest.raises(InvalidScore) as refused:
            score_kozyol_sheet([deal], rules)
        assert refused.value.code == code and refused.value.params["deal"] == 1
    won = [KozyolDealSummary(points=(0, 0), catch=0)] * 3  # 4 + 4 + 4: the match is won
    with pytest.raises(InvalidScore) as late:
        score_kozyol_sheet([*won, KozyolDealSummary(points=(70, 50))], rules)
    assert late.value.code == "after_win"
    # a catch's points are not counted: the catchers open 4 whatever was written
    sheet = score_kozyol_sheet([KozyolDealSummary(points=(0, 0), catch=1)], rules)
    assert sheet.lines[0].result.eyes == (0, 4) and sheet.lines[0].deal.jack_holder is None
