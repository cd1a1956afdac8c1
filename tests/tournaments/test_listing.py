"""The /tournaments/ page: a visitor finds every club's events without knowing a club."""

import datetime

import pytest

from tests.clubs.factories import ClubFactory
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 20)


def _event(club, name, status, *, days=0, self_registration=False):
    return Tournament.objects.create(
        club=club, name=name, slug=f"t-{Tournament.objects.count()}-{club.slug}", status=status,
        starts_on=TODAY + datetime.timedelta(days=days), self_registration=self_registration,
    )  # fmt: skip


def _section(page: str, section: str) -> str:
    start = page.index(f'id="{section}"')
    return page[start : page.index("</section>", start)]


def test_the_menu_leads_to_every_clubs_events_in_four_sections(client):
    uspenka = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    pavlodar = ClubFactory(name="Белка Павлодар", slug="pavlodar", city="Павлодар")
    _event(uspenka, "Чемпионат Успенки", TournamentStatus.RUNNING)
    _event(pavlodar, "Кубок Иртыша", TournamentStatus.REGISTRATION, days=5, self_registration=True)
    _event(uspenka, "Зимняя лига", TournamentStatus.REGISTRATION, days=30)
    _event(pavlodar, "Осенний кубок", TournamentStatus.FINISHED, days=-30)

    home = client.get("/").content.decode()
    assert 'href="/tournaments/"' in home
    page = client.get("/tournaments/").content.decode()
    assert "Чемпионат Успенки" in _section(page, "live")
    assert "Кубок Иртыша" in _section(page, "open") and "Белка Павлодар" in _section(page, "open")
    assert "Зимняя лига" in _section(page, "upcoming")
    assert "Осенний кубок" in _section(page, "finished")
    assert "Кубок Иртыша" not in _section(page, "upcoming")


def test_filter_by_club_and_by_city(client):
    uspenka = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    pavlodar = ClubFactory(name="Белка Павлодар", slug="pavlodar", city="Павлодар")
    _event(uspenka, "Чемпионат Успенки", TournamentStatus.RUNNING)
    _event(pavlodar, "Кубок Иртыша", TournamentStatus.RUNNING)

    by_club = client.get("/tournaments/", {"club": "pavlodar"}).content.decode()
    assert "Кубок Иртыша" in _section(by_club, "live") and "Чемпионат Успенки" not in by_club
    by_city = client.get("/tournaments/", {"city": "Успенка"}).content.decode()
    assert "Чемпионат Успенки" in _section(by_city, "live") and "Кубок Иртыша" not in by_city


def test_an_unknown_club_is_named_and_the_city_filter_still_applies(client):
    uspenka = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    pavlodar = ClubFactory(name="Белка Павлодар", slug="pavlodar", city="Павлодар")
    _event(uspenka, "Чемпионат Успенки", TournamentStatus.RUNNING)
    _event(pavlodar, "Кубок Иртыша", TournamentStatus.RUNNING)

    response = client.get("/tournaments/", {"club": "no-such-club", "city": "Павлодар"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "There is no such club." in page
    assert "Кубок Иртыша" in _section(page, "live") and "Чемпионат Успенки" not in page
    ru = client.get("/tournaments/", {"club": "no-such-club"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Такого клуба нет." in ru


def test_finished_events_come_a_page_at_a_time_and_keep_the_filter(client):
    uspenka = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    other = ClubFactory(name="Другой", slug="other", city="Павлодар")
    for i in range(25):
        _event(uspenka, f"Вечер {i:02d}", TournamentStatus.FINISHED, days=-i)
    _event(other, "Чужой вечер", TournamentStatus.FINISHED, days=-100)

    first = client.get("/tournaments/", {"club": "uspenka"}).content.decode()
    finished = _section(first, "finished")
    assert "Вечер 00" in finished and "Вечер 19" in finished and "Вечер 20" not in finished
    assert "Page 1 of 2" in finished and "?club=uspenka&amp;page=2" in finished
    second_page = client.get("/tournaments/", {"club": "uspenka", "page": 2}).content.decode()
    second = _section(second_page, "finished")
    assert "Вечер 20" in second and "Вечер 24" in second and "Вечер 00" not in second
    assert "Чужой вечер" not in second
    # A page past the end or not a number shows a real page rather than an error.
    assert client.get("/tournaments/", {"page": "zzz"}).status_code == 200
