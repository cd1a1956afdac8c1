"""The figures the ratings' explanation page shows are the latest held-out report's, not a copy
left behind: each shape's row of the model and of the best other system (lowest log-loss)."""

from __future__ import annotations

import re
from pathlib import Path

from ratings.views import HARNESS, HARNESS_REPORT

DATA = Path(__file__).resolve().parents[2] / "bench" / "ratings" / "data"
ROW = re.compile(
    r"^(?P<system>.+?)\s{2,}(?P<shape>[a-z-]+)\s+(?P<loss>\d\.\d+) ± \S+\s+(?P<gap>[+-]\d\.\d+) ± \S+\s+"
    r"\S+ ± \S+\s+(?P<ece>\d\.\d+)\s+(?:(?P<rho>\d\.\d+) ± \S+)?\s*$"
)


def _gap(text: str, system: str) -> str:
    value = float(text)
    if system == "elo":
        return f"{abs(value):.3f}"
    return ("+" if value > 0 else "−" if value < 0 else "") + f"{abs(value):.3f}"


def test_the_page_shows_the_latest_reports_figures() -> None:
    rows: dict[str, list[dict[str, str]]] = {}
    for line in (DATA / HARNESS_REPORT).read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            rows.setdefault(found["shape"], []).append(found.groupdict())
    expected = []
    for shape, systems in rows.items():
        model = next(r for r in systems if r["system"].strip() == "Bilka")
        best = min((r for r in systems if r["system"].strip() not in ("Bilka", "oracle")),
                   key=lambda r: float(r["loss"]))
        name = "elo" if best["system"].startswith("Team Elo") else best["system"].strip()
        for system, row in (("Bilka", model), (name, best)):
            expected.append((system, shape, row["loss"], _gap(row["gap"], system), row["ece"], row["rho"]))
    assert len(rows) == 10
    assert list(HARNESS) == expected
