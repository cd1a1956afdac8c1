"""Print a duplicate event's movements as tables, for a director planning an evening.

    python manage.py movement_tables --pairs 6,8,10,12 --boards 4

For each number of pairs and each movement (Mitchell, Howell-like): one line a round, one cell a
table ("3-7 b9-12": NS pair 3 against EW pair 7 on boards 9 to 12), the pairs sitting out, then
the movement's own check (``tournaments.core.duplicate.check_movement``): how many times each set
is played, and that no pair plays a board twice or meets a pair twice.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.core import duplicate as core


def movement_table(kind: str, pairs: int, boards: int, rounds: int | None = None) -> list[str]:
    """The lines printed for one movement."""
    seats = core.howell(pairs, rounds) if kind == "howell" else core.mitchell(pairs, rounds)
    counts = core.check_movement(seats)  # raises if a pair plays a board twice
    last = max(s.round for s in seats)
    tables = max(s.table for s in seats)
    lines = [f"{kind}, {pairs} pairs, {boards} boards a round: {tables} tables, {last} rounds"]
    width = len(f"{pairs}-{pairs} b{last * tables * boards}-{last * tables * boards}")
    lines.append("round  " + "  ".join(f"table {t}".ljust(width) for t in range(1, tables + 1)) + "  out")
    for r in range(1, last + 1):
        cells, out = {}, []
        for s in (s for s in seats if s.round == r):
            if s.ns is not None and s.ew is not None:
                b = s.boards(boards)
                cells[s.table] = f"{s.ns}-{s.ew} b{b.start}-{b.stop - 1}"
            else:
                out += [p for p in (s.ns, s.ew) if p is not None]
        row = "  ".join(cells.get(t, "—").ljust(width) for t in range(1, tables + 1))
        lines.append(f"{r:>5}  {row}  {', '.join(map(str, sorted(out))) or '—'}")
    times = sorted(set(counts.values()))
    lines.append(f"check: {len(counts)} sets ({len(counts) * boards} boards), each played "
                 f"{' or '.join(map(str, times))} times; no pair plays a board twice or meets a pair twice")
    return lines


class Command(BaseCommand):
    help = "Print the duplicate movements for some numbers of pairs, with their checks."

    def add_arguments(self, parser):
        parser.add_argument("--pairs", default="6,8,10,12", help="numbers of pairs, comma-separated")
        parser.add_argument("--boards", type=int, default=4, help="boards a table plays a round")
        parser.add_argument("--movement", default="mitchell,howell", help="mitchell, howell or both")
        parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")

    def handle(self, *args, pairs: str, boards: int, movement: str, rounds: int | None, **options):
        try:
            numbers = [int(p) for p in pairs.split(",")]
        except ValueError as error:
            raise CommandError(f"--pairs takes numbers separated by commas: {error}") from error
        for kind in movement.split(","):
            if kind not in ("mitchell", "howell"):
                raise CommandError(f"unknown movement {kind!r}: mitchell or howell")
            for n in numbers:
                try:
                    self.stdout.write("\n".join(movement_table(kind, n, boards, rounds)) + "\n\n")
                except ValueError as error:
                    raise CommandError(str(error)) from error
