"""The solver's search in C gives the Python search's answers (random legal play cut at random
plies, every rule that changes legality, par and every card), and where it is not built — no
compiler, a failed or broken build, a build older than its source — the Python search answers."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest
from engine_helpers import PYTHON, REPO
from test_engine_solver import LEGALITY_RULES, random_deal

import gameplay.engine.solver as solver_module
from gameplay.engine.cards import deck_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.solver import Solver

needs_c = pytest.mark.skipif(solver_module.BUILD != "C",
                             reason="the C search is not built here (python -m gameplay.engine build-native)")


def _same_answers(pos: Position) -> None:
    c = Solver(pos.trump, pos.next_seat)
    py = Solver(pos.trump, pos.next_seat, native=False)
    assert c._c is not None and py._c is None
    assert c.card_values(pos) == py.card_values(pos)
    assert c.value(pos) == py.value(pos)
    # a fresh table, and a guess far from the value, give the same par
    assert Solver(pos.trump, pos.next_seat).value(pos) == py.value(pos)


def _sweep(seed: int, count: int, tricks_left: int) -> None:
    rng = random.Random(seed)
    for i in range(count):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        _, pos = random_deal(rules, rng, rng.randrange(max(0, n - 4 * tricks_left), n))
        _same_answers(pos)


@needs_c
def test_the_c_search_answers_as_the_python_search_on_endings():
    _sweep(31, 96, 4)


@needs_c
def test_the_c_search_answers_as_the_python_search_from_the_middle_of_deals():
    _sweep(37, 32, 6)


@needs_c
@pytest.mark.slow
def test_the_c_search_answers_as_the_python_search_on_many_positions():
    _sweep(41, 320, 6)
    # whole deals from their first cards: seven or eight tricks (the 28- and 32-card decks)
    rng = random.Random(43)
    whole = [r for r in LEGALITY_RULES if r.deck in ("28", "32")]
    for i in range(10):
        _, pos = random_deal(whole[(i * 3) % len(whole)], rng, rng.randrange(0, 4))
        _same_answers(pos)


@needs_c
def test_a_full_table_replaces_entries_and_answers_the_same():
    # 32 entries where a deal needs hundreds: nearly every new entry replaces another
    rng = random.Random(47)
    short = [r for r in LEGALITY_RULES if r.deck in ("28", "32-no-sevens")]
    for i in range(4):
        _, pos = random_deal(short[(i * 5) % len(short)], rng, rng.randrange(4, 8))
        search = solver_module._C.Search(pos.trump, pos.next_seat, capacity=32)
        py = Solver(pos.trump, pos.next_seat, native=False)
        for card, value in py.card_values(pos).items():
            child = pos.play(card)
            assert child.points[0] + search.exact(child.hands, child.leader, child.trick, child.unled_aces,
                                                  -1) == value
        assert search.nodes > 4 * 32


@needs_c
def test_the_c_search_refuses_what_is_not_a_position():
    search = solver_module._C.Search(0, (1, 2, 3, 0))
    with pytest.raises(ValueError):
        search.exact((1 << 40, 0, 0, 0), 0, (), 0, -1)
    with pytest.raises(ValueError):
        search.exact((1, 2, 4, 8), 0, (99,), 0, -1)
    with pytest.raises(ValueError):
        solver_module._C.Search(4, (1, 2, 3, 0))
    with pytest.raises(ValueError):
        solver_module._C.Search(0, (1, 2, 3, 0), capacity=100)


# ---------------------------------------------------------------- without the C build
ANSWERS = """
import json, random, sys
sys.path.insert(0, "tests")
import gameplay.engine.solver as solver_module
from gameplay.engine.deal_position import Position
rng = random.Random(5)
out = []
for trump in range(4):
    cards = [s * 9 + r for s in range(4) for r in range(2, 9)][:24]
    rng.shuffle(cards)
    hands = tuple(sum(1 << c for c in cards[k * 6:(k + 1) * 6]) for k in range(4))
    pos = Position.start(hands, trump, trump, ace_discard_ban=trump % 2 == 0)
    pos = pos.play(min(c for c in range(36) if pos.legal_mask() >> c & 1))
    out.append(sorted(solver_module.Solver(trump).card_values(pos).items()))
print(solver_module.BUILD)
print(json.dumps(out))
"""

BUILD_C = "from gameplay.engine import native; raise SystemExit(native.build_c())"


def _engine_copy(where):
    (where / "gameplay").mkdir(parents=True)
    (where / "gameplay" / "__init__.py").write_text("")
    shutil.copytree(REPO / "gameplay" / "engine", where / "gameplay" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return where / "gameplay" / "engine"


def _answers(where) -> tuple[str, list[object], str]:
    run = subprocess.run([PYTHON, "-c", ANSWERS], cwd=where, capture_output=True, text=True, timeout=300,
                         check=True)
    build, answers = run.stdout.splitlines()
    return build, json.loads(answers), run.stderr


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here")
def test_a_failed_or_broken_or_stale_c_build_falls_back_to_the_python_search(tmp_path):
    engine = _engine_copy(tmp_path)
    no_compiler = {"PATH": "/usr/bin:/bin", "CC": "false"}
    failed = subprocess.run([PYTHON, "-c", BUILD_C], cwd=tmp_path, env=no_compiler, capture_output=True,
                            text=True, timeout=300, check=False)
    assert failed.returncode != 0 and [p.name for p in engine.glob("_dds.*")] == ["_dds.c"]
    pure_build, pure, _ = _answers(tmp_path)
    assert pure_build == "pure Python"

    built = subprocess.run([PYTHON, "-c", BUILD_C], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                           check=False)
    assert built.returncode == 0, built.stderr
    c_build, c, _ = _answers(tmp_path)
    assert c_build == "C" and c == pure

    library = next(engine.glob("_dds.*.so"))
    (engine / "_dds.c").touch()  # an edited source: its old build is not used
    stale_build, stale, warnings = _answers(tmp_path)
    assert stale_build == "pure Python" and stale == pure and "older than _dds.c" in warnings

    library.write_bytes(b"not a library")  # a broken file where the build belongs
    broken_build, broken, _ = _answers(tmp_path)
    assert broken_build == "pure Python" and broken == pure


def _whole_deal(seed: int) -> Position:
    rules = next(r for r in LEGALITY_RULES if r.deck == "32")
    _, pos = random_deal(rules, random.Random(seed), 0)
    return pos


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_c), False])
def test_a_stopped_search_raises_and_leaves_its_table_sound(native):
    pos = _whole_deal(53)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 2  # the second question: after 2,048 positions

    solver = Solver(pos.trump, pos.next_seat, native=native, stop=stop)
    with pytest.raises(TimeoutError):
        solver.card_values(pos)
    assert len(asked) == 2
    # what it stored before it stopped holds: the same solver, not stopped, answers as a fresh one
    solver._stop = None
    if solver._c is not None:
        solver._c.stop = None
    assert solver.card_values(pos) == Solver(pos.trump, pos.next_seat, native=False).card_values(pos)


@needs_c
def test_a_stop_that_raises_passes_its_error_on():
    pos = _whole_deal(59)

    def stop() -> bool:
        raise ZeroDivisionError("the clock broke")

    with pytest.raises(ZeroDivisionError):
        Solver(pos.trump, pos.next_seat, stop=stop).card_values(pos)
    # a stop that never says yes changes nothing
    assert Solver(pos.trump, pos.next_seat, stop=lambda: False).card_values(pos) == \
        Solver(pos.trump, pos.next_seat).card_values(pos)
