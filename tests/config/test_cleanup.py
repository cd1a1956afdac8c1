"""The nightly clean-up: what it deletes, its beat plan, and a run through a real worker."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone
from django_celery_beat.models import ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask

from config.schedule import CLEANUP_TASK, CLEANUP_TASK_NAME
from config.tasks import cleanup


def make_session(*, expires_in: timedelta) -> str:
    store = SessionStore()
    store["player"] = "Aigerim"
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() + expires_in)
    return store.session_key


@pytest.mark.django_db(transaction=True)
def test_worker_runs_cleanup_and_expired_sessions_are_gone(celery_worker_process) -> None:
    expired = make_session(expires_in=-timedelta(days=1))
    live = make_session(expires_in=timedelta(days=1))

    result = cleanup.delay().get(timeout=30)

    assert result["sessions"] == 1
    assert not Session.objects.filter(session_key=expired).exists()
    assert Session.objects.filter(session_key=live).exists()


@pytest.mark.django_db
def test_cleanup_deletes_spent_one_off_plans_and_orphaned_schedules_only() -> None:
    long_ago = timezone.now() - timedelta(days=30)
    ran = ClockedSchedule.objects.create(clocked_time=long_ago)
    PeriodicTask.objects.create(
        name="round 1 start", task=CLEANUP_TASK, clocked=ran, one_off=True, enabled=False
    )
    PeriodicTask.objects.filter(name="round 1 start").update(date_changed=long_ago)  # beat ran it a month ago
    recent = ClockedSchedule.objects.create(clocked_time=timezone.now() - timedelta(hours=1))
    PeriodicTask.objects.create(
        name="round 2 start", task=CLEANUP_TASK, clocked=recent, one_off=True, enabled=False
    )
    upcoming = ClockedSchedule.objects.create(clocked_time=timezone.now() + timedelta(days=1))
    PeriodicTask.objects.create(name="round 3 start", task=CLEANUP_TASK, clocked=upcoming, one_off=True)
    IntervalSchedule.objects.create(every=5, period=IntervalSchedule.MINUTES)  # nobody uses it

    assert cleanup() == {"sessions": 0, "periodic_tasks": 1, "schedules": 2}
    names = set(PeriodicTask.objects.values_list("name", flat=True))
    assert "round 1 start" not in names
    assert {CLEANUP_TASK_NAME, "round 2 start", "round 3 start"} <= names
    assert cleanup() == {"sessions": 0, "periodic_tasks": 0, "schedules": 0}


@pytest.mark.django_db
def test_nightly_cleanup_is_planned_at_half_past_three_once() -> None:
    call_command("migrate", verbosity=0)  # migrating again must not add a second plan

    plan = PeriodicTask.objects.get(name=CLEANUP_TASK_NAME)
    assert plan.task == CLEANUP_TASK
    assert plan.enabled
    assert (plan.crontab.hour, plan.crontab.minute, plan.crontab.day_of_week) == ("3", "30", "*")
    assert PeriodicTask.objects.filter(task=CLEANUP_TASK).count() == 1
    assert CrontabSchedule.objects.filter(minute="30", hour="3").count() == 1


@pytest.mark.django_db
def test_migrate_keeps_an_admins_changes_to_the_plan() -> None:
    PeriodicTask.objects.filter(name=CLEANUP_TASK_NAME).update(enabled=False)

    call_command("migrate", verbosity=0)

    assert not PeriodicTask.objects.get(name=CLEANUP_TASK_NAME).enabled
