"""What bench.ws.load prints after its runs: the side-by-side table of the counts of server
processes, and where a move's latency went (`BENCH_TRACE`)."""

from __future__ import annotations

import statistics
from pathlib import Path

from bench.ws import costs
from bench.ws.clients import Table


def p50_p99(values: list[float]) -> tuple[float, float] | None:
    """(p50, p99) in ms, None without values."""
    if not values:
        return None
    ordered = sorted(values)
    return 1000 * statistics.median(ordered), 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def cost_rows(args) -> list:  # noqa: ANN001
    """The rows of --costs: a move's costs net of the idle rates, and the idle rates."""
    def c(r: dict, key: str) -> float:
        return r["costs"].get(key, 0.0)

    def total(r: dict, prefix: str, skip: tuple[str, ...] = ()) -> float:
        return sum(v for k, v in r["costs"].items() if k.startswith(prefix) and not k.endswith(skip))

    rows = [
        ("per move, net of idle: server CPU (ms)", lambda r: f"{1000 * total(r, 'cpu.server'):.2f}"),
        ("  Celery worker CPU (ms)", lambda r: f"{1000 * c(r, 'cpu.celery'):.2f}"),
        ("  PostgreSQL backends' CPU (ms, lower bound)", lambda r: f"{1000 * c(r, 'cpu.postgres'):.2f}"),
        ("  PostgreSQL transactions (committed)", lambda r: f"{c(r, 'pg.xact_commit'):.2f}"),
        ("  SQL statements, all processes",
         lambda r: f"{total(r, 'sql.', ('.COMMIT', '.transactions')):.2f}"),
        ("  rows inserted / updated",
         lambda r: f"{c(r, 'pg.tup_inserted'):.2f} / {c(r, 'pg.tup_updated'):.2f}"),
        ("  websocket payload to the sockets (bytes)", lambda r: f"{c(r, 'wire.recv_bytes'):.0f}"),
    ]
    if args.own_redis:
        rows += [
            ("  Redis commands", lambda r: f"{sum(costs.redis_commands(r['costs']).values()):.2f}"),
            ("  Redis bytes in / out",
             lambda r: f"{c(r, 'redis.bytes_in'):.0f} / {c(r, 'redis.bytes_out'):.0f}"),
            ("  Redis CPU (ms)", lambda r: f"{1000 * c(r, 'redis.cpu'):.3f}"),
        ]
    rows.append(("idle: server CPU (% of a core, all sockets open)",
                 lambda r: f"{100 * sum(v for k, v in r['idle'].items() if k.startswith('cpu.server')):.1f}"))
    return rows


def side_by_side(args, results: list[dict]) -> list[str]:  # noqa: ANN001
    """The runs' figures in columns, one per count of server processes."""
    def ms(pair: tuple[float, float] | None) -> str:
        return "-" if pair is None else f"{pair[0]:.1f} / {pair[1]:.1f}"

    rows = [
        ("sockets connected", lambda r: f"{r['held']} of {r['wanted']}"
         + (f" ({'+'.join(map(str, r['per_process']))})" if r["servers"] > 1 else "")),
        ("all connected in (s)", lambda r: f"{r['connect_s']:.1f}"),
        ("server memory per socket (KiB)", lambda r: f"{r['kib_per_socket']:.1f}"),
        ("moves sent, moves/s", lambda r: f"{r['moves']}, {r['moves_per_s']:.1f}"),
        ("moves refused / lost", lambda r: f"{r['refused']}{r['refused_why']} / {r['lost']}"),
        ("move -> all 4 seats p50 / p99 (ms)", lambda r: ms(r["seats"])),
        (f"move -> all {args.watchers} watchers p50 / p99 (ms)", lambda r: ms(r["watchers"])),
        (f"  the same, moves from {args.move_seconds:.0f} s on", lambda r: ms(r["late"])),
        ("server CPU per move (ms), each process",
         lambda r: " + ".join(f"{a + b:.2f}" for a, b in r["cpu_ms"])),
        ("  of which event loop / move worker",
         lambda r: ", ".join(f"{a:.2f}/{b:.2f}" for a, b in r["cpu_ms"])),
        ("server CPU per move (ms), all processes", lambda r: f"{sum(a + b for a, b in r['cpu_ms']):.2f}"),
        ("Celery worker CPU per move (ms)", lambda r: f"{r['celery_ms']:.2f}"),
        ("load average at the end; CPU probe (ms)", lambda r: f"{r['load']:.1f}; {r['probe_after']:.0f}"),
    ]
    if args.costs:
        rows += cost_rows(args)
    heads = [f"{r['servers']} server process{'es' if r['servers'] > 1 else ''}" for r in results]
    width = max(len(label) for label, _ in rows)
    cells = [[fmt(r) for r in results] for _, fmt in rows]
    col = max(max(len(h) for h in heads), *(len(c) for row in cells for c in row))
    lines = [f"{'':{width}}  " + "  ".join(f"{h:>{col}}" for h in heads)]
    for (label, _), row in zip(rows, cells, strict=True):
        lines.append(f"{label:{width}}  " + "  ".join(f"{c:>{col}}" for c in row))
    return lines


STAGES = ("sent", "recv", "start", "done", "sent", "first", "last", "seats")
STAGE_NAMES = ("client -> consumer", "consumer -> _play", "_play: pool + DB + engine",
               "commit -> PUBLISHed", "PUBLISH -> first socket", "first -> last socket",
               "last socket -> 4 seats")


def print_stages(state: dict[int, Table], trace: Path, keep=None, title: str = "") -> None:  # noqa: ANN001
    """Where a move's latency goes (BENCH_TRACE): each stage's p50/p99, and its mean in the slowest 1%
    (of the moves whose send time `keep` accepts, when given)."""
    stamps: dict[tuple[int, int], dict[str, float]] = {}
    for line in trace.read_text().splitlines():
        stage, table, n, at = line.split()
        got = stamps.setdefault((int(table), int(n)), {})
        at_f = float(at)
        if stage == "frame":
            got["first"] = min(got.get("first", at_f), at_f)
            got["last"] = max(got.get("last", at_f), at_f)
        else:
            got.setdefault(stage, at_f)
    rows = []
    for t in state.values():
        for n, sent in t.sent.items():
            if keep is not None and not keep(sent):
                continue
            seen = t.seat_seen.get(n, {})
            got = stamps.get((t.id, n), {})
            if len(seen) == 4 and all(s in got for s in STAGES[1:-1]):
                times = [sent, got["recv"], got["start"], got["done"], got["sent"], got["first"], got["last"],
                         max(seen.values())]
                rows.append((times[-1] - times[0], [b - a for a, b in zip(times, times[1:], strict=False)]))
    if not rows:
        print("stage trace: no complete moves")
        return
    rows.sort()
    tail = rows[-max(1, len(rows) // 100):]
    print(f"stages of {len(rows)} moves{title} (ms): p50 / p99 / mean of the slowest 1% ({len(tail)} moves)")
    for k, name in enumerate(STAGE_NAMES):
        values = sorted(r[1][k] for r in rows)
        p50, p99 = values[len(values) // 2], values[min(len(values) - 1, int(len(values) * 0.99))]
        mean = statistics.fmean(r[1][k] for r in tail)
        print(f"  {name:28s} {1000 * p50:7.1f} {1000 * p99:7.1f} {1000 * mean:7.1f}")
