"""Stylesheets written into the page itself, for phones on a slow network.

On a "Slow 3G" line (DevTools' preset: 2 s a request, 50 KB/s) a page's own stylesheets cost a
second round trip after the page before anything is painted: the player's match page was usable
only after 5.2 s from a cold cache (bench/web/slow3g.py). The tournament pages and the hall screen,
which players open in the hall, carry their stylesheets in a ``<style>`` of the page instead (about
9 KB compressed); every other page links them, cached as before.

The Content-Security-Policy admits exactly these styles by their SHA-256 (``csp_hashes``, read by
the settings when the process starts), so no other inline style can run. With DEBUG on the pages
link the files instead, so that an edited stylesheet shows without a restart.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
SETS: dict[str, tuple[str, ...]] = {
    "tournament": ("css/bilka.css", "tournaments/tournaments.css", "ratings/ratings.css"),
    "hall": ("tournaments/hall.css",),
}
"""The stylesheets each kind of page carries, in the order the pages linked them."""
COMMENT = re.compile(r"/\*.*?\*/", re.S)


@cache
def text(name: str) -> str:
    """The stylesheets of one set, joined, as the ``<style>`` holds them."""
    parts = [(STATIC / path).read_text(encoding="utf-8") for path in SETS[name]]
    # without the comments and the indentation: a quarter fewer bytes (no stylesheet of the site
    # has "/*" in a string)
    joined = "\n".join(COMMENT.sub("", part) for part in parts)
    joined = "\n".join(line.strip() for line in joined.splitlines() if line.strip())
    if "</" in joined:
        raise ValueError(f"a stylesheet of {name!r} holds '</', which would end its <style> early")
    return joined


def csp_hashes() -> list[str]:
    """The policy's source for each set: ``'sha256-…'`` of its text."""
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(text(name).encode()).digest()).decode()}'"
        for name in SETS
    ]
