"""Races: two people confirming the same result at the same moment (confirmed once, audited once);
a reinstate or a check-in racing round 1's pairing or the check-in closing plan (it waits, and is refused)."""

import threading

import pytest
from django.db import connection

from clubs.models import AuditEntry
from tournaments import services
from tournaments.models import Match, MatchStatus
from tournaments.services.common import lock_tournament

from .conftest import player_with_account, register_pairs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tasks_done_before_the_flush(celery_worker_process):
    """These tests commit, so a pairing queues its tasks (the players' pairing notices, which now
    write rows): the worker runs them before the tables are flushed, which a task still writing
    would deadlock (CI saw the flush fail, and the next test find the last one's club)."""
    yield
    celery_worker_process.run_queued()


def test_simultaneous_confirmations_count_once(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Гонка", format="swiss", seeding="manual")
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    services.register_entry(actor=organiser, tournament=t, player_a=asel, player_b=oleh)
    register_pairs(t, organiser, 1)
    services.register_entry(actor=organiser, tournament=t, player_a=ivan, player_b=nurlan)
    register_pairs(t, organiser, 1, prefix="Сосед")
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.get(table=1)
    match = services.enter_result(actor=asel.user, match=match, home_eyes=12, away_eyes=6)
    other = ivan.user if match.reported_side == "home" else asel.user
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []

    def confirm(actor):
        try:
            barrier.wait()
            services.confirm_result(actor=actor, match=Match.objects.get(pk=match.pk))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    def sweep():
        try:
            barrier.wait()
            Match.objects.filter(pk=match.pk).update(reported_at=match.reported_at.replace(year=2000))
            services.auto_confirm_due()
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(u,)) for u in (organiser, other)] + [
        threading.Thread(target=sweep)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert Match.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED
    audits = AuditEntry.objects.filter(
        object_id=str(match.pk), action__in=("match.confirm", "match.auto_confirm")
    )
    assert audits.count() == 1


def _field_with_a_late_pair(club, organiser, name: str):
    """Five pairs, four checked in, check-in closed a minute ago; returns (tournament, the fifth)."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import DaySettings

    t = services.create_tournament(actor=organiser, club=club, name=name, format="swiss")
    entries = register_pairs(t, organiser, 5)
    for entry in entries[:4]:
        services.check_in_entry(actor=organiser, entry=entry)
    DaySettings.objects.create(tournament=t, check_in_closes_at=timezone.now() - timedelta(minutes=1))
    return t, entries[4]


def _race_the_lock_holder(t, holder_work, racer) -> tuple[list, list]:
    """One thread locks the tournament, waits until a second one is blocked on a lock, then does
    ``holder_work`` in the same transaction; the second runs ``racer`` (in English) meanwhile.
    Returns (unexpected errors of either, the racer's refusal messages)."""
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from django.utils import translation

    locked, errors, refusals = threading.Event(), [], []

    def hold():
        try:
            with transaction.atomic():
                lock_tournament(t)
                locked.set()
                _wait_until_someone_waits_for_a_lock()
                holder_work()
        except BaseException as error:  # noqa: BLE001 - reported by the caller
            errors.append(error)
        finally:
            connection.close()

    def race():
        try:
            locked.wait(60)
            with translation.override("en"):  # a thread starts in the default language
                racer()
        except ValidationError as refused:
            refusals.append(refused.messages)
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=hold), threading.Thread(target=race)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return errors, refusals


def test_a_reinstate_racing_round_one_waits_for_it_and_is_refused(club, organiser):
    """Round 1's pairing locks the tournament, then writes the withdrawn pairs (their seed). A
    reinstate of one of them at that moment waits for the pairing and is refused; it does not take
    the pair's row first and deadlock with it (one of the two would then fail)."""
    from tournaments.models import EntryStatus

    t, late = _field_with_a_late_pair(club, organiser, "Гонка за явкой")
    services.withdraw_entry(actor=organiser, entry=late)

    errors, refusals = _race_the_lock_holder(
        t,
        lambda: services.pair_next_round(actor=organiser, tournament=t),
        lambda: services.reinstate_entry(actor=organiser, entry=late),
    )
    assert not errors, errors
    assert len(refusals) == 1 and "Round 1 is already paired" in refusals[0][0]
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN
    assert t.rounds.get(number=1).matches.count() == 2


def test_a_check_in_racing_the_closing_plan_waits_for_it_and_is_refused(club, organiser):
    """The check-in closing plan locks the tournament, then withdraws the pairs that did not check
    in. An organiser checking one of them in at that moment waits for the plan and is refused; he
    does not lock the pair first and deadlock with it (one of the two would then fail)."""
    from tournaments.models import EntryStatus
    from tournaments.services import day

    t, late = _field_with_a_late_pair(club, organiser, "Гонка с закрытием")

    errors, refusals = _race_the_lock_holder(
        t,
        lambda: day.close_check_in(tournament_id=t.pk),
        lambda: services.check_in_entry(actor=organiser, entry=late),
    )
    assert not errors, errors
    assert len(refusals) == 1 and "Check-in is closed" in refusals[0][0]
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN


def _wait_until_someone_waits_for_a_lock(seconds: float = 60) -> None:
    """Return once another connection of this database is blocked on a lock (the racing call)."""
    import time

    from django.db import connections

    deadline = time.monotonic() + seconds
    watcher = connections.create_connection("default")
    try:
        with watcher.cursor() as cursor:
            while time.monotonic() < deadline:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0]:
                    return
                time.sleep(0.02)
    finally:
        watcher.close()
    raise AssertionError("the racing call never waited for the lock holder")
