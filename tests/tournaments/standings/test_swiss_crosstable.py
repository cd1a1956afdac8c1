"""The Swiss crosstable: every pair's rounds (opponent, seat, score), linked from the event's tabs."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tournaments import selectors, services
from tournaments.selectors.standings import round_crosstable

from ..conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Швейцарка", starts_on=datetime.date(2026, 12, 5), format="swiss",
        swiss_rounds=3, seeding="manual",
    )  # fmt: skip
    register_pairs(t, organiser, 5)
    for _ in range(2):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    services.pair_next_round(actor=organiser, tournament=t)  # round 3 paired, not played
    return t


def test_swiss_crosstable_lists_each_rounds_opponent_seat_and_score(client, swiss):
    t = swiss
    url = reverse("tournaments:crosstable", args=[t.slug])
    standings_page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert f'href="{url}"' in standings_page, "the crosstable is one of the Swiss event's tabs"
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()

    grid = round_crosstable(tournament=t)
    assert grid.rounds == [1, 2, 3]
    lines = selectors.standings(tournament=t).lines
    assert [line.entry for _n, line, _c in grid.rows] == [line.entry for line in lines]
    number = {line.entry.pk: n for n, line, _c in grid.rows}
    m = t.matches.filter(round__number=1, bye=False).first()
    home_cell = grid.rows[number[m.home_id] - 1][2][0]
    away_cell = grid.rows[number[m.away_id] - 1][2][0]
    assert (home_cell.opponent, home_cell.seat, home_cell.score) == (
        number[m.away_id], "NS", f"{m.home_eyes}:{m.away_eyes}")  # fmt: skip
    away_won = m.winner_id == m.away_id
    assert (away_cell.opponent, away_cell.seat, away_cell.won) == (number[m.home_id], "EW", away_won)
    bye = t.matches.get(round__number=1, bye=True)
    assert grid.rows[number[bye.home_id] - 1][2][0].bye
    third = [row[2][2] for row in grid.rows]
    assert all(c is None or c.bye or (c.opponent and c.score == "") for c in third), "round 3 is not played"

    row = page[page.index(escape(lines[0].entry.name)) :]
    row = row[: row.index("</tr>")]
    assert len(re.findall(r'<span class="seat">(N–S|E–W)</span>', row)) + row.count(">bye<") == 3


def test_swiss_crosstable_names_the_seats_in_the_readers_language(client, swiss):
    page = client.get(reverse("tournaments:crosstable", args=[swiss.slug]), HTTP_ACCEPT_LANGUAGE="ru").content
    text = page.decode()
    assert "С–Ю" in text and "В–З" in text and "N–S" not in text
    page = client.get(reverse("tournaments:crosstable", args=[swiss.slug]), HTTP_ACCEPT_LANGUAGE="uk").content
    assert "Пн–Пд" in page.decode()
