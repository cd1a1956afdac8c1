"""Reliability of the tournament day: a worker killed inside the work, and two beats at once.

(a) SIGKILL of a real Celery worker at points inside the work (after its first write): while a
finished table's result is recorded (closing the round), right after the next round is paired,
and after the first of its live tables is opened. PostgreSQL rolls the half-done transaction back;
a new worker and the next beat tick finish the work: every round is paired exactly once, every
result counted once, nothing lost. (b) Two beat processes run the plans at the same time and
still pair each round once.
"""

import json
import os
import subprocess
import sys
import time

import pytest
from django.conf import settings

from clubs.models import AuditEntry
from gameplay import services as tables
from gameplay.models import Table, TableStatus
from tests.conftest import REPO_ROOT, _database_url
from tournaments import day_tasks, services
from tournaments.models import ActionKind, Match, MatchStatus, ScheduledAction

from ..conftest import play_round
from .conftest import swiss_with_accounts
from .workers import KillableWorker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

KILL_POINTS = ("record_result", "start_round", "open_tables")


def wait_for(predicate, what: str, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _finish_round_by_resigning(rnd, seed: int) -> None:
    """Every table of the round ends at once: one player resigns (his pair loses by forfeit)."""
    for m in Match.objects.filter(round=rnd, bye=False).order_by("table"):
        tables.resign(table_id=m.live_table, seat=(m.table + seed) % 4)


# Twenty kills and restarts of a worker over six tournaments: two minutes here at load 5, so past
# pytest-timeout's 600 s on a machine three times as busy. The work is fixed and every wait in it
# has its own ceiling; this limit only guards against a hang those do not see.
@pytest.mark.timeout(3600)
def test_worker_killed_inside_the_work_twenty_times_loses_nothing(club, organiser, day_queue, tmp_path):
    started = time.monotonic()
    events = [
        swiss_with_accounts(club, organiser, 8, name=f"Онлайн {i}", rounds=5, play_mode="online", online=True)
        for i in range(6)
    ]
    worker = KillableWorker(day_queue, tmp_path)
    worker.start()
    kills = 0
    try:
        for t in events:
            services.pair_next_round(actor=organiser, tournament=t)
            wait_for(
                lambda t=t: Match.objects.filter(tournament=t, live_table__isnull=False).count() == 4,
                "round 1 tables",
            )
            for number in range(1, t.swiss_rounds):
                point = KILL_POINTS[kills % len(KILL_POINTS)]
                (tmp_path / f"{point}.armed").touch()
                rnd = t.rounds.get(number=number)
                _finish_round_by_resigning(rnd, seed=kills)
                wait_for(
                    lambda point=point: (tmp_path / f"{point}.reached").exists(), f"the worker at {point}"
                )
                worker.kill()
                kills += 1
                (tmp_path / f"{point}.reached").unlink()
                # Killed mid-transaction: nothing of that piece of work is visible.
                if point != "record_result":
                    assert not t.rounds.filter(number=number + 1).exists() or point == "open_tables"
                worker.start()
                day_tasks.day_tick.apply_async(queue=day_queue).get(timeout=120)
                wait_for(
                    lambda t=t, number=number: (
                        Match.objects.filter(
                            tournament=t, round__number=number + 1, live_table__isnull=False
                        ).count()
                        == 4
                    ),
                    f"round {number + 1} of {t.name} started",
                )
        # the last rounds end without a kill
        for t in events:
            _finish_round_by_resigning(t.rounds.get(number=t.swiss_rounds), seed=1)
        for t in events:
            wait_for(lambda t=t: t.refresh_from_db() or t.status == "finished", f"{t.name} finished")
        day_tasks.day_tick.apply_async(queue=day_queue).get(timeout=120)  # the plans the end queued, done
    finally:
        worker.stop()

    assert kills >= 20
    for t in events:
        assert list(t.rounds.values_list("number", flat=True)) == [1, 2, 3, 4, 5]  # each paired once
        assert Match.objects.filter(tournament=t).count() == 20
        for m in Match.objects.filter(tournament=t):
            assert m.status == MatchStatus.CONFIRMED and m.forfeit
            assert AuditEntry.objects.filter(action="match.live_result", object_id=str(m.pk)).count() == 1
        assert (
            AuditEntry.objects.filter(
                action="round.pair",
                club=t.club,
                object_id__in=[str(pk) for pk in t.rounds.values_list("pk", flat=True)],
            ).count()
            == 5
        )
        tables_of_t = Table.objects.filter(pk__in=Match.objects.filter(tournament=t).values("live_table"))
        assert tables_of_t.count() == 20 and not tables_of_t.exclude(status=TableStatus.FINISHED).exists()
        # no table opened twice for a match: every table of this run belongs to a match
        points = {}
        for m in Match.objects.filter(tournament=t):
            points[m.winner_id] = points.get(m.winner_id, 0) + 1
        assert sum(points.values()) == 20
    assert Table.objects.count() == 6 * 20
    assert not ScheduledAction.objects.filter(kind=ActionKind.PAIR_NEXT, done_at__isnull=True).exists()
    print(f"\n{kills} kills in {time.monotonic() - started:.1f} s")


BEAT = """
import json, sys, django
django.setup()
from django.db import connection
from tournaments.services import runner
done = []
for _ in range(5):
    done += runner.run_due()
print(json.dumps(done))
"""


def test_two_beats_at_once_pair_each_round_once(club, organiser, day_queue):
    """``day_queue``: the plans' own tasks go to a queue no worker reads, so only the two beats act."""
    events = [swiss_with_accounts(club, organiser, 8, name=f"Кубок {i}", rounds=4) for i in range(12)]
    for t in events:
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    assert ScheduledAction.objects.filter(kind=ActionKind.PAIR_NEXT, done_at__isnull=True).count() == 12
    db = settings.DATABASES["default"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": _database_url(db)}
    beats = [
        subprocess.Popen(  # noqa: S603 - fixed command line
            [sys.executable, "-c", BEAT],
            cwd=REPO_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [b.communicate(timeout=300) for b in beats]
    assert all(b.returncode == 0 for b in beats), [o[1].decode()[-2000:] for o in outputs]
    done = [json.loads(o[0].decode().strip().splitlines()[-1]) for o in outputs]

    assert len(done[0]) + len(done[1]) == 12
    assert not set(done[0]) & set(done[1])  # no plan done by both
    for t in events:
        assert list(t.rounds.values_list("number", flat=True)) == [1, 2]
        assert Match.objects.filter(tournament=t, round__number=2).count() == 4
    print(f"\nbeat A did {len(done[0])}, beat B did {len(done[1])}")
