"""Every link of the docs and of the README leads somewhere, and every repository path they name exists.

Checked in `docs/*.md` and `README.md`, outside fenced code blocks:

- a relative link (`[rules](rules.md)`, `[README](../README.md)`) names a file or folder of the
  repository;
- an `#anchor`, in the same page or another markdown file, is one of that file's headings, made
  into an anchor as GitHub makes them;
- a path in backticks that starts with one of the repository's top-level folders
  (`archive/selectors.py`, `bench/ws/load.py`, `ratings/core/`) exists, and so does the module of
  every `python -m` command (fenced blocks included).

Links to other sites (`https:`, `mailto:`) and to the site's own pages (`/tables/verify/`) are not
followed. Pure: reads files only.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
#: The repository's top-level folders: a backticked path starting with one of them is a path of
#: the repository and must exist.
TOP_FOLDERS = ("api", "archive", "bench", "bin", "clubs", "config", "deploy", "docs", "gameplay",
               "locale", "ratings", "static", "templates", "tests", "tournaments", ".ci")

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE = re.compile(r"`([^`]+)`")
PATH = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?")
PYTHON_M = re.compile(r"python -m ([A-Za-z_][\w.]*)")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def prose(page: Path) -> list[tuple[int, str]]:
    """The page's lines outside fenced code blocks, with their numbers."""
    lines, fenced = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def github_anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: the text of code and links kept, lower case,
    everything but letters, digits, `_`, `-` and spaces dropped, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text.replace("`", ""))
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every anchor of a markdown file; a repeated heading gets `-1`, `-2`, … as on GitHub."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose(page):
        match = HEADING.match(line)
        if match:
            anchor = github_anchor(match.group(2))
            found.add(f"{anchor}-{seen[anchor]}" if anchor in seen else anchor)
            seen[anchor] = seen.get(anchor, 0) + 1
    return frozenset(found)


def links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of every link of the page that is neither another site nor a page of the site."""
    out = []
    for number, line in prose(page):
        for target in LINK.findall(CODE.sub("", line)):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("/"):
                out.append((number, target))
    return out


def test_anchors_are_made_as_github_makes_them() -> None:
    assert github_anchor("Whose suit is trump") == "whose-suit-is-trump"
    assert github_anchor("House rule: no ace discards (`ace_discard_ban`)") == \
        "house-rule-no-ace-discards-ace_discard_ban"
    assert github_anchor("bilka-solve/1 and bilka-analysis/1: double-dummy play") == \
        "bilka-solve1-and-bilka-analysis1-double-dummy-play"
    assert github_anchor("Results, PINs and the audit log") == "results-pins-and-the-audit-log"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_lead_to_files(page: Path) -> None:
    broken = []
    for number, target in links(page):
        path = target.split("#", 1)[0]
        if path and not (page.parent / path).exists():
            broken.append(f"{page_id(page)}:{number}: {target} leads nowhere")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_anchors_match_headings(page: Path) -> None:
    broken = []
    for number, target in links(page):
        if "#" not in target:
            continue
        path, anchor = target.split("#", 1)
        file = (page.parent / path) if path else page
        if file.suffix == ".md" and file.is_file() and anchor not in anchors(file):
            broken.append(f"{page_id(page)}:{number}: no heading of {file.name} has the anchor #{anchor}")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_repository_paths_in_backticks_exist(page: Path) -> None:
    """Includes the modules of `python -m` commands. Paths named by the new layout of the apps
    exist only once the code has moved there."""
    missing = []
    for number, line in prose(page):
        for span in CODE.findall(line):
            if PATH.fullmatch(span) and "/" in span and span.split("/")[0] in TOP_FOLDERS:
                if not (ROOT / span).exists():
                    missing.append(f"{page_id(page)}:{number}: {span} does not exist")
    text = page.read_text(encoding="utf-8")
    for module in sorted(set(PYTHON_M.findall(text))):
        if module.split(".")[0] in TOP_FOLDERS:
            path = ROOT / module.replace(".", "/")
            if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
                missing.append(f"{page_id(page)}: python -m {module}: no such module")
    assert not missing, "\n".join(missing)
