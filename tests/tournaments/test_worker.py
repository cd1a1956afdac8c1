"""The auto-confirm sweep through a real Celery worker (a separate process on the test database)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import app as celery_app
from tournaments import services, tasks
from tournaments.models import Match, MatchStatus

from .conftest import play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_worker_auto_confirms_and_completes_the_round(celery_worker_process, club, organiser):
    celery_app.control.purge()  # tasks other tests queued since the worker started are not ours to wait for
    t = services.create_tournament(
        actor=organiser, club=club, name="Ночная швейцарка", format="swiss", swiss_rounds=2, seeding="manual"
    )
    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    services.register_entry(actor=organiser, tournament=t, player_a=asel, player_b=oleh)
    register_pairs(t, organiser, 3)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    mine = rnd.matches.get(table=1)
    services.enter_result(actor=asel.user, match=mine, home_eyes=12, away_eyes=10)
    play_round(rnd, organiser)
    Match.objects.filter(pk=mine.pk).update(
        reported_at=timezone.now() - timedelta(hours=t.auto_confirm_hours + 1)
    )

    done = tasks.auto_confirm_results.delay().get(timeout=60)

    assert done == [mine.pk], celery_worker_process.log()
    mine.refresh_from_db()
    rnd.refresh_from_db()
    assert mine.status == MatchStatus.CONFIRMED and mine.confirmed_how == "auto"
    assert rnd.status == "complete"
    assert tasks.auto_confirm_results.delay().get(timeout=60) == []
    assert services.pair_next_round(actor=organiser, tournament=t).number == 2
    # The pairing queued a notification; the solo worker runs tasks in order, so once this one
    # answers it is idle and the database can be flushed without racing a running task.
    assert tasks.auto_confirm_results.delay().get(timeout=60) == []
