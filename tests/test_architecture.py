"""The shape of the code stays as built: no import cycles, no private names across modules, short files.

Every module of the apps is read as text (none is imported), with every import statement in it,
those inside functions included; only imports under ``if TYPE_CHECKING:`` are left out, since
they never run. The layers themselves (views above services above selectors above models above
the pure core) are import-linter's contracts in ``pyproject.toml``, checked by ``.ci/run``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("clubs", "gameplay", "archive", "ratings", "tournaments", "config", "api", "webhooks")
LONG, TOO_LONG = 400, 500


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Imports(ast.NodeVisitor):
    """Every import of one module: the modules it needs and the names it takes from them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
        self.targets: set[str] = set()
        self.private: list[str] = []

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._need(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            package = self.package.split(".")
            package = package[: len(package) - node.level + 1]
            base = ".".join(package + ([base] if base else []))
        for alias in node.names:
            full = f"{base}.{alias.name}"
            if full in MODULES:
                self._need(full)
                continue
            self._need(base)
            ours = base.split(".")[0] in APPS
            if ours and alias.name.startswith("_") and not alias.name.startswith("__"):
                self.private.append(f"{self.name}:{node.lineno} takes {alias.name} from {base}")

    def _need(self, target: str) -> None:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != self.name:
            self.targets.add(target)


def _read(name: str) -> _Imports:
    found = _Imports(name)
    found.visit(ast.parse(MODULES[name].read_text(), str(MODULES[name])))
    return found


IMPORTS = {name: _read(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_no_false_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = cycles({name: imports.targets for name, imports in IMPORTS.items()})
    assert not found, "import cycles (imports inside functions count):\n" + "\n".join(map(str, found))


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [line for imports in IMPORTS.values() for line in imports.private]
    assert not private, "give a shared helper a public name in one module:\n" + "\n".join(private)


def test_files_are_short_or_say_why() -> None:
    """About 400 lines at most; over that the module's first docstring says why, and 500 is the end."""
    long = []
    for path in MODULES.values():
        lines = len(path.read_text().splitlines())
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        if lines > TOO_LONG or (lines > LONG and "lines" not in doc):
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, "split by job, or say in the first docstring why it is long:\n" + "\n".join(long)


def test_every_module_opens_with_a_line_on_its_job() -> None:
    silent = [
        str(path.relative_to(ROOT))
        for path in MODULES.values()
        if path.stat().st_size and not ast.get_docstring(ast.parse(path.read_text()))
    ]
    assert not silent, "modules without a docstring:\n" + "\n".join(silent)


TICKET = re.compile(r"\b[Ii]ssues? ?#?\d+\b")


def test_code_and_docs_speak_of_the_site_not_of_tickets() -> None:
    """A reader has no tickets: code, templates, CSS, scripts and docs say what a thing does."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True  # noqa: S607
    ).stdout.split()
    text_files = [
        ROOT / f
        for f in tracked
        if f.endswith((".py", ".html", ".css", ".js", ".md", ".toml", ".txt", ".sh"))
        or f.startswith(("bin/", ".ci/"))
    ]
    mentions = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for path in text_files
        if path.is_file()
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if TICKET.search(line)
    ]
    assert not mentions, "\n".join(mentions)
