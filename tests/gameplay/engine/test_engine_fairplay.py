"""The fair-play statistic: its per-decision ranks, and planted players over a few deals — a seat
that sees every hand is flagged, a pair sharing cards is flagged by the plain test and not once
the partner's hand is known, and the beginner and strong bots are not flagged.

The planted cases: 12 deals per player, 10 layouts per decision (tricks 2-8, about 58 decisions
each); the whole file runs in about 15 s on the C solver."""

from __future__ import annotations

import json
import random

import pytest

from bench.fairplay.players import play_deals
from gameplay.engine import fairplay
from gameplay.engine.analysis import start_position
from gameplay.engine.cards import mask_cards
from gameplay.engine.errors import RecordError
from gameplay.engine.puzzles import observation_at
from gameplay.engine.record import read_record

DEALS = 12
SAMPLES = 10


def _verdict(kind: str, *, partner_known: bool = False, margin: float = 0.0) -> fairplay.Verdict:
    records = play_deals(kind, DEALS, seed=1)
    decisions = [d for i, r in enumerate(records)
                 for d in fairplay.review_record(r, seats="N", key=str(i), samples=SAMPLES,
                                                 partner_known=partner_known)]
    return fairplay.combine(decisions, margin=margin)


def test_a_seat_that_sees_every_hand_is_flagged_even_beyond_the_margin() -> None:
    verdict = _verdict("all-seeing")
    assert verdict.informative >= 20
    assert verdict.p < 1e-3
    assert verdict.effect < -2 * fairplay.MARGIN
    beyond = _verdict("all-seeing", margin=fairplay.MARGIN)
    assert verdict.p < beyond.p < 1e-2


def test_a_pair_sharing_cards_is_flagged_unless_the_partner_hand_is_known() -> None:
    assert _verdict("partner-seeing").p < 1e-2
    assert _verdict("partner-seeing", partner_known=True).p > 0.05


@pytest.mark.parametrize("kind", ["beginner", "strong"])
def test_honest_bots_are_not_flagged(kind: str) -> None:
    verdict = _verdict(kind)
    assert verdict.informative >= 20
    assert verdict.p > 0.05


def test_mid_rank_counts_ties_as_half_and_all_ties_tell_nothing() -> None:
    rng = random.Random(0)
    mid, mean, var, rank = fairplay.rank_decision(0, [0, 5, 5, 10], rng)
    assert (mid, mean) == (0.5, 2.0)  # tied with one sample at the bottom
    assert var == pytest.approx(sum((r - 2.0) ** 2 for r in (0.5, 0.5, 2.5, 2.5, 4)) / 5)
    assert rank in (0, 1)
    mid, mean, var, _ = fairplay.rank_decision(3, [3, 3, 3], rng)
    assert var == 0 and mid == mean
    verdict = fairplay.combine([])
    assert (verdict.p, verdict.informative, verdict.effect) == (1.0, 0, 0.0)
    assert fairplay.p_with_margin(-3.0, 10.0, 20.0, 0.0) < fairplay.p_with_margin(-3.0, 10.0, 20.0, 0.5)


def test_the_review_is_deterministic_and_reports_where_each_decision_is() -> None:
    record = play_deals("beginner", 2, seed=5)[0]
    first = fairplay.review_record(record, seats="E", key="k", samples=4)
    assert first == fairplay.review_record(record, seats="E", key="k", samples=4)
    assert first and all(d.seat == "E" and d.ply >= 4 and len(d.sample_losses) == 4 for d in first)
    assert fairplay.review_record(record, seats="E", key="other", samples=4) != first


def test_with_the_partner_known_every_layout_gives_the_partner_his_real_hand() -> None:
    record = play_deals("beginner", 1, seed=2)[0]
    state = read_record(record)
    log = state.deals[-1] if state.deals[-1].plays else state.deals[-2]
    number = state.deals.index(log) + 1
    pos = start_position(state.rules, log)
    for card in log.plays[:9]:
        pos = pos.play(card)
    obs = observation_at(record, number, 9)
    assert obs.seat is not None
    partner = (obs.seat + 2) % 4
    sampler = fairplay.knowledge(obs, pos.hands, partner_known=True).sampler()
    rng = random.Random(1)
    for _ in range(20):
        assert mask_cards(sampler.draw(rng)[partner]) == mask_cards(pos.hands[partner])


def test_an_unknown_seat_is_a_record_error() -> None:
    record = play_deals("beginner", 1, seed=2)[0]
    with pytest.raises(RecordError, match="not a seat"):
        fairplay.review_record(record, seats="X")


def test_the_engine_command_reviews_a_record_file(tmp_path, capsys) -> None:
    from gameplay.engine.__main__ import main

    path = tmp_path / "match.json"
    path.write_text(json.dumps(play_deals("all-seeing", 3, seed=2)[0]))
    assert main(["fairplay", str(path), "--seats", "NE", "--samples", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["seats"]) == {"N", "E"} and out["samples"] == 4
    assert out["seats"]["N"]["decisions"] > 0 and 0 <= out["seats"]["N"]["p"] <= 1
    (tmp_path / "bad.json").write_text("[1]")
    assert main(["fairplay", str(tmp_path / "bad.json")]) == 2
    assert capsys.readouterr().err.strip() == "a record is a JSON object"
