"""Plans as rows: written once, done once, by the beat task's body (``runner.run_due``)."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from tournaments import schedule, services
from tournaments.models import (
    ActionKind,
    DaySettings,
    EntryStatus,
    Match,
    MatchStatus,
    Notification,
    Round,
    ScheduledAction,
)
from tournaments.services import day, plans, runner

from ..conftest import play_round

pytestmark = pytest.mark.django_db


def test_a_complete_round_pairs_the_next_one_exactly_once(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    play_round(rnd, organiser)
    plan = ScheduledAction.objects.get(kind=ActionKind.PAIR_NEXT, tournament=swiss8, round_number=1)
    assert plan.done_at is None

    assert plan.key in runner.run_due()
    assert runner.run_due() == []  # a second beat finds nothing to do
    assert runner.run_plan(plan.key) is False  # nor does the task queued for it

    assert list(swiss8.rounds.values_list("number", flat=True)) == [1, 2]
    assert Match.objects.filter(round__number=2, tournament=swiss8).count() == 4
    plan.refresh_from_db()
    assert plan.done_at is not None and plan.outcome.startswith("started")


def test_planning_twice_writes_one_row(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    play_round(rnd, organiser)
    rnd.save()  # the round saved again (complete): the same plan, not a second one
    assert ScheduledAction.objects.filter(kind=ActionKind.PAIR_NEXT, tournament=swiss8).count() == 1


def test_held_for_the_organiser_when_auto_pairing_is_off(swiss8, organiser):
    DaySettings.objects.filter(tournament=swiss8).update(auto_pair=False)
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)

    runner.run_due()

    assert swiss8.rounds.count() == 1
    told = Notification.objects.get(user=organiser, kind="tournament.round_complete")
    assert "round 1 is complete" in told.text and told.url.endswith("/day/")
    runner.run_due()
    assert Notification.objects.filter(user=organiser, kind="tournament.round_complete").count() == 1


def test_by_default_the_organiser_pairs(club, organiser):
    from tournaments.models import DaySettings as Day

    from .conftest import swiss_with_accounts

    t = swiss_with_accounts(club, organiser, 4)
    Day.objects.filter(tournament=t).delete()
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    runner.run_due()
    assert t.rounds.count() == 1 and Day.objects.get(tournament=t).auto_pair is False


def test_the_last_round_pairs_nothing_more(club, organiser):
    from .conftest import swiss_with_accounts

    t = swiss_with_accounts(club, organiser, 4, rounds=1)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    runner.run_due()
    t.refresh_from_db()
    assert t.status == "finished" and t.rounds.count() == 1


def test_round_one_starts_at_its_time_and_players_are_reminded(swiss8, organiser):
    start = timezone.now() + timedelta(hours=1)
    day = swiss8.day
    day.first_round_at, day.reminder_minutes = start, 15
    day.save()
    runner.run_due()
    assert swiss8.rounds.count() == 0  # not yet

    runner.run_due(now=start - timedelta(minutes=14))  # the reminder is due, the round is not
    assert swiss8.rounds.count() == 0
    ScheduledAction.objects.filter(kind=ActionKind.REMIND).update(due_at=timezone.now())
    ScheduledAction.objects.filter(kind=ActionKind.START_ROUND).update(due_at=timezone.now())
    done = runner.run_due()
    assert swiss8.rounds.count() == 1
    assert any(k.startswith("start_round:") for k in done)
    # the reminder ran before the round was paired (earlier due time): it says so and is done
    remind = ScheduledAction.objects.get(kind=ActionKind.REMIND, round_number=1)
    assert remind.done_at is not None


def test_reminders_reach_each_player_once_on_the_site_and_by_mail(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    match = rnd.matches.get(table=1)
    user = match.home.player_a.user
    user.email = "asel@example.kz"
    user.save()

    day.remind(round_id=rnd.pk)
    day.remind(round_id=rnd.pk)

    notes = Notification.objects.filter(user=user, kind="tournament.reminder")
    assert notes.count() == 1 and "table 1" in notes.get().text
    assert Notification.objects.filter(kind="tournament.reminder").count() == 16


def test_the_pair_with_a_bye_is_told_it_sits_the_round_out(club, organiser):
    from .conftest import swiss_with_accounts

    t = swiss_with_accounts(club, organiser, 5)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    bye = rnd.matches.get(bye=True)
    day.remind(round_id=rnd.pk)
    day.remind(round_id=rnd.pk)
    for player in (bye.home.player_a, bye.home.player_b):
        notes = Notification.objects.filter(user=player.user, kind="tournament.reminder")
        assert [n.text for n in notes] == [f"{t.name}, round 1 starts soon: you have a bye this round."]
    assert Notification.objects.filter(kind="tournament.reminder").count() == 10  # 2 tables + the bye


def test_reminder_mail_is_sent_on_commit(swiss8, organiser, django_capture_on_commit_callbacks):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    from django.contrib.auth import get_user_model

    get_user_model().objects.update(email="")  # no address: the site notice only
    user = rnd.matches.get(table=1).home.player_a.user
    user.email = "asel@example.kz"
    user.save()
    with django_capture_on_commit_callbacks(execute=True):
        day.remind(round_id=rnd.pk)
    assert [m.to for m in mail.outbox] == [["asel@example.kz"]]
    assert "table 1" in mail.outbox[0].subject


def test_check_in_closing_withdraws_pairs_that_did_not_check_in(swiss8, organiser):
    entries = list(swiss8.entries.order_by("seed"))
    for e in entries[:6]:
        services.check_in_entry(actor=organiser, entry=e)
    day = swiss8.day
    day.check_in_closes_at = timezone.now() - timedelta(minutes=1)
    day.save()
    runner.run_due()
    statuses = [e.status for e in swiss8.entries.order_by("seed")]
    assert statuses == [EntryStatus.CHECKED_IN] * 6 + [EntryStatus.WITHDRAWN] * 2


def test_a_matchday_deadline_tells_the_organiser_what_is_unplayed(club, organiser):
    from .conftest import swiss_with_accounts

    league = swiss_with_accounts(club, organiser, 4, name="Лига", format="round_robin", matchday_days=7)
    league.starts_on = (timezone.now() - timedelta(days=30)).date()
    league.save()
    rnd = services.pair_next_round(actor=organiser, tournament=league)
    assert rnd.deadline < timezone.now()
    first = rnd.matches.order_by("table").first()
    services.enter_result(actor=organiser, match=first, home_eyes=12, away_eyes=3)

    runner.run_due()

    note = Notification.objects.get(user=organiser, kind="tournament.matchday_deadline")
    assert "1 match(es) unfinished" in note.text and "tables 2" in note.text


def test_a_failing_plan_does_not_block_the_others(swiss8, organiser, monkeypatch):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    now = timezone.now()
    plans.plan(
        ActionKind.REMIND, tournament_id=swiss8.pk, due_at=now - timedelta(minutes=2), round_number=1
    )
    plans.plan(ActionKind.MATCHDAY_DEADLINE, tournament_id=swiss8.pk, due_at=now, round_number=1)

    def broken(**kwargs):
        raise RuntimeError("mail server down")

    monkeypatch.setattr(day, "remind", broken)
    done = runner.run_due()
    assert len(done) == 2
    failed = ScheduledAction.objects.get(kind=ActionKind.REMIND)
    assert failed.outcome.startswith("failed") and rnd.matches.count() == 4


def test_the_beat_row_is_created_once(db):
    PeriodicTask.objects.filter(name=schedule.DAY_TICK_PLAN).delete()
    schedule.ensure_day_plan()
    schedule.ensure_day_plan()
    row = PeriodicTask.objects.get(name=schedule.DAY_TICK_PLAN)
    assert row.task == schedule.DAY_TICK_TASK and row.interval.every == 30


def test_a_plan_for_a_deleted_round_tolerates_it(swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    plans.plan(
        ActionKind.MATCHDAY_DEADLINE, tournament_id=swiss8.pk, due_at=timezone.now(), round_number=1
    )
    Round.objects.filter(pk=rnd.pk).delete()
    runner.run_due()
    assert ScheduledAction.objects.get(kind=ActionKind.MATCHDAY_DEADLINE).outcome == "no round"
    assert not Match.objects.filter(status=MatchStatus.CONFIRMED, tournament=swiss8, bye=False).exists()
