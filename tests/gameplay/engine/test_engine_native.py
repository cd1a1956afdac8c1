"""The optional mypyc build compiles, is used, and plays exactly the games the pure package plays."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess

import pytest
from engine_helpers import PYTHON, REPO

GAMES = """
import json, random
import gameplay.engine.state as state_module
from gameplay.engine import MatchState, Rules, record_to_json
out = []
for seed in range(15):
    rng = random.Random(seed)
    state = MatchState(Rules(ace_discard_ban=seed % 2 == 0), seed=seed)
    while state.winner is None:
        state.apply(rng.choice(state.legal_actions()))
    out.append(record_to_json(state))
print(state_module.__file__.endswith(".py"))
print(json.dumps(out))
"""


@pytest.mark.slow
def test_native_build_plays_the_same_games_as_the_pure_package(tmp_path):
    if shutil.which("cc") is None or importlib.util.find_spec("mypyc") is None:
        pytest.skip("no C compiler or no mypyc here")
    (tmp_path / "gameplay").mkdir()
    (tmp_path / "gameplay" / "__init__.py").write_text("")
    shutil.copytree(REPO / "gameplay" / "engine", tmp_path / "gameplay" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    build = subprocess.run([PYTHON, "-m", "gameplay.engine", "build-native"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stderr
    native = subprocess.run([PYTHON, "-c", GAMES], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, check=True).stdout.splitlines()
    pure = subprocess.run([PYTHON, "-c", GAMES], cwd=REPO, capture_output=True, text=True,
                          timeout=120, check=True).stdout.splitlines()
    assert native[0] == "False" and pure[0] == "True"
    assert native[1] == pure[1]
