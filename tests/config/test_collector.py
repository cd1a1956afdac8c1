"""config/collector.py: the garbage collector's settings, in a process of their own (settling
freezes the collector of the process that calls it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import gc; from config import collector; "
         "print(collector.settle({args}), gc.get_threshold()[0], gc.get_freeze_count() > 0)")


def settle_in_a_child(args: str, threshold0: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "BILKA_GC_THRESHOLD0"}
    if threshold0 is not None:
        env["BILKA_GC_THRESHOLD0"] = threshold0
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def test_the_setting_picks_the_young_threshold_and_zero_keeps_pythons_defaults():
    assert settle_in_a_child("", None) == "True 50000 True"
    assert settle_in_a_child("", "20000") == "True 20000 True"
    assert settle_in_a_child("", "0") == "False 700 False"
    assert settle_in_a_child("raise_young=False", None) == "True 700 True"


def test_a_threshold_given_wins_over_the_setting():
    """bench/ws/load.py's load generator keeps the default whatever the server is given."""
    assert settle_in_a_child("threshold0=50000", "0") == "True 50000 True"
    assert settle_in_a_child("threshold0=50000", "10000") == "True 50000 True"
