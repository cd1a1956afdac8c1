"""The demo's two duplicate events: finished, every board played at every table, the online one's
tables archived and its seed shown, the over-the-board one entered per board; a second run changes
nothing."""

import pytest
from django.core.management import call_command

from archive.models import ArchivedMatch
from tournaments.formats import format_of
from tournaments.management.commands.seed_demo_duplicate import ONLINE, OVER_THE_BOARD
from tournaments.models import BoardResult, Match, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def test_seed_demo_duplicate_makes_two_finished_events_once(client):
    call_command("seed_demo")
    call_command("seed_demo_duplicate")
    counts = (Tournament.objects.count(), Match.objects.count(), BoardResult.objects.count())
    call_command("seed_demo_duplicate")
    assert (Tournament.objects.count(), Match.objects.count(), BoardResult.objects.count()) == counts

    web = Tournament.objects.get(name=ONLINE)
    assert web.status == TournamentStatus.FINISHED and web.rounds.count() == 3
    how = BoardResult.objects.filter(match__tournament=web).values_list("entered_how", flat=True)
    assert set(how) == {"online"}
    assert BoardResult.objects.filter(match__tournament=web).count() == 3 * 2 * 2  # rounds × tables × boards
    assert ArchivedMatch.objects.filter(tournament=web.pk, public=True, reason="boards").count() == 6
    assert len({line.row.match_points for line in format_of(web).standings().lines}) > 1  # not all 50 %
    page = client.get(f"/t/{web.slug}/boards/", HTTP_ACCEPT_LANGUAGE="ru")
    checks = page.context["seed_checks"]
    assert len(checks) == 6 and all(row.ok for row in checks)

    club = Tournament.objects.get(name=OVER_THE_BOARD)
    assert club.status == TournamentStatus.FINISHED and club.rounds.count() == 3  # 3 tables of a Mitchell
    rows = BoardResult.objects.filter(match__tournament=club)
    assert rows.count() == 3 * 3 * 2 and {r.entered_how for r in rows} != {"online"}
    assert len({r.ns_points for r in rows}) > 3  # played out, not one figure everywhere
    lines = format_of(club).standings().lines
    assert len(lines) == 6 and len({line.row.match_points for line in lines}) > 2
