"""The stability bench's calibration: its share within one deviation is what a calibrated model
gives, and it reads a harness shape's own streams as that shape lets the systems see them."""

import random

from bench.ratings.harness import Shape
from bench.ratings.stability import calibration, coverage


def test_coverage_of_calibrated_rows_is_about_68_and_95_percent():
    rng = random.Random(3)
    rows = []
    for _ in range(6000):
        r, dev = rng.gauss(1500, 80), rng.uniform(20, 90)
        rows.append((r, dev, (r - 1500 + rng.gauss(0, dev)) / 400))  # truth on a hidden scale
    one, two, scale = coverage(rows)
    assert 0.65 < one < 0.71 and 0.93 < two < 0.97 and abs(scale - 400) < 20
    wide = [(r, 2 * dev, t) for r, dev, t in rows]
    assert coverage(wide)[0] > 0.9  # deviations twice too wide cover far more


def test_calibration_reads_a_harness_shape_with_its_own_information(capsys):
    calibration([7], [Shape("small-score-league", "league", info="score", players=24, per_player=40)])
    out = capsys.readouterr().out
    assert "small-score-league" in out and "fixed pairs" in out and "next match" in out
