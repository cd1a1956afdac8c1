"""The rating model for scripts: ``python -m ratings.core predict < matches.jsonl``.

Reads matches as JSON lines on stdin, oldest first (``ratings.core.records``); writes,
for each match before it is learnt, ``{"id": ..., "p_ns": ...}``, then one line per player
``{"player": ..., "rating": ..., "deviation": ...}`` on the display scale, as of the last match.
Every line is read before anything is written: a bad line is refused with its line number on
stderr and exit status 2. No database: the same model the site uses, from plain data.
"""

from __future__ import annotations

import argparse
import json
import sys

from ratings.core.learner import Learner
from ratings.core.model import Match
from ratings.core.records import BadRecord, parse_match


def predict(lines: list[str], out: list[str]) -> None:
    """Predict and learn every match in order; lines to write go to ``out``. Raises ``BadRecord``."""
    matches: list[tuple[str, Match]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            matches.append(parse_match(json.loads(line)))
        except json.JSONDecodeError as e:
            raise BadRecord(f"line {number}: not JSON: {e.msg}") from None
        except BadRecord as e:
            raise BadRecord(f"line {number}: {e}") from None
    state = Learner()
    seen: dict[str, None] = {}
    last_day = None
    for mid, match in matches:
        out.append(json.dumps({"id": mid, "p_ns": round(state.predict(match), 4)}))
        state.update(match)
        for p in (*match.ns, *match.ew):
            seen[p] = None
        last_day = match.day if match.day is not None else last_day
    for p in seen:
        rating, deviation = state.display(p, last_day)
        out.append(json.dumps({"player": p, "rating": round(rating, 1), "deviation": round(deviation, 1)}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ratings.core", description=__doc__.splitlines()[0]
    )
    parser.add_argument("command", choices=["predict"])
    parser.parse_args(argv)
    out: list[str] = []
    try:
        predict(sys.stdin.read().splitlines(), out)
    except BadRecord as e:
        print(f"predict: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
