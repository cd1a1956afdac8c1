"""The site's home page leads a new visitor to play: "Play now vs bots", tables to watch, tournaments."""

import datetime

import pytest

from gameplay.models import Seat, Table, TableStatus
from tests.clubs.factories import ClubFactory
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _playing_table() -> Table:
    table = Table.objects.create(status=TableStatus.PLAYING)
    Seat.objects.create(table=table, seat=0, name="Әсел")
    for seat in (1, 2, 3):
        Seat.objects.create(table=table, seat=seat, is_bot=True, name=f"Bot {seat}")
    return table


def test_home_leads_with_play_now_then_live_tables_then_tournaments(client):
    club = ClubFactory(name="Успенка", slug="uspenka")
    table = _playing_table()
    Table.objects.create(status=TableStatus.FINISHED)
    today = datetime.date.today()
    Tournament.objects.create(club=club, name="Чемпионат Успенки", slug="champ", starts_on=today,
                              status=TournamentStatus.RUNNING)
    Tournament.objects.create(club=club, name="Кубок", slug="cup", starts_on=today, self_registration=True)
    Tournament.objects.create(club=club, name="Старый кубок", slug="old", starts_on=today,
                              status=TournamentStatus.FINISHED)

    page = client.get("/").content.decode()
    play_now = page.index('action="/tables/play-now/"')
    watch = page.index(f'href="/tables/{table.pk}/"')
    events = page.index('href="/t/champ/"')
    assert play_now < watch < events < page.index('id="clubs"')
    assert "Әсел" in page and "3 bots at the table" in page
    assert 'href="/t/cup/"' in page and 'href="/t/old/"' not in page  # current events, not the archive
    assert 'href="/tournaments/"' in page


def test_home_says_so_when_nobody_is_playing(client):
    page = client.get("/").content.decode()
    assert "Nobody is playing right now" in page and 'action="/tables/play-now/"' in page
