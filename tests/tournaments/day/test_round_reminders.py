"""Plans that follow the day settings: a reminder before every round with a start time, check-in
closing; saved again they move (or are cancelled), never doubled, and each is done once."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.formats import matchday_deadline
from tournaments.models import ActionKind, DaySettings, EntryStatus, Notification, ScheduledAction
from tournaments.services import plans, runner

from ..conftest import play_round

pytestmark = pytest.mark.django_db


def _reminders(tournament):
    return {
        a.round_number: a
        for a in ScheduledAction.objects.filter(tournament=tournament, kind=ActionKind.REMIND).exclude(
            key__endswith=":deadline"
        )
    }


def _schedule(tournament, *, start, every, remind=15):
    day = DaySettings.objects.get(tournament=tournament)
    day.first_round_at, day.round_interval_minutes, day.reminder_minutes = start, every, remind
    day.save()
    return day


def test_every_round_with_a_start_time_gets_one_reminder_before_it(swiss8):
    start = timezone.now() + timedelta(hours=2)
    day = _schedule(swiss8, start=start, every=45)

    due = {n: a.due_at for n, a in _reminders(swiss8).items()}
    assert due == {
        1: start - timedelta(minutes=15),
        2: start + timedelta(minutes=30),
        3: start + timedelta(minutes=75),
    }
    day.save()  # the schedule saved again
    plans.plan_tournament(swiss8)
    assert ScheduledAction.objects.filter(kind=ActionKind.REMIND, tournament=swiss8).count() == 3


def test_the_schedule_from_the_dashboard_plans_the_reminders(client, swiss8, organiser):
    client.login(username="organiser", password=PASSWORD)
    form = {
        "action": "settings",
        "first_round_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "round_interval_minutes": 40,
        "reminder_minutes": 10,
        "no_show_minutes": 10,
        "round_minutes": 0,
    }
    for _ in range(2):
        client.post(reverse("tournaments:dashboard_action", kwargs={"slug": swiss8.slug}), form)
    reminders = _reminders(swiss8)
    assert sorted(reminders) == [1, 2, 3]
    assert reminders[3].due_at - reminders[1].due_at == timedelta(minutes=80)


def test_moving_the_schedule_moves_the_reminders_and_dropping_it_cancels_them(swiss8):
    start = timezone.now() + timedelta(hours=2)
    day = _schedule(swiss8, start=start, every=45)
    day.first_round_at = start + timedelta(minutes=30)
    day.save()
    reminders = _reminders(swiss8)
    assert len(reminders) == 3
    assert reminders[2].due_at == start + timedelta(minutes=60)

    day.round_interval_minutes = 0
    day.save()
    reminders = _reminders(swiss8)
    assert reminders[1].done_at is None
    assert [(reminders[n].done_at is not None, reminders[n].outcome) for n in (2, 3)] == [
        (True, "cancelled")
    ] * 2

    day.first_round_at = None
    day.save()
    start_plan = ScheduledAction.objects.get(kind=ActionKind.START_ROUND, tournament=swiss8)
    assert _reminders(swiss8)[1].outcome == "cancelled" and start_plan.outcome == "cancelled"
    runner.run_due(now=start + timedelta(hours=5))
    assert swiss8.rounds.count() == 0  # nothing fires for a time the organiser took away


def test_a_later_rounds_reminder_reaches_each_player_once(swiss8, organiser):
    DaySettings.objects.filter(tournament=swiss8).update(auto_pair=False)
    start = timezone.now() + timedelta(minutes=30)
    _schedule(swiss8, start=start, every=60)
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    round2 = services.pair_next_round(actor=organiser, tournament=swiss8)

    runner.run_due(now=start + timedelta(minutes=46))  # round 2's reminder is due (15 min before)
    runner.run_due(now=start + timedelta(minutes=50))  # a second beat
    plan = _reminders(swiss8)[2]
    assert plan.done_at is not None and plan.outcome == "sent 16"
    notes = Notification.objects.filter(kind="tournament.reminder")
    assert notes.count() == 16  # four tables of four players, once each
    table1 = round2.matches.get(table=1)
    note = notes.get(user=table1.home.player_a.user)
    assert "round 2 starts soon" in note.text and "table 1" in note.text
    assert _reminders(swiss8)[3].done_at is None  # round 3's is still to come


def test_a_round_with_a_deadline_and_a_start_time_keeps_both_reminders(club, organiser):
    from .conftest import swiss_with_accounts

    league = swiss_with_accounts(club, organiser, 4, format="round_robin", matchday_days=7)
    league.starts_on = timezone.localdate()
    league.save()
    start = timezone.now() + timedelta(hours=1)
    _schedule(league, start=start, every=60)
    assert sorted(_reminders(league)) == [1, 2, 3]  # four pairs: three rounds

    services.pair_next_round(actor=organiser, tournament=league)
    round1 = ScheduledAction.objects.filter(kind=ActionKind.REMIND, tournament=league, round_number=1)
    assert sorted(a.due_at for a in round1) == [
        start - timedelta(minutes=15),
        matchday_deadline(league, 1) - timedelta(days=1),
    ]


def test_check_in_closing_moved_later_is_due_again_and_cleared_is_cancelled(swiss8, organiser):
    first, *others = list(swiss8.entries.order_by("seed"))
    day = swiss8.day
    day.check_in_closes_at = timezone.now() - timedelta(minutes=1)
    day.save()
    assert runner.run_due()  # closed with nobody checked in: nobody withdrawn
    plan = ScheduledAction.objects.get(kind=ActionKind.CLOSE_CHECK_IN, tournament=swiss8)
    assert plan.outcome == "nobody checked in"

    later = timezone.now() + timedelta(minutes=20)
    day.check_in_closes_at = later  # the organiser reopens check-in until later
    day.save()
    plan.refresh_from_db()
    assert (plan.done_at, plan.due_at) == (None, later)
    services.check_in_entry(actor=organiser, entry=first)
    runner.run_due(now=later + timedelta(seconds=1))
    assert runner.run_due(now=later + timedelta(seconds=31)) == []
    assert swiss8.entries.filter(status=EntryStatus.WITHDRAWN).count() == len(others)

    day.check_in_closes_at = None
    day.save()
    assert ScheduledAction.objects.filter(kind=ActionKind.CLOSE_CHECK_IN).count() == 1


def test_clearing_the_closing_time_cancels_the_plan(swiss8, organiser):
    day = swiss8.day
    day.check_in_closes_at = timezone.now() + timedelta(minutes=10)
    day.save()
    services.check_in_entry(actor=organiser, entry=swiss8.entries.order_by("seed").first())
    day.check_in_closes_at = None
    day.save()
    runner.run_due(now=timezone.now() + timedelta(hours=1))
    plan = ScheduledAction.objects.get(kind=ActionKind.CLOSE_CHECK_IN, tournament=swiss8)
    assert plan.outcome == "cancelled"
    assert not swiss8.entries.filter(status=EntryStatus.WITHDRAWN).exists()


def test_the_start_and_the_deadline_reminders_are_two_notices_with_their_own_words(club, organiser):
    from .conftest import swiss_with_accounts

    league = swiss_with_accounts(club, organiser, 4, format="round_robin", matchday_days=7)
    league.starts_on = timezone.localdate()
    league.save()
    start = timezone.now() + timedelta(hours=1)
    _schedule(league, start=start, every=60)
    services.pair_next_round(actor=organiser, tournament=league)
    deadline = matchday_deadline(league, 1)

    runner.run_due(now=start)  # round 1's start reminder
    runner.run_due(now=deadline - timedelta(days=1) + timedelta(seconds=1))  # and its deadline's
    runner.run_due(now=deadline - timedelta(days=1) + timedelta(seconds=31))  # a second beat: nothing more
    players = {n.user_id for n in Notification.objects.filter(kind="tournament.reminder")}
    assert len(players) == 8
    for user_id in players:
        notes = Notification.objects.filter(user_id=user_id, kind="tournament.reminder")
        texts = sorted(n.text for n in notes)
        assert len(texts) == 2, texts
        starts, by = sorted(texts, key=lambda t: "starts soon" in t, reverse=True)
        assert "round 1 starts soon" in starts
        day = deadline.astimezone(timezone.get_current_timezone()).day
        assert "play your match at table" in by and f"by {day} " in by


def test_moving_a_rounds_deadline_moves_its_plans_and_clearing_it_cancels_them(club, organiser):
    from .conftest import swiss_with_accounts

    league = swiss_with_accounts(club, organiser, 4, format="round_robin", matchday_days=7)
    league.starts_on = timezone.localdate()
    league.save()
    services.pair_next_round(actor=organiser, tournament=league)
    rnd = league.rounds.get(number=1)
    old = rnd.deadline

    def plans():
        return {
            (a.key.rsplit(":", 1)[-1] if a.key.endswith(":deadline") else a.kind): (
                a.due_at,
                a.done_at,
                a.outcome,
            )
            for a in ScheduledAction.objects.filter(
                tournament=league, round_number=1, kind__in=(ActionKind.MATCHDAY_DEADLINE, ActionKind.REMIND)
            )
        }

    assert plans() == {
        ActionKind.MATCHDAY_DEADLINE: (old, None, ""),
        "deadline": (old - timedelta(days=1), None, ""),
    }
    later = old + timedelta(days=2)
    services.set_round_options(actor=organiser, round=rnd, deadline=later, play_mode=rnd.play_mode)
    assert plans() == {
        ActionKind.MATCHDAY_DEADLINE: (later, None, ""),
        "deadline": (later - timedelta(days=1), None, ""),
    }
    assert runner.run_due(now=old - timedelta(days=1) + timedelta(seconds=1)) == []  # nothing at the old time
    assert not Notification.objects.filter(kind="tournament.reminder").exists()

    services.set_round_options(actor=organiser, round=rnd, deadline=None, play_mode=rnd.play_mode)
    assert {k: v[2] for k, v in plans().items()} == {
        ActionKind.MATCHDAY_DEADLINE: "cancelled",
        "deadline": "cancelled",
    }
    assert runner.run_due(now=later + timedelta(seconds=1)) == []

    services.set_round_options(actor=organiser, round=rnd, deadline=later, play_mode=rnd.play_mode)
    assert plans() == {
        ActionKind.MATCHDAY_DEADLINE: (later, None, ""),
        "deadline": (later - timedelta(days=1), None, ""),
    }


def test_each_player_is_reminded_in_the_language_he_uses_the_site_in(swiss8, organiser):
    start = timezone.now() + timedelta(minutes=30)
    _schedule(swiss8, start=start, every=60)
    round1 = services.pair_next_round(actor=organiser, tournament=swiss8)
    table1 = round1.matches.get(table=1)
    kazakh, ukrainian = table1.home.player_a.user, table1.away.player_a.user
    unknown = table1.home.player_b.user
    type(kazakh).objects.filter(pk=kazakh.pk).update(language="kk")
    type(kazakh).objects.filter(pk=ukrainian.pk).update(language="uk")
    type(kazakh).objects.filter(pk=unknown.pk).update(language="")

    runner.run_due(now=start - timedelta(minutes=14))
    notes = Notification.objects.filter(kind="tournament.reminder", url=table1.get_absolute_url())
    assert "1-тур жақында басталады" in notes.get(user=kazakh).text
    assert "незабаром почнеться тур 1" in notes.get(user=ukrainian).text
    # no language known: the server's (tests: en)
    assert "round 1 starts soon" in notes.get(user=unknown).text
