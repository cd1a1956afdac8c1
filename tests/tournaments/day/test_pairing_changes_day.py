"""What hangs on a pairing follows it when it is unpaired or changed: live tables, plans, reminders."""

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import services as tables
from gameplay.models import Seat, Table, TableEvent, TableStatus
from tournaments import services
from tournaments.models import ActionKind, Match, Notification, ScheduledAction
from tournaments.services import runner

from ..conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(online8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    return rnd


def _users_at(table_id):
    return set(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True))


def _players(match):
    return {
        match.home.player_a.user_id,
        match.home.player_b.user_id,
        match.away.player_a.user_id,
        match.away.player_b.user_id,
    }


def test_live_tables_of_an_unpaired_round_are_called_off(online8, started, organiser):
    opened = list(started.matches.values_list("live_table", flat=True))
    assert len(opened) == 4 and all(opened)

    services.unpair_round(actor=organiser, round=started)

    for table in Table.objects.filter(pk__in=opened):
        assert table.status == TableStatus.FINISHED
        assert table.result["reason"] == "cancelled" and table.result["winner"] is None
        assert TableEvent.objects.filter(table=table, kind="cancelled").count() == 1
    state = tables.load_state(Table.objects.get(pk=opened[0]))
    outcome = tables.resign(table_id=opened[0], seat=state.to_move or 0)
    assert not outcome.ok and outcome.code == "finished"  # nobody plays on at a called-off table


def test_after_unpairing_the_plans_of_the_round_do_nothing_and_a_new_pairing_gets_its_own(
    online8, started, organiser
):
    no_show = ScheduledAction.objects.get(kind=ActionKind.NO_SHOW, round_number=1)
    assert no_show.done_at is None

    services.unpair_round(actor=organiser, round=started)

    no_show.refresh_from_db()
    assert no_show.done_at is not None and no_show.outcome == "cancelled: unpaired"
    ScheduledAction.objects.filter(done_at__isnull=True).update(due_at=timezone.now())
    runner.run_due()
    assert not online8.rounds.exists()  # no plan paired the round again behind the organiser's back
    assert not Notification.objects.filter(kind="tournament.both_absent").exists()

    again = services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    assert again.matches.filter(live_table__isnull=False).count() == 4  # its own start opened tables
    assert (
        ScheduledAction.objects.filter(kind=ActionKind.NO_SHOW, round_number=1, done_at__isnull=True).count()
        == 1
    )


def test_a_deadline_reminder_of_an_unpaired_round_is_cancelled(swiss8, organiser):
    """swiss8 pairs itself: the plan that would pair round 2 after round 1 has not run yet either."""
    services.pair_next_round(actor=organiser, tournament=swiss8)
    play_round(swiss8.rounds.get(number=1), organiser)
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    services.set_round_options(actor=organiser, round=rnd, deadline=timezone.now() + timedelta(days=3))
    reminder = ScheduledAction.objects.get(kind=ActionKind.REMIND, key__endswith=":2:deadline")
    assert reminder.done_at is None

    services.unpair_round(actor=organiser, round=rnd)

    reminder.refresh_from_db()
    assert reminder.outcome == "cancelled: unpaired"
    ScheduledAction.objects.filter(done_at__isnull=True).update(due_at=timezone.now())
    runner.run_due()
    assert not Notification.objects.filter(kind="tournament.reminder").exists()
    assert not swiss8.rounds.filter(number=2).exists()


def test_a_start_reminder_after_an_edit_names_the_new_table(swiss8, organiser):
    day = swiss8.day
    day.first_round_at, day.reminder_minutes = timezone.now() + timedelta(hours=1), 15
    day.save()
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)
    moved = one.home

    services.swap_in_round(actor=organiser, round=rnd, first=one.home_id, second=two.home_id)
    ScheduledAction.objects.filter(kind=ActionKind.REMIND, round_number=1).update(due_at=timezone.now())
    runner.run_due()

    note = Notification.objects.get(user=moved.player_a.user, kind="tournament.reminder")
    assert "you play at table 2" in note.text


def test_a_swap_in_a_started_online_round_calls_off_the_old_tables_and_opens_new_ones(
    online8, started, organiser
):
    one, two, three = (started.matches.get(table=n) for n in (1, 2, 3))
    old = {one.pk: one.live_table, two.pk: two.live_table}

    services.swap_in_round(actor=organiser, round=started, first=one.away_id, second=two.away_id)

    for match_id, table_id in old.items():
        assert Table.objects.get(pk=table_id).result["reason"] == "cancelled"
        match = Match.objects.select_related(
            "home__player_a", "home__player_b", "away__player_a", "away__player_b"
        ).get(pk=match_id)
        assert match.live_table not in (None, table_id)
        assert Table.objects.get(pk=match.live_table).status == TableStatus.PLAYING
        assert _users_at(match.live_table) == _players(match)
        for user_id in _players(match):
            assert Notification.objects.filter(
                user_id=user_id, kind="tournament.table_ready", url=f"/tables/{match.live_table}/"
            ).exists()
    three.refresh_from_db()
    assert Table.objects.get(pk=three.live_table).status == TableStatus.PLAYING  # untouched


def test_a_called_off_table_finishing_writes_no_result(online8, started, organiser):
    one, two = started.matches.get(table=1), started.matches.get(table=2)
    old = one.live_table
    services.swap_in_round(actor=organiser, round=started, first=one.away_id, second=two.away_id)
    from tournaments.services import online

    assert online.record_table_result(table_id=old) == "no_match"
    one.refresh_from_db()
    assert one.status == "scheduled" and not one.has_result
