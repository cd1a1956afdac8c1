"""The demo tournaments: made once on top of seed_demo, a second run changes nothing."""

import pytest
from django.core.management import call_command

from tournaments import selectors
from tournaments.models import Match, Tournament, TournamentStatus
from tournaments.selectors import standings as individual_standings_view

pytestmark = pytest.mark.django_db


def test_seed_demo_tournaments_is_idempotent():
    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    counts = (Tournament.objects.count(), Match.objects.count())
    call_command("seed_demo_tournaments")
    assert (Tournament.objects.count(), Match.objects.count()) == counts == (4, counts[1])
    cup = Tournament.objects.get(name="Осенний кубок Успенки")
    assert cup.status == TournamentStatus.FINISHED and selectors.bracket(tournament=cup).champion is not None
    swiss = Tournament.objects.get(name="Чемпионат Успенки 2026")
    assert swiss.status == TournamentStatus.RUNNING and swiss.rounds.count() == 3
    assert len(selectors.standings(tournament=swiss).lines) == 7
    mix = Tournament.objects.get(name="Белка-микс: индивидуальный турнир")
    assert mix.rounds.count() == 3 and mix.individual_entries.count() == 13
    assert len(individual_standings_view(tournament=mix).lines) == 13
