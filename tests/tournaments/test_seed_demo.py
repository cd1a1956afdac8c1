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
    assert (Tournament.objects.count(), Match.objects.count()) == counts == (5, counts[1])
    cup = Tournament.objects.get(name="Осенний кубок Успенки")
    assert cup.status == TournamentStatus.FINISHED and selectors.bracket(tournament=cup).champion is not None
    swiss = Tournament.objects.get(name="Чемпионат Успенки 2026")
    assert swiss.status == TournamentStatus.RUNNING and swiss.rounds.count() == 3
    assert len(selectors.standings(tournament=swiss).lines) == 7
    mix = Tournament.objects.get(name="Белка-микс: индивидуальный турнир")
    assert mix.rounds.count() == 3 and mix.individual_entries.count() == 13
    assert len(individual_standings_view(tournament=mix).lines) == 13


def test_the_demo_accounts_have_notices_and_a_table_is_being_played_mid_deal(client):
    from gameplay.models import Table, TableStatus
    from gameplay.selectors import load_state
    from tournaments.models import Notification

    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    for username in ("demo", "organiser", "asel", "oleh"):
        assert Notification.objects.filter(user__username=username).exists(), username
    live = Table.objects.get(status=TableStatus.PLAYING)
    oleh = live.seats.get(is_bot=False)
    assert oleh.user.username == "oleh" and live.seats.filter(is_bot=True).count() == 3
    state = load_state(live)
    assert state.to_move == oleh.seat and 1 <= sum(state.tricks_taken) < 8  # mid-deal, Oleh to play

    counts = (Notification.objects.count(), Table.objects.count())
    call_command("seed_demo_tournaments")
    assert (Notification.objects.count(), Table.objects.count()) == counts  # safe to repeat

    assert client.get(f"/tables/{live.pk}/").status_code == 200  # a visitor watches it
    assert f'href="/tables/{live.pk}/"' in client.get("/").content.decode()


def test_the_demo_events_are_played_on_their_own_days():
    """The archive and the ratings learn an entered result at its round's pairing: the demo's rounds
    are put at their evening (an hour apart, a league's a matchday apart), so the ratings' history
    and charts show the events on their days, in order, not every match at the minute the seed ran."""
    import datetime

    from django.utils import timezone

    from archive.models import ArchivedMatch

    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    now = timezone.now()
    for name in ("Осенний кубок Успенки", "Пятничная лига", "Чемпионат Успенки 2026"):
        t = Tournament.objects.get(name=name)
        mine = Match.objects.filter(round__tournament=t).values("pk")
        played = list(ArchivedMatch.objects.filter(tournament_match__in=mine)
                      .order_by("round_number").values_list("round_number", "played_at"))
        assert played and all(when <= now for _, when in played), name
        by_round = {}
        for number, when in played:
            by_round.setdefault(number, set()).add(when)
        assert all(len(times) == 1 for times in by_round.values()), (name, by_round)  # a round, an evening
        times = [next(iter(by_round[n])) for n in sorted(by_round)]
        assert times == sorted(times) and len(set(times)) == len(times), name
        if t.starts_on < now.date():
            assert timezone.localtime(times[0]).date() == t.starts_on, name
    league = Tournament.objects.get(name="Пятничная лига")
    rounds = list(league.rounds.order_by("number").values_list("created_at", flat=True))
    assert rounds[1] - rounds[0] == datetime.timedelta(days=league.matchday_days)
