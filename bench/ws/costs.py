"""What a move costs besides its latency, for `bench.ws.load --costs`: CPU, database, Redis, bytes.

A snapshot holds, at one moment: the CPU seconds of each server process (event loop and move
worker apart) and of the Celery worker; the bench database's counters in `pg_stat_database`
(transactions, rows, connections opened); the CPU of the PostgreSQL backends serving that
database (sampled every second by a thread: a backend that lived less than a second is missed, so
a lower bound); the SQL statements each process sent, by kind (bench/ws/queries.py); with a Redis
of the bench's own (`--own-redis`), its INFO: calls per command, bytes in and out, CPU; and the
bytes of the frames the bench's sockets received and sent.

Three snapshots make a run's costs: one after the sockets have connected and PostgreSQL has had
its 10 s to flush what the connecting left pending (its statistics reach the shared counters up to
10 s late), one at the end of `--idle` seconds with every socket open and no move (the idle
rates: what 2,000 open sockets cost by themselves), and one when the moves have stopped and every
clock task they queued has fired (`--move-seconds` later) and PostgreSQL has flushed again. The
cost of a move is the difference over the moves, less the idle rate over the same time, divided by
the moves.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

#: PostgreSQL (15) moves a backend's statistics into the shared counters at most once a second
#: while it works and 10 s after it went idle: a snapshot waits this long after the last activity.
PG_FLUSH_SECONDS = 11.0


@dataclass
class Snapshot:
    at: float
    figures: dict[str, float] = field(default_factory=dict)


PG_COLUMNS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated",
              "tup_deleted", "blks_hit", "blks_read", "sessions")


def pg_stats(url: str) -> dict[str, float]:
    """The bench database's counters (this connection's own query adds one transaction)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(f"SELECT {', '.join(PG_COLUMNS)} FROM pg_stat_database WHERE datname = %s",  # noqa: S608
                           (name,)).fetchone()
    return {f"pg.{c}": float(v or 0) for c, v in zip(PG_COLUMNS, row, strict=True)}


def redis_stats(url: str) -> dict[str, float]:
    """Calls per command, bytes in and out and CPU seconds of the whole Redis server."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        out = {f"redis.{name.removeprefix('cmdstat_')}": float(v["calls"])
               for name, v in client.info("commandstats").items()}
        stats, cpu = client.info("stats"), client.info("cpu")
    finally:
        client.close()
    out["redis.bytes_in"] = float(stats["total_net_input_bytes"])
    out["redis.bytes_out"] = float(stats["total_net_output_bytes"])
    out["redis.cpu"] = float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])
    return out


class PgBackends:
    """The CPU of the PostgreSQL backends connected to the bench database, sampled every second.

    A backend's CPU is counted from its start when it appears after `start` (CONN_MAX_AGE = 0 opens
    one per request), from its first sample otherwise; one that ends between two samples loses its
    last second."""

    def __init__(self, database: str) -> None:
        self.needle = f" {database} "
        self.base: dict[int, float] = {}
        self.seen: dict[int, float] = {}
        self.lock = threading.Lock()
        self.running = False

    def _sample(self, first: bool = False) -> None:
        import psutil

        for proc in psutil.process_iter(["name", "cmdline", "cpu_times"]):
            try:
                cmd = " ".join(proc.info["cmdline"] or ())
                if not cmd.startswith("postgres:") or self.needle not in f"{cmd} ":
                    continue
                t = proc.info["cpu_times"]
                used = t.user + t.system
            except (psutil.Error, TypeError):
                continue
            with self.lock:
                if first:
                    self.base[proc.pid] = used
                self.seen[proc.pid] = used

    def start(self) -> None:
        self._sample(first=True)
        self.running = True
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while self.running:
            time.sleep(1.0)
            self._sample()

    def total(self) -> float:
        self._sample()
        with self.lock:
            return sum(used - self.base.get(pid, 0.0) for pid, used in self.seen.items())

    def stop(self) -> None:
        self.running = False


def snapshot(processes: dict[str, float], backends: PgBackends | None, wire: dict[str, int],
             queries_dir: str | None, own_redis: bool) -> Snapshot:
    """Every figure now; `processes` are the CPU seconds the caller read from psutil."""
    from bench.ws import queries

    shot = Snapshot(time.monotonic())
    shot.figures.update({f"cpu.{k}": v for k, v in processes.items()})
    shot.figures.update({f"wire.{k}": float(v) for k, v in wire.items()})
    shot.figures.update(pg_stats(os.environ["DATABASE_URL"]))
    if backends is not None:
        shot.figures["cpu.postgres"] = backends.total()
    if own_redis:
        shot.figures.update(redis_stats(os.environ["REDIS_URL"]))
    if queries_dir:
        for role, counts in queries.read(queries_dir).items():
            shot.figures.update({f"sql.{role}.{kind}": float(n) for kind, n in counts.items()})
    return shot


def per_move(idle: tuple[Snapshot, Snapshot], run: tuple[Snapshot, Snapshot], moves: int) -> dict[str, float]:
    """Each figure's growth over the run, less its idle rate over the same time, per move."""
    idle_s = max(1e-9, idle[1].at - idle[0].at)
    run_s = run[1].at - run[0].at
    keys = set(run[1].figures) | set(run[0].figures)
    out = {}
    for key in keys:
        grown = run[1].figures.get(key, 0.0) - run[0].figures.get(key, 0.0)
        idle_rate = (idle[1].figures.get(key, 0.0) - idle[0].figures.get(key, 0.0)) / idle_s
        out[key] = (grown - idle_rate * run_s) / max(1, moves)
    return out


