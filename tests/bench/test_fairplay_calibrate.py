"""The calibration's figures: the normal fit of the repetitions' Z and its conservative bound, and
the table read back from saved runs."""

from __future__ import annotations

import json
import random
import statistics

from bench.fairplay import calibrate

CUT = 5e-4  # flagged at p < 0.05 / 100


def test_the_normal_fit_matches_the_normal_and_its_bound_is_on_the_safe_side():
    rng = random.Random(1)
    honest = [rng.gauss(1.0, 1.0) for _ in range(40)]
    fit, bound = calibrate.normal_fit(honest, CUT, flagging=False)
    cut = statistics.NormalDist().inv_cdf(CUT)
    assert abs(fit - statistics.NormalDist(1.0, 1.0).cdf(cut)) < 5e-4  # about 4e-5
    assert bound > fit  # an upper bound on a false alarm
    cheat = [rng.gauss(-6.0, 1.0) for _ in range(40)]
    fit, bound = calibrate.normal_fit(cheat, CUT, flagging=True)
    assert 0.98 < fit and bound < fit  # a lower bound on a detection
    # fewer repetitions: a wider interval, a looser bound
    assert calibrate.normal_fit(honest[:5], CUT, flagging=False)[1] > calibrate.normal_fit(
        honest, CUT, flagging=False)[1]
    assert all(x != x for x in calibrate.normal_fit(honest[:2], CUT, flagging=False))  # nan: too few


def test_saved_runs_are_read_back_into_one_table(tmp_path, capsys, monkeypatch):
    def row(rep, z):
        return {"rep": rep, "kind": "beginner", "partner_known": False, "deals": 50, "decisions": 200,
                "informative": 150, "z": z, "p": 0.5, "effect": 0.0, "sd": 10.0, "spread": 120.0,
                "margin": 0.0}
    paths = []
    for seed, zs in ((10, [0.1, -0.5, 0.3]), (20, [-4.0, 0.2])):
        path = tmp_path / f"{seed}.json"
        path.write_text(json.dumps({"seed": seed, "rows": [row(i, z) for i, z in enumerate(zs)]}))
        paths.append(str(path))
    monkeypatch.setattr("sys.argv", ["calibrate", "--report", *paths])
    calibrate.main()
    out = capsys.readouterr().out
    assert "5 repetitions" in out
    plain = next(line for line in out.splitlines() if line.startswith("beginner"))
    assert plain.split()[3:5] == ["5", "1"]  # five repetitions, one flagged (Z = -4 < -3.29)
