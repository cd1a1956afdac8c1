"""The ceiling of ``bench.ratings.ceiling`` (a full-covariance Kalman filter given the generator's
own parameters) stands between what a peer predicts and what the oracle knows, and the model does
not beat it by more than noise on a tuning stream with card points (the case it is exact for)."""

from __future__ import annotations

from bench.ratings import ceiling, harness


def test_the_ceiling_lies_between_a_peer_and_the_oracle():
    shape = harness.SHAPES["rotating"]
    ll, oracle = ceiling.kalman(shape, 0)
    peer = harness.run((shape, 0, "TrueSkill", None))["ll"]
    model = harness.run((shape, 0, harness.MODEL, None))["ll"]
    assert oracle < ll < peer
    assert model > ll - 0.002
