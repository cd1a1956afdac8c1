"""The standings pages show the figures of the tiebreaks the event states, with their heads explained."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from tournaments import selectors, services

from ..conftest import make_players, play_round, register_pairs

pytestmark = pytest.mark.django_db


def _heads(page: str) -> list[str]:
    thead = page[page.index("<thead>") : page.index("</thead>")]
    return re.findall(r'<abbr title="[^"]*">([^<]+)</abbr>', thead)


def test_individual_standings_show_the_stated_tiebreaks_and_explain_every_head(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Индивидуалка", starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss", swiss_rounds=3, tiebreaks=["sonneborn_berger", "buchholz", "eye_difference"],
    )  # fmt: skip
    for p in make_players(club, 9, "Игрок"):
        services.register_player(actor=organiser, tournament=t, player=p)
    for _ in range(2):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert _heads(page) == ["#", "Pts", "P", "±", "SB", "Bh"]
    legend = page[page.index('<dl class="legend') :]
    for head, meaning in [("Pts", "Match points"), ("P", "Played"), ("±", "Eye difference"),
                          ("SB", "Sonneborn-Berger"), ("Bh", "Buchholz")]:  # fmt: skip
        assert f"<dt>{head}</dt><dd>{meaning}</dd>" in legend
    lines = selectors.standings(tournament=t).lines
    assert any(line.row.sonneborn_berger > 0 for line in lines)
    assert page.count('<td class="num">') == len(lines) * 5  # a cell for each of the five columns
    data = json.loads(client.get(reverse("tournaments:export", args=[t.slug, "standings", "json"])).content)
    exported = {r["player_id"]: r["sonneborn_berger"] for r in data["standings"]}
    assert exported == {line.entry.player_id: line.row.sonneborn_berger for line in lines}


def test_pairs_standings_columns_follow_the_event_tiebreaks(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Лига", starts_on=datetime.date(2026, 11, 7), format="round_robin",
        tiebreaks=["head_to_head", "eyes_scored", "lucy"],
    )  # fmt: skip
    register_pairs(t, organiser, 3)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert _heads(page) == ["#", "Pts", "P", "±", "Eyes", "L"]
    assert "<dt>L</dt><dd>Lucy deals</dd>" in page