def idle_rates(idle: tuple[Snapshot, Snapshot]) -> dict[str, float]:
    """Each figure's growth per second with every socket open and no move."""
    seconds = max(1e-9, idle[1].at - idle[0].at)
    return {k: (idle[1].figures.get(k, 0.0) - idle[0].figures.get(k, 0.0)) / seconds for k in idle[1].figures}


def _sum(figures: dict[str, float], prefix: str) -> float:
    return sum(v for k, v in figures.items() if k.startswith(prefix))


def report(cost: dict[str, float], idle: dict[str, float], sockets: int, servers: int,
           own_redis: bool) -> list[str]:
    """Lines: a move's costs (net of the idle rates) and what the open sockets cost by themselves."""
    def c(key: str) -> float:
        return cost.get(key, 0.0)

    each = "; ".join(f"process {k + 1}: event loop {1000 * c(f'cpu.server{k}.loop'):.2f} + "
                     f"move worker {1000 * c(f'cpu.server{k}.moves'):.2f}" for k in range(servers))
    redis_cpu = f"; Redis {1000 * c('redis.cpu'):.2f}" if own_redis else ""
    lines = [
        f"per move, CPU (ms): server processes {1000 * _sum(cost, 'cpu.server'):.2f} ({each}); "
        f"Celery worker {1000 * c('cpu.celery'):.2f}; PostgreSQL backends {1000 * c('cpu.postgres'):.2f} "
        f"(a lower bound){redis_cpu}",
        f"per move, PostgreSQL (pg_stat_database): {c('pg.xact_commit'):.2f} transactions committed, "
        f"{c('pg.xact_rollback'):.2f} rolled back, {c('pg.sessions'):.2f} connections opened; rows: "
        f"{c('pg.tup_fetched'):.1f} fetched, {c('pg.tup_returned'):.1f} returned (scanned), "
        f"{c('pg.tup_inserted'):.2f} inserted, {c('pg.tup_updated'):.2f} updated, "
        f"{c('pg.tup_deleted'):.2f} deleted; {c('pg.blks_hit'):.1f} buffer hits, "
        f"{c('pg.blks_read'):.2f} reads",
    ]
    roles = sorted({k.split(".")[1] for k in cost if k.startswith("sql.")})
    if roles:
        parts = []
        for role in roles:
            kinds = {k.split(".", 2)[2]: v for k, v in cost.items() if k.startswith(f"sql.{role}.")}
            statements = {k: v for k, v in kinds.items() if k not in ("COMMIT", "transactions")}
            detail = ", ".join(f"{k} {v:.2f}" for k, v in sorted(statements.items(), key=lambda kv: -kv[1])
                               if abs(v) >= 0.005)
            parts.append(f"{role} {sum(statements.values()):.2f} statements ({detail}) in "
                         f"{kinds.get('transactions', 0):.2f} transactions")
        lines.append("per move, SQL sent (counted in each process): " + "; ".join(parts))
    if own_redis:
        commands = redis_commands(cost)
        top = sorted(((k, v) for k, v in commands.items() if abs(v) >= 0.005), key=lambda kv: -kv[1])
        lines.append(f"per move, Redis: {sum(commands.values()):.2f} commands ("
                     + ", ".join(f"{k} {v:.2f}" for k, v in top)
                     + f"); {c('redis.bytes_in'):.0f} bytes in, {c('redis.bytes_out'):.0f} bytes out")
    else:
        lines.append("per move, Redis: only with --own-redis (a shared Redis counts every client's commands)")
    lines.append(f"per move, websocket payload: {c('wire.recv_bytes'):.0f} bytes in "
                 f"{c('wire.recv_frames'):.2f} frames to the bench's sockets (seats "
                 f"{c('wire.seat_bytes'):.0f} bytes, watchers "
                 f"{c('wire.watcher_bytes'):.0f}), {c('wire.sent_bytes'):.0f} bytes from them (uncompressed: "
                 "the bench asks for no permessage-deflate)")
    cpu_idle = _sum(idle, "cpu.server")
    redis_idle = f", Redis {sum(redis_commands(idle).values()):.1f} commands/s" if own_redis else ""
    lines.append(f"idle, {sockets} sockets open: server processes {100 * cpu_idle:.1f}% of a core "
                 f"({1e6 * cpu_idle / max(1, sockets):.1f} µs of CPU per socket-second), Celery worker "
                 f"{100 * idle.get('cpu.celery', 0):.1f}%, PostgreSQL {idle.get('pg.xact_commit', 0):.1f} "
                 f"transactions/s{redis_idle}")
    return lines


def redis_commands(figures: dict[str, float]) -> dict[str, float]:
    """The Redis commands among the figures (not the bench's own INFO and FLUSHDB)."""
    return {k.removeprefix("redis."): v for k, v in figures.items()
            if k.startswith("redis.") and k not in NOT_COMMANDS}


NOT_COMMANDS = ("redis.cpu", "redis.bytes_in", "redis.bytes_out", "redis.info", "redis.flushdb")
