"""Optional native build of the hot modules (`state.py` and beside it, the solver) with mypyc, and
of the solver's search in C (`_dds.c`); their removal.

The pure-Python package is the reference and works without it; the build only makes
`legal_actions()`/`apply()` faster. `python -m gameplay.engine build-native` compiles
`state.py` in place (a `.so` beside it), with `deal.py` it calls and `match.py`, which
subclasses its class (interpreted code cannot subclass a compiled class), and the double-dummy
solver `solver.py`, then the C search `_dds.c` as an extension module through setuptools
(`bin/lib.sh` builds them all after the install); either build may fail alone and leave the
other in place, the Python it replaces then runs;
`python -m gameplay.engine clean-native` removes them.
A build older than any engine source is ignored at import (see `__init__.py`), so an edit
can never run against stale compiled code.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

ENGINE_DIR = Path(__file__).resolve().parent
REPO = ENGINE_DIR.parent.parent
NATIVE_MODULES = ("deal", "state", "match", "solver")
#: Modules written in C (`NAME.c` beside the Python that uses them when they are built).
C_MODULES = ("_dds",)
#: The compiled modules' shared runtime, inside the package (`gameplay/engine/native_rt__mypyc.*.so`):
#: mypyc's default name is a hash at the top level, found only from the project's root, so the
#: engine's command failed anywhere else.
SHARED_GROUP = "gameplay.engine.native_rt"

_SETUP = """
import sys
from mypyc.build import mypycify
from setuptools import setup

tmp, GROUP, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
setup(
    name="bilka-engine-native",
    py_modules=[],
    ext_modules=mypycify(paths, target_dir=tmp + "/c", opt_level="3", group_name=GROUP),
    script_args=["build_ext", "--inplace", "--build-temp", tmp + "/temp", "--build-lib", tmp + "/lib"],
)
"""

_SETUP_C = """
import sys
from setuptools import Extension, setup

tmp, names = sys.argv[1], sys.argv[2:]
setup(
    name="bilka-engine-c",
    py_modules=[],
    ext_modules=[Extension("gameplay.engine." + name, ["gameplay/engine/" + name + ".c"],
                           extra_compile_args=["-O3"]) for name in names],
    script_args=["build_ext", "--inplace", "--build-temp", tmp + "/temp", "--build-lib", tmp + "/lib"],
)
"""


def build() -> int:
    """Compile the native modules in place; needs mypy (mypyc), setuptools and a C compiler.
    Non-zero if either build failed (what did build stays)."""
    clean()
    status = _run_setup(_SETUP, [SHARED_GROUP, *(f"gameplay/engine/{name}.py" for name in NATIVE_MODULES)])
    status = build_c() or status
    print("built: " + ", ".join(sorted(p.name for p in native_files())))
    return status


def build_c() -> int:
    """Compile the C modules alone (setuptools and the compiler it finds, `CC` if set)."""
    return _run_setup(_SETUP_C, list(C_MODULES))


def _run_setup(script: str, args: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run([sys.executable, "-c", script, tmp, *args], cwd=REPO,  # noqa: S603
                                capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
    return result.returncode


def native_files() -> list[Path]:
    names = (*NATIVE_MODULES, *C_MODULES, SHARED_GROUP.rsplit(".", 1)[1] + "__mypyc")
    return [p for name in names for p in ENGINE_DIR.glob(f"{name}.*.so")] + [
        p for name in names for p in ENGINE_DIR.glob(f"{name}.*.pyd")
    ]


def clean() -> int:
    """Remove the build, and the shared runtime earlier builds left at the project's root."""
    for path in [*native_files(), *REPO.glob("*__mypyc.*.so")]:
        path.unlink()
    return 0


def load_c(name: str = "gameplay.engine._dds") -> Any:
    """The solver's C search if it is built and not older than `_dds.c`, else None (the Python
    search runs): an edit of the C source never runs against its stale build."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    built = getattr(module, "__file__", None) or ""
    source = os.path.join(os.path.dirname(built), "_dds.c")
    if os.path.exists(source) and os.path.getmtime(built) < os.path.getmtime(source):
        warnings.warn(f"{built} is older than _dds.c and is ignored; rebuild it with "
                      "`python -m gameplay.engine build-native`", RuntimeWarning, stacklevel=2)
        return None
    return module
