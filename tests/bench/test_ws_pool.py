"""bench/ws/pool.py: several runs' flood windows pooled into one report."""

from __future__ import annotations

import json

from bench.ws import pool as ws_pool


def dump(path, windows, timeline):
    path.write_text(json.dumps(timeline))
    path.with_name(path.name + ".windows").write_text(json.dumps(windows))
    return path


def test_each_run_keeps_its_own_windows_and_its_pairs_apart(tmp_path):
    # run one: flood first; run two: quiet first, at the same seconds into its run
    one = dump(tmp_path / "one.json", [(30, 60, True), (60, 90, False)],
               [(40, 0.050), (61, 0.070), (70, 0.020), (100, 0.9)])
    two = dump(tmp_path / "two.json", [(30, 60, False), (60, 90, True)],
               [(40, 0.030), (70, 0.080), (91, 0.040)])
    pooled, lines = ws_pool.pool([one, two], linger=2.0)
    assert [w.pair for w in pooled] == [0, 0, 1, 1]
    flooded = sorted(x for w in pooled if w.flood for x in w.latencies)
    quiet = sorted(x for w in pooled if not w.flood for x in w.latencies)
    # 61 s in run one is within the flood's linger; 91 s in run two is past its last window
    assert flooded == [0.050, 0.070, 0.080] and quiet == [0.020, 0.030]
    assert lines[0].endswith("3 moves in windows, 1 outside")
    assert lines[1].endswith("2 moves in windows, 1 outside")


def test_the_pooled_report_is_over_every_runs_pairs(tmp_path, capsys):
    runs = []
    for k in range(3):
        timeline = [(31 + s, 0.010) for s in range(25)] + [(61 + s, 0.030) for s in range(25)]
        runs.append(str(dump(tmp_path / f"r{k}.json", [(30, 60, False), (60, 90, True)], timeline)))
    ws_pool.main(["--flood-linger", "0", *runs])
    out = capsys.readouterr().out
    assert "over 3 pairs of windows" in out
    assert "flood's cost at p99: +20.0 ms" in out
