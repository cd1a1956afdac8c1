"""The model learns its own parameters from the matches it is given, and only from earlier ones."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from statistics import NormalDist

import pytest

from bench.ratings import sim
from bench.ratings.peers import model_match
from bench.ratings.sim import DUTY, NOISE, POINTS, play_match, simulate
from ratings.core.fitting import (
    OPEN,
    _cell_p,
    fit_shape,
    fit_temperature,
    params_from_json,
    params_to_json,
)
from ratings.core.learner import Learner
from ratings.core.match_odds import (
    DealShape,
    deal_odds,
    final_score_exact,
    match_probability_exact,
)
from ratings.core.model import EW, NS, Match, ModelParams, RatingState

ROOT = Path(__file__).resolve().parents[2]


def _stream(n: int, seed: int = 3, points: bool = True, diff_sd: float = 0.5) -> list[Match]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        diff = rng.gauss(0.0, diff_sd)
        winner, eyes, deals = play_match(rng, diff)
        sim = type("S", (), {"ns": ("a", "b"), "ew": ("c", "d"), "winner": winner, "deals": deals,
                             "day": float(i), "eyes": eyes})
        out.append(model_match(sim, "points" if points else "eyes"))  # type: ignore[arg-type]
    return out


def test_the_deal_shape_is_found_in_the_deals_with_points() -> None:
    # The simulator's own constants: card points a unit of luck, the duty edge, the spread of d.
    fit = fit_shape(_stream(400), ModelParams(points_scale=40.0, shape=DealShape(duty_edge=0.1)))
    assert fit is not None
    assert fit.points_scale == pytest.approx(NOISE, rel=0.1)
    assert fit.shape.duty_edge == pytest.approx(DUTY * POINTS / NOISE, abs=0.1)
    assert fit.tau == pytest.approx(0.5, abs=0.12)


def test_the_deal_shape_is_found_from_outcomes_without_points() -> None:
    stream = [replace(m, deals=tuple(replace(d, points=None) for d in m.deals or ())) for m in _stream(400)]
    fit = fit_shape(stream, ModelParams(shape=DealShape(duty_edge=0.1, rout_cut=3.0)))
    assert fit is not None
    assert fit.shape.duty_edge == pytest.approx(DUTY * POINTS / NOISE, abs=0.15)
    assert fit.shape.rout_cut == pytest.approx(29.5 / NOISE, abs=0.2)  # a rout is 90 points of 120
    assert fit.tau == pytest.approx(0.5, abs=0.15)


@pytest.mark.parametrize("duty", [0.2, 0.9])
def test_eyes_alone_find_a_duty_edge_unlike_the_default(monkeypatch: pytest.MonkeyPatch, duty: float) -> None:
    # Eyes alone leave the pair on duty open on every deal worth two (a plain win against the pair
    # on duty or a rout on duty). The shape is still the likeliest one for every deal read as it
    # was recorded, the open ones as either (d integrated out at the spread the parameters hold);
    # before, the default edge (0.55) stood whatever it was.
    monkeypatch.setattr(sim, "DUTY", duty)
    stream = _stream(400, seed=5, points=False)
    assert sum(d.kind == "win-or-rout" and d.on_duty is None for m in stream for d in m.deals or ()) > 1000
    fit = fit_shape(stream, ModelParams())
    assert fit is not None
    assert fit.shape.duty_edge == pytest.approx(duty * POINTS / NOISE, abs=0.15)
    assert fit.shape.rout_cut == pytest.approx(29.5 / NOISE, abs=0.15)  # a rout is 90 points of 120
    assert not fit.spread_from_deals  # the final scores give it (below), read with this shape


def test_a_refit_that_moves_the_shape_less_than_eyes_can_tell_keeps_the_shape_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each new shape costs its tables (about a second); eyes tell the edge to a tenth at best.
    monkeypatch.setattr(sim, "DUTY", 0.9)
    stream = _stream(400, seed=5, points=False)
    fit = fit_shape(stream, ModelParams())
    assert fit is not None
    held = replace(fit.shape, duty_edge=fit.shape.duty_edge + 0.05)
    again = fit_shape(stream, replace(ModelParams(), shape=held))
    assert again is not None and again.shape == held
    moved = replace(fit.shape, duty_edge=fit.shape.duty_edge + 0.3)
    again = fit_shape(stream, replace(ModelParams(), shape=moved))
    assert again is not None and again.shape.duty_edge == pytest.approx(fit.shape.duty_edge, abs=0.1)


def test_open_deals_are_read_as_either_of_their_two_outcomes() -> None:
    # A deal worth two eyes with the pair on duty open is one of two outcomes, each on its duty.
    shape = DealShape()
    e, r, lucy, k = shape.duty_edge, shape.rout_cut, shape.lucy_cut, 1.2
    n = NormalDist(0.0, k)
    off_plain = n.cdf(r + e) - n.cdf(e)  # NS wins plainly with EW on duty (NS's margin N(-e, k^2))
    on_rout = n.cdf(lucy - e) - n.cdf(r - e)  # NS routs on duty (N(e, k^2))
    p = _cell_p((0, (OPEN, NS)), e, r, lucy, 0.0, k)
    assert p == pytest.approx(0.5 * (off_plain + on_rout))
    assert _cell_p((0, (OPEN, EW)), e, r, lucy, 0.0, k) == pytest.approx(p)  # the mirror image


def test_too_few_deals_keep_the_defaults() -> None:
    assert fit_shape(_stream(5), ModelParams()) is None


def test_the_final_score_distribution_adds_up_to_the_match_probability() -> None:
    odds = deal_odds(0.4, DealShape())
    scores = final_score_exact(odds)
    assert sum(scores) == pytest.approx(1.0, abs=1e-9)
    assert sum(scores[:12]) == pytest.approx(match_probability_exact(odds), abs=1e-9)


def test_a_final_score_teaches_more_when_it_was_one_sided() -> None:
    moves = []
    for eyes in ((12, 0), (12, 11)):
        state = RatingState()
        state.update(Match(("a", "b"), ("c", "d"), "NS", None, 1.0, eyes=eyes))
        moves.append(state.rating("a").mu)
    assert moves[0] > moves[1] > 0


def test_calibration_undoes_overconfidence() -> None:
    rng = random.Random(1)
    preds = []
    for _ in range(3000):
        p = rng.uniform(0.05, 0.95)
        # The truth is half as far from even as the prediction says.
        q = 0.5 + (p - 0.5) / 2
        preds.append((p, 1 if rng.random() < q else 0))
    assert fit_temperature(preds) < 0.8


def test_parameters_survive_being_stored() -> None:
    params = ModelParams(drift=0.0002, shape=DealShape(duty_edge=0.4), calibration=0.9)
    assert params_from_json(json.loads(json.dumps(params_to_json(params)))) == params
    assert params_from_json({"drift": 0.1, "from_a_later_release": 1}).drift == 0.1


def test_the_learner_refits_and_each_prediction_uses_earlier_matches_only() -> None:
    stream = simulate("rotating", 7, players=40, per_player=30, drift=0.02)
    matches = [model_match(m) for m in stream.matches]
    first = Learner()
    ps = []
    for m in matches:
        ps.append(first.predict(m))
        first.update(m)
    assert first.params != ModelParams()  # it did learn its own
    changed = matches[:200] + [
        Match(m.ew, m.ns, m.winner, m.deals, m.day) for m in matches[200:]
    ]
    again = Learner()
    qs = []
    for m in changed:
        qs.append(again.predict(m))
        again.update(m)
    assert qs[:200] == ps[:200]
    assert qs[200:] != ps[200:]


def test_the_command_learns_online() -> None:
    stream = simulate("rotating", 8, players=24, per_player=20)
    lines = [json.dumps({"id": i, "date": "2026-03-01", "ns": list(m.ns), "ew": list(m.ew),
                         "winner": m.winner, "eyes": {"NS": m.eyes[0], "EW": m.eyes[1]}, "deals": m.deals})
             for i, m in enumerate(stream.matches)]

    def run(text: str) -> list[str]:
        out = subprocess.run([sys.executable, "-m", "tournaments.ratings", "predict"], input=text, cwd=ROOT,
                             capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, out.stderr
        return [ln for ln in out.stdout.splitlines() if '"p_ns"' in ln]

    whole = run("\n".join(lines))
    later = [json.loads(ln) for ln in lines[90:]]
    for obj in later:
        obj["winner"] = "EW" if obj["winner"] == "NS" else "NS"
        obj.pop("deals")
        obj.pop("eyes")
    changed = run("\n".join(lines[:90] + [json.dumps(o) for o in later]))
    assert changed[:90] == whole[:90]
    assert changed[90:] != whole[90:]


@pytest.mark.parametrize("info", ["score", "eyes"])
@pytest.mark.parametrize("spread", [0.1, 0.5])
def test_the_final_scores_give_the_spread_when_the_deals_cannot(info: str, spread: float) -> None:
    """Final scores only: no deal says how far apart the players are, so the final scores' marginal
    likelihood does (``fit_spread``); eyes alone, their pair on duty often open: the deals' (``fit_shape``).
    Either way a new player's spread lands near the field's true spread, not on the default (0.3)."""
    from ratings.core.fitting import fit_spread
    from ratings.core.learner import fit_params

    stream = simulate("rotating", 11, players=60, per_player=60, spread=spread, drift=0.0)
    matches = [model_match(m, info) for m in stream.matches]
    default = ModelParams()
    if info == "score":
        assert fit_shape(matches, default) is None
    params, _ = fit_params(matches, default)
    assert params.initial_sd == pytest.approx(spread, rel=0.35) and params.max_sd == params.initial_sd
    # provisional after the same share of a newcomer's deviation as with the defaults
    assert params.provisional_deviation / params.initial_sd == pytest.approx(
        default.provisional_deviation / default.initial_sd
    )
    # a handful of final scores say too little: the default stands (the deals of as many matches,
    # eyes alone, are 300 and more: they say it, as card points do)
    assert fit_spread(matches[:100], default) is None
    if info == "score":
        assert fit_params(matches[:100], default)[0].initial_sd == default.initial_sd


def test_a_side_of_one_takes_the_spread_of_two_players() -> None:
    """Four players and two pair terms make a match's spread (``tau^2 = 4 sd^2 + 2 pair_sd^2``); in
    Bilka for two a side is one player with no pair term (``tau^2 = 2 sd^2``)."""
    from ratings.core.fitting import with_tau

    base = ModelParams()
    four = with_tau(base, 0.6)
    assert 4 * four.initial_sd**2 + 2 * base.pair_sd**2 == pytest.approx(0.36)
    assert 2 * with_tau(base, 0.6, side=1).initial_sd ** 2 == pytest.approx(0.36)


def test_a_larger_pair_term_takes_its_share_of_the_fitted_spread() -> None:
    """The matches' spread ``tau`` is what the deals gave; when the replayed log-loss prefers a
    larger pair term, a new player's spread gives it room (``4 sd^2 + 2 pair_sd^2 = tau^2``) instead
    of the two adding up to a wider field than the data showed."""
    from ratings.core.learner import fit_params

    stream = simulate("mix", 5, players=60, per_player=60, chemistry=0.3, drift=0.0)
    matches = [model_match(m, "points") for m in stream.matches]
    default = ModelParams()
    shape = fit_shape(matches, default)
    assert shape is not None
    params, _ = fit_params(matches, default)
    assert params.pair_sd > default.pair_sd  # the chemistry is seen
    assert 4 * params.initial_sd**2 + 2 * params.pair_sd**2 == pytest.approx(shape.tau**2)
