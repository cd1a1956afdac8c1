"""A rating per game on every board and card: the leaderboard's game switch (Bilka by default,
Kozyol khvalyony, Bilka for two), the player's card and page with each game's rating labelled,
the chart per game, the API's ``game``, the live table's preview in its game's rating, and the
same privacy for every game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from archive.models import ArchivedMatch
from gameplay import services as table_services
from gameplay.models import Seating, Table
from ratings.models import KOZYOL, PlayerRating
from ratings.selectors import table_odds
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.ratings.other_games import BILKA_TWO as TWO_RULES
from tests.ratings.other_games import KOZYOL as KOZYOL_RULES
from tests.ratings.other_games import archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(db, settings):
    """Four Kozyol players with three matches each, two players of Bilka for two with three; nobody
    has a Bilka rating."""
    settings.RATING_BOARD_MIN_MATCHES = 3
    kozyol = [PlayerFactory(display_name=f"Козёл {i}", city="Успенка") for i in range(4)]
    two = [PlayerFactory(display_name=f"Двое {i}") for i in range(2)]
    for i in range(3):
        m = archive(KOZYOL_RULES, kozyol, seed=40 + i, day=i)
        ratings.match_changed(sender=None, match_id=m.pk, change="created", players=[])
        m = archive(TWO_RULES, two, seed=50 + i, day=i + 0.5)
        ratings.match_changed(sender=None, match_id=m.pk, change="created", players=[])
    return kozyol, two


def test_the_board_switches_between_the_games(client, field):
    kozyol, two = field
    page = client.get(reverse("ratings:board")).content.decode()
    for slug in ("bilka", "kozyol", "bilka2"):
        assert f'href="?game={slug}"' in page  # the switch is linked on the page
    assert 'aria-current="page" data-game="bilka"' in page
    assert "Nobody has enough rated matches here yet." in page  # Bilka's board: none of them
    assert not any(p.display_name in page for p in (*kozyol, *two))
    page = client.get(reverse("ratings:board"), {"game": "kozyol"}).content.decode()
    assert 'aria-current="page" data-game="kozyol"' in page and "Kozyol khvalyony" in page
    assert all(p.display_name in page for p in kozyol) and not any(p.display_name in page for p in two)
    assert f'{reverse("archive:player", args=[kozyol[0].pk])}?rating=kozyol#rating' in page
    assert "?game=kozyol" in page  # the city list keeps the game
    page = client.get(reverse("ratings:board"), {"game": "bilka2"}).content.decode()
    assert all(p.display_name in page for p in two) and not any(p.display_name in page for p in kozyol)
    city = client.get(reverse("ratings:city", args=["Успенка"]), {"game": "kozyol"}).content.decode()
    assert all(p.display_name in city for p in kozyol)


def test_an_unknown_game_is_a_page_not_found(client, field):
    assert client.get(reverse("ratings:board"), {"game": "durak"}).status_code == 404
    assert client.get(reverse("ratings:board"), {"game": "bilka4"}).status_code == 404


def test_the_card_names_each_game_the_player_has_a_rating_in(client, field):
    kozyol, two = field
    page = client.get(reverse("archive:player", args=[kozyol[0].pk])).content.decode()
    assert 'data-game="kozyol"' in page
    assert 'data-game="bilka2"' not in page and 'data-game="bilka"' not in page
    row = PlayerRating.objects.get(player=kozyol[0], game=KOZYOL)
    assert f"<strong>{row.rating:.0f}</strong>" in page
    assert '<h3 class="rating-game">Kozyol khvalyony</h3>' in page  # his only game is shown at once
    assert "3 rated matches shown" in page and "rc-svg" in page
    asked = client.get(reverse("archive:player", args=[kozyol[0].pk]), {"rating": "bilka2"}).content.decode()
    assert "No rated matches of Bilka for two yet." in asked
    card = client.get(reverse("archive:player", args=[two[0].pk])).content.decode()
    card = card[card.index('id="rating"'):]
    card = card[:card.index("</section>")]
    assert '<h3 class="rating-game">Bilka for two</h3>' in card and "partner" not in card
    assert "against</span> <a" in card  # his opponent, one player
    detail = client.get(reverse("clubs:player_detail", args=[two[0].pk])).content.decode()
    assert 'data-game="bilka2"' in detail and "Bilka for two" in detail


def test_the_chart_is_per_game(client, field):
    kozyol, _two = field
    url = reverse("ratings:chart", args=[kozyol[0].pk])
    assert client.get(url).content.decode().count("rc-point") == 0  # no Bilka rating
    drawn = client.get(url, {"game": "kozyol"}).content.decode()
    assert drawn.count('class="rc-point"') == 3 and "Kozyol khvalyony:" in drawn
    assert client.get(url, {"game": "nope"}).status_code == 404


def test_the_api_leaderboard_takes_a_game(client, field):
    kozyol, two = field
    assert client.get("/api/v1/ratings/").json()["count"] == 0
    rows = client.get("/api/v1/ratings/", {"game": "kozyol"}).json()["results"]
    assert {r["player"]["id"] for r in rows} == {p.pk for p in kozyol}
    assert {r["game"] for r in rows} == {"kozyol"} and all(r["matches"] == 3 for r in rows)
    rows = client.get("/api/v1/ratings/", {"game": "bilka2"}).json()["results"]
    assert {r["player"]["id"] for r in rows} == {p.pk for p in two}
    refused = client.get("/api/v1/ratings/", {"game": "durak"})
    assert refused.status_code == 400 and "game" in refused.content.decode()
    schema = client.get("/api/schema/").content.decode()
    assert "bilka2" in schema and "kozyol" in schema


def test_a_private_kozyol_match_lends_a_stranger_nothing(client, field):
    kozyol, _two = field
    hidden = archive(KOZYOL_RULES, kozyol, seed=60, day=5, public=False)
    ratings.match_changed(sender=None, match_id=hidden.pk, change="created", players=[])
    assert hidden.rating_changes.filter(game=KOZYOL).count() == 4
    stranger = UserFactory()
    client.force_login(stranger)
    page = client.get(reverse("archive:player", args=[kozyol[0].pk])).content.decode()
    assert "3 rated matches shown" in page
    assert reverse("archive:match", args=[hidden.pk]) not in page
    rows = client.get("/api/v1/ratings/", {"game": "kozyol"}).json()["results"]
    assert all(r["matches"] == 3 for r in rows)
    assert ArchivedMatch.objects.filter(pk=hidden.pk, public=False).exists()


def test_a_live_kozyol_table_previews_in_the_kozyol_rating(client, field):
    kozyol, _two = field
    for i, p in enumerate(kozyol):
        p.user = UserFactory(username=f"kozyol{i}")
        p.save()
    table = table_services.create_table(rules=dict(KOZYOL_RULES), seating=Seating.IN_ORDER,
                                        user=kozyol[0].user, public=True, rated=True)
    for p in kozyol[1:]:
        table_services.sit(table_id=table.pk, user=p.user)
    odds = table_odds(Table.objects.get(pk=table.pk))
    assert odds.game.key == KOZYOL and odds.prediction is not None
    rows = {r.player_id: r.rating for r in PlayerRating.objects.filter(game=KOZYOL)}
    assert [s.rating for s in odds.prediction.home] == pytest.approx([rows[kozyol[0].pk], rows[kozyol[2].pk]])
    client.force_login(kozyol[0].user)
    page = client.get(reverse("gameplay:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Kozyol khvalyony rating" in page and f"{odds.prediction.home_percent}%" in page
