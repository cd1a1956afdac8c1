"""The engine must run anywhere: no Django, no database, no network (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ENGINE = REPO / "gameplay" / "engine"
FORBIDDEN = ("django", "channels", "celery", "redis", "psycopg", "sqlite3", "socket", "ssl", "http",
             "urllib.request", "asyncio", "requests", "clubs", "tournaments", "config")


def _forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def test_importing_the_engine_loads_no_framework_database_or_network_module():
    code = (
        "import sys, json; import gameplay.engine, gameplay.engine.__main__, gameplay.engine.bench; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(REPO)})
    loaded = json.loads(out.stdout)
    bad = [m for m in loaded if _forbidden(m)]
    assert bad == []


def test_engine_source_imports_only_the_standard_library_and_itself():
    allowed_roots = set(sys.stdlib_module_names) | {"gameplay"}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root in allowed_roots, f"{path.name} imports {name}"
                assert not _forbidden(name), f"{path.name} imports {name}"
                if root == "gameplay":
                    assert name.startswith("gameplay.engine"), f"{path.name} imports {name}"
