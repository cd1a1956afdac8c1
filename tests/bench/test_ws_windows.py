"""bench/ws/windows.py: how bench.ws.load --flood-windows cuts a run and charges its moves."""

from __future__ import annotations

from bench.ws import windows as ws_windows


def test_whole_pairs_after_the_warm_up_one_flooded_each():
    ws = ws_windows.windows(start=100.0, warmup=30.0, seconds=275.0, width=30.0)
    assert len(ws) == 8  # 245 s after the warm-up hold four whole pairs, not a fifth
    assert ws[0].start == 130.0 and ws[-1].end == 370.0
    for first, second in zip(ws[::2], ws[1::2], strict=True):
        assert first.pair == second.pair and first.end == second.start
        assert first.flood != second.flood
    orders = {w.flood for w in ws[::2]}
    assert orders == {True, False}  # the seeded coin puts the flood first in some pairs, not all


def test_the_flood_spans_join_adjacent_flooded_windows():
    W = ws_windows.Window
    ws = [W(0, 10, False, 0), W(10, 20, True, 0), W(20, 30, True, 1), W(30, 40, False, 1)]
    assert ws_windows.flood_spans(ws) == [(10, 30)]


def test_moves_just_after_a_flood_count_for_it():
    W = ws_windows.Window
    ws = [W(0, 10, True, 0), W(10, 20, False, 0), W(20, 30, False, 1), W(30, 40, True, 1)]
    assert ws_windows.kind_of(ws, 5.0, linger=2.0) is True
    assert ws_windows.kind_of(ws, 11.0, linger=2.0) is True  # its sockets are still being closed
    assert ws_windows.kind_of(ws, 12.5, linger=2.0) is False
    assert ws_windows.kind_of(ws, 21.0, linger=2.0) is False  # after a quiet window: its own
    assert ws_windows.kind_of(ws, 45.0, linger=2.0) is None
    assert ws_windows.assign(ws, [(5.0, 0.1), (11.0, 0.2), (15.0, 0.3), (50.0, 0.4)], 2.0) == 1
    assert ws[0].latencies == [0.1, 0.2] and ws[1].latencies == [0.3]


def test_the_report_charges_the_difference_to_the_flood():
    W = ws_windows.Window
    ws = []
    for pair in range(4):
        quiet, flooded = W(0, 1, False, pair), W(1, 2, True, pair)
        quiet.latencies = [0.010] * 99 + [0.040]
        flooded.latencies = [0.010] * 99 + [0.060 + 0.01 * pair]
        ws += [quiet, flooded]
    lines = ws_windows.report(ws)
    # pooled, 4 of 400 moves are slow in each kind: p99 is the least of the flood's four
    assert "p99 40.0 ms" in lines[1] and "p99 60.0 ms" in lines[2]
    assert lines[-1].startswith("flood's cost at p99: +20.0 ms")
    low, high = (float(x) for x in lines[-1].split("pairs of windows ")[1].split(" ms")[0].split(" .. "))
    assert low == 20.0 and 20.0 < high <= 50.0  # pairs drawn again: their least slow one
