"""'My matches' says which tournament and which round each match belongs to, not only its table."""

import datetime
import re

import pytest

from tournaments import services

from .conftest import play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db


def test_each_match_is_listed_under_its_round_and_tournament(client, club, organiser):
    swiss = services.create_tournament(
        actor=organiser, club=club, name="Пятничная швейцарка", starts_on=datetime.date(2026, 10, 2),
        format="swiss", swiss_rounds=3,
    )  # fmt: skip
    asel, oleh = player_with_account(club, "asel"), player_with_account(club, "oleh")
    services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    register_pairs(swiss, organiser, 3)
    play_round(services.pair_next_round(actor=organiser, tournament=swiss), organiser)
    services.pair_next_round(actor=organiser, tournament=swiss)

    client.force_login(asel.user)
    page = client.get("/me/matches/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Пятничная швейцарка" in text
    first, second = text.index("Round 1"), text.index("Round 2")
    assert first < second  # both rounds named, in playing order
    assert text.count("Asel") >= 2  # one match under each round
    assert text.index("Asel", first) < second
