"""Optional native build of the hot modules (`state.py` and beside it, the solver) with mypyc; its removal.

The pure-Python package is the reference and works without it; the build only makes
`legal_actions()`/`apply()` faster. `python -m gameplay.engine build-native` compiles
`state.py` in place (a `.so` beside it), with `deal.py` it calls and `match.py`, which
subclasses its class (interpreted code cannot subclass a compiled class), and the double-dummy
solver `solver.py` (`bin/lib.sh` builds them all after the install);
`python -m gameplay.engine clean-native` removes them.
A build older than any engine source is ignored at import (see `__init__.py`), so an edit
can never run against stale compiled code.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
REPO = ENGINE_DIR.parent.parent
NATIVE_MODULES = ("deal", "state", "match", "solver")

_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

tmp, paths = sys.argv[1], sys.argv[2:]
setup(
    name="bilka-engine-native",
    py_modules=[],
    ext_modules=mypycify(paths, target_dir=tmp + "/c", opt_level="3"),
    script_args=["build_ext", "--inplace", "--build-temp", tmp + "/temp", "--build-lib", tmp + "/lib"],
)
"""


def build() -> int:
    """Compile the native modules in place; needs mypy (mypyc), setuptools and a C compiler."""
    clean()
    paths = [f"gameplay/engine/{name}.py" for name in NATIVE_MODULES]
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run([sys.executable, "-c", _SETUP, tmp, *paths], cwd=REPO,  # noqa: S603
                                capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        return result.returncode
    print("built: " + ", ".join(sorted(p.name for p in native_files())))
    return 0


def native_files() -> list[Path]:
    return [p for name in NATIVE_MODULES for p in ENGINE_DIR.glob(f"{name}*.so")] + [
        p for name in NATIVE_MODULES for p in ENGINE_DIR.glob(f"{name}*.pyd")
    ]


def clean() -> int:
    for path in native_files():
        path.unlink()
    return 0
