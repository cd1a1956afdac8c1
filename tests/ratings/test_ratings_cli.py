"""``python -m ratings.core predict``: JSON lines in; ratings out; bad lines refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(text: str, module: str = "ratings.core") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, "predict"],
        input=text,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT)},
    )


def line(mid: str, ns: list[str], ew: list[str], winner: str, **extra: object) -> str:
    return json.dumps({"id": mid, "date": "2026-03-01", "ns": ns, "ew": ew, "winner": winner, **extra})


def test_predicts_each_match_before_learning_it_then_lists_the_players() -> None:
    rout = [{"NS": 3, "EW": 0, "outcome": "rout", "on_duty": "EW", "points": [95, 25]}] * 4
    text = (
        "\n".join(
            [
                line("m1", ["p1", "p2"], ["p3", "p4"], "NS", eyes={"NS": 12, "EW": 0}, deals=rout),
                line(
                    "m2",
                    ["p1", "p2"],
                    ["p3", "p4"],
                    "NS",
                    eyes={"NS": 12, "EW": 7},
                    deals=[
                        {"NS": 2, "EW": 0},
                        {"NS": 0, "EW": 0},
                        {"NS": 0, "EW": 2},
                        {"NS": 4, "EW": 0},
                        {"NS": 0, "EW": 5},
                        {"NS": 6, "EW": 0},
                    ],
                    rules={"eggs": "double"},
                ),
                line("m3", ["p1", "p3"], ["p2", "p4"], "EW", eyes={"NS": 5, "EW": 12}),
            ]
        )
        + "\n"
    )
    done = run(text)
    assert done.returncode == 0, done.stderr
    out = [json.loads(x) for x in done.stdout.splitlines()]
    assert out[0] == {"id": "m1", "p_ns": 0.5}
    assert [o["id"] for o in out[:3]] == ["m1", "m2", "m3"]
    assert out[1]["p_ns"] > 0.5  # learnt from m1 before m2 was predicted
    players = {o["player"]: o for o in out[3:]}
    assert set(players) == {"p1", "p2", "p3", "p4"}
    assert players["p1"]["rating"] > 1500 > players["p3"]["rating"]
    assert all(set(o) == {"player", "rating", "deviation"} and o["deviation"] > 0 for o in players.values())


def test_a_bad_line_is_refused_with_its_number_and_exit_2() -> None:
    good = line("m1", ["p1", "p2"], ["p3", "p4"], "NS", eyes={"NS": 12, "EW": 3})
    for bad, words in [
        ("{not json", "not JSON"),
        (line("m2", ["p1", "p2"], ["p3", "p4"], "north"), "winner"),
        (line("m2", ["p1", "p1"], ["p3", "p4"], "NS"), "four different"),
        (
            line("m2", ["p1", "p2"], ["p3", "p4"], "NS", deals=[{"NS": 1, "EW": 0, "outcome": "slam"}]),
            "outcome",
        ),
        (line("m2", ["p1", "p2"], ["p3", "p4"], "NS", colour="red"), "colour"),
        (line("m2", ["p1", "p2"], ["p3", "p4"], "NS", rules={"rout_at": 95}), "rules"),
        (line("m2", ["p1", "p2"], ["p3", "p4"], "EW", eyes={"NS": 12, "EW": 4}), "12 eyes"),
    ]:
        done = run(good + "\n" + bad + "\n")
        assert done.returncode == 2, bad
        assert "line 2" in done.stderr and words in done.stderr, done.stderr
        assert done.stdout == ""


def test_the_model_loads_without_django() -> None:
    code = (
        "import sys, ratings.core.__main__, ratings.core.guard; "
        "sys.exit(any(m.split('.')[0] in ('django', 'clubs', 'config') for m in sys.modules))"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, timeout=60
        ).returncode
        == 0
    )


def test_the_command_by_its_old_name_answers_the_same() -> None:
    """Scripts written when the model lived in the tournaments' app call it by that name."""
    text = line("m1", ["p1", "p2"], ["p3", "p4"], "NS", eyes={"NS": 12, "EW": 3}) + "\n"
    now, before = run(text), run(text, module="tournaments.ratings")
    assert before.returncode == now.returncode == 0, before.stderr
    assert before.stdout == now.stdout and '"p_ns"' in now.stdout
