"""The optional mypyc build compiles, is used, plays exactly the games the pure package plays, and
its solver gives the pure solver's answers."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess

import pytest
from engine_helpers import PYTHON, REPO

GAMES = """
import json, random
import gameplay.engine.state as state_module
import gameplay.engine.solver as solver_module
from gameplay.engine import MatchState, Rules, record_to_json
from gameplay.engine.analysis import analyse_log
out = []
for seed in range(15):
    rng = random.Random(seed)
    rules = Rules(ace_discard_ban=seed % 2 == 0, deck="28" if seed % 3 else "32")
    state = MatchState(rules, seed=seed)
    while state.winner is None:
        state.apply(rng.choice(state.legal_actions()))
    out.append(record_to_json(state))
    if seed < 4:
        out.append(analyse_log(rules, next(d for d in state.deals if d.redeal is None)))
print(state_module.__file__.endswith(".py"), solver_module.__file__.endswith(".py"))
print(json.dumps(out))
"""


@pytest.mark.slow
def _copy_engine(where):
    (where / "gameplay").mkdir(parents=True)
    (where / "gameplay" / "__init__.py").write_text("")
    shutil.copytree(REPO / "gameplay" / "engine", where / "gameplay" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))


def test_native_build_plays_the_same_games_as_the_pure_package(tmp_path):
    if shutil.which("cc") is None or importlib.util.find_spec("mypyc") is None:
        pytest.skip("no C compiler or no mypyc here")
    # Both copies leave out any build of the checkout (bin/lib.sh builds one there).
    _copy_engine(tmp_path / "native")
    _copy_engine(tmp_path / "pure")
    build = subprocess.run([PYTHON, "-m", "gameplay.engine", "build-native"], cwd=tmp_path / "native",
                           capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stderr
    native = subprocess.run([PYTHON, "-c", GAMES], cwd=tmp_path / "native", capture_output=True, text=True,
                            timeout=300, check=True).stdout.splitlines()
    pure = subprocess.run([PYTHON, "-c", GAMES], cwd=tmp_path / "pure", capture_output=True, text=True,
                          timeout=600, check=True).stdout.splitlines()
    assert native[0] == "False False" and pure[0] == "True True"
    assert native[1] == pure[1]
    # The command from another folder, the package found on the path without the copy's root: the
    # compiled modules' shared runtime is inside the package, not at the root beside it.
    assert not list((tmp_path / "native").glob("*__mypyc*"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "gameplay").symlink_to(tmp_path / "native" / "gameplay")
    (tmp_path / "record.json").write_text(json.loads(native[1])[0])
    env = {**os.environ, "PYTHONPATH": str(elsewhere)}
    scored = subprocess.run([PYTHON, "-m", "gameplay.engine", "score", str(tmp_path / "record.json")],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert scored.returncode == 0, scored.stderr
