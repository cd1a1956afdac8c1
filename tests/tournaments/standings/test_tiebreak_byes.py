"""Byes in the tiebreaks on the real database: a late entry's bye is no match won (virtual opponent)."""

import datetime

import pytest
from django.urls import reverse

from tournaments import selectors, services

from ..conftest import make_players, play_round, register_pairs

pytestmark = pytest.mark.django_db


def test_a_late_entry_with_only_a_bye_is_not_level_with_pairs_that_won_a_match(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Швейцарка Успенки", starts_on=datetime.date(2026, 12, 5),
        format="swiss", swiss_rounds=2, seeding="manual",
    )  # fmt: skip
    register_pairs(t, organiser, 4)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    a, b = make_players(club, 2, prefix="Опоздавший")
    late = services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    assert rnd.matches.get(bye=True).home_id == late.pk, "the late pair, lowest, has the bye"
    play_round(rnd, organiser, winner=lambda m: "away")  # round 1's losers win round 2

    lines = selectors.standings(tournament=t).lines
    row = {line.entry.pk: line.row for line in lines}
    winners_of_a_match = [pk for pk, r in row.items() if r.match_points == 1 and pk != late.pk]
    assert len(winners_of_a_match) == 2
    # the bye's virtual opponent had the late pair's 0 points before round 2 and lost it: nothing
    assert (row[late.pk].buchholz, row[late.pk].sonneborn_berger) == (0, 0)
    for pk in winners_of_a_match:
        assert row[pk].buchholz >= 1 and row[pk].place < row[late.pk].place
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "virtual opponent" in page
    assert '<abbr title="Buchholz">Bh</abbr>' in page and '<abbr title="Sonneborn-Berger">SB</abbr>' in page
