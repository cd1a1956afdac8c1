"""The rating harness's generators make what their shapes claim; its split keeps tuning and report apart."""

from __future__ import annotations

import dataclasses
import statistics

import pytest

from bench.ratings import botstreams
from bench.ratings.harness import (
    HELD_OUT,
    HELD_OUT_SEEDS,
    SHAPES,
    TUNING,
    TUNING_SEEDS,
    Shape,
    bot_stream,
    run,
    spearman,
    stream_of,
)
from bench.ratings.peers import model_match
from bench.ratings.sim import simulate

SMALL = {"players": 24, "per_player": 24}


def test_the_split_is_disjoint_in_shapes_and_in_seeds() -> None:
    tuning = {s.name for s in TUNING}
    held = {s.name for s in HELD_OUT}
    assert tuning and held and not tuning & held
    assert not set(TUNING_SEEDS) & set(HELD_OUT_SEEDS)
    assert len(HELD_OUT_SEEDS) == 20
    # held out in shape, not only in name: each differs from every tuning shape in how it is made or seen
    for h in HELD_OUT:
        for t in TUNING:
            assert dataclasses.replace(h, name=t.name) != t, h.name
    assert {s.info for s in HELD_OUT} >= {"eyes", "score"} and {s.field for s in HELD_OUT} >= {
        "bots",
        "league",
    }


@pytest.mark.parametrize(
    ("info", "deals", "points"), [("points", True, True), ("eyes", True, False), ("score", False, False)]
)
def test_the_model_sees_only_what_the_shape_keeps(info: str, deals: bool, points: bool) -> None:
    shape = Shape("t", "league", info=info, **SMALL)
    stream = stream_of(shape, 0)
    for m in stream.matches[:20]:
        seen = model_match(m, shape.info)
        assert (seen.deals is not None) == deals
        if deals:
            assert seen.deals and all(
                (d.points is not None) == points for d in seen.deals if d.kind != "lucy"
            )
            if not points:  # each deal's eyes only: no pair on duty where the eyes leave it open
                assert any(d.on_duty is None for d in seen.deals)


def test_spread_scales_the_hidden_strengths_and_no_drift_keeps_them() -> None:
    half = simulate("rotating", 3, spread=0.125, drift=0.0, **SMALL)
    double = simulate("rotating", 3, spread=0.5, drift=0.0, **SMALL)
    for a, b in zip(half.matches, double.matches, strict=True):
        assert a.ns == b.ns and a.ew == b.ew
        assert b.strengths == pytest.approx(tuple(4 * x for x in a.strengths))
    seen: dict[str, float] = {}
    for m in half.matches:
        for p, s in zip((*m.ns, *m.ew), m.strengths, strict=True):
            assert seen.setdefault(p, s) == s
    fast = simulate("rotating", 3, drift=0.02, **SMALL)
    assert any(a.strengths != b.strengths for a, b in zip(half.matches, fast.matches, strict=True))


def test_chemistry_is_a_fixed_pairs_own_term() -> None:
    none = simulate("league", 5, chemistry=0.0, drift=0.0, players=40, per_player=130)
    strong = simulate("league", 5, chemistry=0.25, drift=0.0, players=40, per_player=130)
    assert none.truth_at_60 and none.truth_at_60.keys() == strong.truth_at_60.keys()
    terms = [strong.truth_at_60[u] - none.truth_at_60[u] for u in none.truth_at_60]
    assert 0.1 < statistics.pstdev(terms) < 0.5


def test_bot_streams_are_kept_for_twenty_seeds_and_read_as_the_command_reads_them() -> None:
    files = sorted(botstreams.DATA.glob("bots-*.jsonl.gz"))
    assert len(files) == 20 == len(botstreams.SEEDS)
    assert all(f.stat().st_size < 1_000_000 for f in files)
    header = botstreams.load(100)[0]
    q, g = header["players"], header["strength"]
    assert len(q) == botstreams.PLAYERS
    assert spearman([q[p] for p in q], [g[p] for p in q]) < -0.99  # noisier bots are weaker
    stream = bot_stream(119)
    assert len(stream.matches) == botstreams.PLAYERS * botstreams.PER_PLAYER // 4
    assert all(0.0 < m.p_true < 1.0 for m in stream.matches)
    assert len(stream.truth_at_60) > botstreams.PLAYERS // 2
    for m in stream.matches[:50]:
        seen = model_match(m, "points")
        assert seen.deals and all(d.points is not None for d in seen.deals if d.kind != "lucy")
    assert SHAPES["bots"] in HELD_OUT


def test_the_harness_runs_a_shape_and_the_oracle_is_below_the_model() -> None:
    result = run((Shape("t", "rotating", **SMALL), 0, "Bilka", None))
    assert 0.0 < result["oracle_ll"] < result["ll"] < 0.7
    assert len(result["ps"]) == 24 * 24 // 4 // 2


def test_a_flipped_result_is_the_same_match_won_by_the_other_pair() -> None:
    from bench.ratings.stability import mirror

    for m in simulate("rotating", 1, **SMALL).matches[:30]:
        flipped = mirror(m)
        assert flipped.winner != m.winner and dataclasses.replace(mirror(flipped), p_true=m.p_true) == m
        seen = model_match(flipped, "points")  # the predict command's reader accepts it
        assert seen.deals is not None and len(seen.deals) == len(m.deals)
        assert sum(d.winner == flipped.winner for d in seen.deals) > 0
