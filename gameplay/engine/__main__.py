"""Command line: `score FILE` prints bilka-score/1; `solve FILE --deal D --ply K` bilka-solve/1 and
`analyse FILE` bilka-analysis/1 (the double-dummy solver); `verify-deal FILE` checks the shuffle of every
deal against the revealed seed (exit 0 all agree, 1 something disagrees, 2 cannot check);
`fairplay FILE [--seats NESW]` the fair-play review of the record's seats (`fairplay.py`: decisions,
Z, effect, p and the heaviest decisions, as JSON); `bench --seconds N` prints deals/s.

The scorer is the organisers' and the tests' oracle: a record that breaks a rule exits with
status 2, nothing on stdout and exactly one line on stderr saying what and where.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from gameplay.engine.errors import RecordError


def _run(path: str, what: str, action: Callable[[bytes], tuple[str, int]]) -> int:
    """Read the record at `path` and run `action` on it: its text goes to stdout and its status is
    returned; anything wrong (unreadable file, broken record, a bug) is one line on stderr, exit 2."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        text, status = action(data)
    except RecordError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the contract is one line, whatever went wrong
        print(" ".join(f"cannot {what} this record: {exc!r}".split()), file=sys.stderr)
        return 2
    print(text)
    return status


def _score(data: bytes) -> tuple[str, int]:
    from gameplay.engine.record_games import score_game_record

    return json.dumps(score_game_record(data), ensure_ascii=False, indent=2), 0


def _verify(data: bytes) -> tuple[str, int]:
    from gameplay.engine.verify import verify_record

    verdict = verify_record(data)
    return "\n".join(verdict.lines()), 0 if verdict.ok else 1


def _solve(deal: int, ply: int) -> Callable[[bytes], tuple[str, int]]:
    def action(data: bytes) -> tuple[str, int]:
        from gameplay.engine.analysis import solve_record

        return json.dumps(solve_record(data, deal, ply)), 0

    return action


def _analyse(data: bytes) -> tuple[str, int]:
    from gameplay.engine.analysis import analyse_record

    return json.dumps(analyse_record(data), indent=1), 0


def _fairplay(seats: str, samples: int | None, partner_known: bool,
              margin: float | None) -> Callable[[bytes], tuple[str, int]]:
    def action(data: bytes) -> tuple[str, int]:
        import hashlib

        from gameplay.engine import fairplay
        from gameplay.engine.record import load_record

        record = load_record(data)
        k = fairplay.SAMPLES if samples is None else samples
        m = fairplay.MARGIN if margin is None else margin
        if k < 1 or m < 0:
            raise RecordError("--samples must be at least 1 and --margin not negative")
        decisions = fairplay.review_record(record, seats=seats, key=hashlib.sha256(data).hexdigest(),
                                           samples=k, partner_known=partner_known)
        out = {}
        for seat in seats:
            mine = [d for d in decisions if d.seat == seat]
            verdict = fairplay.combine(mine, margin=m)
            out[seat] = verdict.as_dict() | {"heaviest": [
                {"deal": d.deal, "ply": d.ply, "card": d.card, "real_loss": d.real_loss,
                 "sample_losses": list(d.sample_losses), "weight": round(d.weight(verdict.sd), 3)}
                for d in fairplay.heaviest(mine, verdict)]}
        return json.dumps({"samples": k, "partner_known": partner_known, "seats": out}, indent=1), 0

    return action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameplay.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score a bilka-record/1 file of any game (bilka, kozyol, bilka-2)")
    score.add_argument("file")
    verify = sub.add_parser("verify-deal", help="check every deal of a record against its revealed seed")
    verify.add_argument("file")
    solve = sub.add_parser("solve", help="double-dummy par and card values of one position of a record")
    solve.add_argument("file")
    solve.add_argument("--deal", type=int, required=True, help="the deal, from 1, redeals counted")
    solve.add_argument("--ply", type=int, required=True, help="cards of the deal already played")
    analyse = sub.add_parser("analyse", help="every card of every played deal against best play")
    analyse.add_argument("file")
    fair = sub.add_parser("fairplay", help="the fair-play review of a record's seats (docs/fairplay.md)")
    fair.add_argument("file")
    fair.add_argument("--seats", default="NESW", help="the seats to review, e.g. NS")
    fair.add_argument("--samples", type=int, help="layouts drawn per decision (default 20)")
    fair.add_argument("--partner-known", action="store_true", help="draw only the opponents' hands")
    fair.add_argument("--margin", type=float, help="the effect margin (default 0.25; 0: the plain test)")
    bench = sub.add_parser("bench", help="random playouts per second")
    bench.add_argument("--seconds", type=float, default=5.0)
    bench.add_argument("--seed", type=int, default=1)
    sub.add_parser("build-native",
                   help="compile the engine with mypyc, the solver's search in C (optional, faster)")
    sub.add_parser("clean-native", help="remove the native builds")
    args = parser.parse_args(argv)
    if args.command == "score":
        return _run(args.file, "score", _score)
    if args.command == "solve":
        return _run(args.file, "solve", _solve(args.deal, args.ply))
    if args.command == "analyse":
        return _run(args.file, "analyse", _analyse)
    if args.command == "fairplay":
        return _run(args.file, "review", _fairplay(args.seats, args.samples, args.partner_known, args.margin))
    if args.command == "verify-deal":
        return _run(args.file, "verify", _verify)
    if args.command in ("build-native", "clean-native"):
        from gameplay.engine import native

        return native.build() if args.command == "build-native" else native.clean()
    from gameplay.engine import state
    from gameplay.engine.bench import run

    compiled = not state.__file__ or not state.__file__.endswith(".py")
    print("engine: " + ("mypyc-compiled state" if compiled else "pure Python"))

    rate = run(args.seconds, args.seed)
    print(f"deals/s: {rate:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
