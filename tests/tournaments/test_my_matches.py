"""'My matches' says which tournament and which round each match belongs to, not only its table."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from archive.models import SeatKind
from gameplay.engine import Rules, write_record
from gameplay.engine.selfplay import bot_match
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


def test_my_matches_lists_my_casual_games_and_not_others(client, club):
    """A player's casual games (live tables, archived when they end) are among his matches; a game
    he did not sit in, and a tournament match, are not in that list."""
    asel = player_with_account(club, "asel")
    other = player_with_account(club, "oleh")

    def casual(player, seed):
        state = bot_match(Rules(), seed=seed)
        seats = [archive_services.SeatIn(seat=0, name=player.display_name, player_id=player.pk,
                                         user_id=player.user_id)]
        seats += [archive_services.SeatIn(seat=s, name="Бот", kind=SeatKind.BOT, bot_level="beginner")
                  for s in (1, 2, 3)]
        return archive_services.archive_match(played=archive_services.PlayedMatch(
            source="table", seats=seats, rules={}, played_at=timezone.now(), ns_eyes=state.capped_score[0],
            ew_eyes=state.capped_score[1], winner="NS" if state.winner == 0 else "EW",
            record=write_record(state), public=False))

    mine, theirs = casual(asel, 1), casual(other, 2)
    client.force_login(asel.user)
    page = client.get("/me/matches/").content.decode()
    casual_part = page.split('id="casual-games"', 1)[1]
    assert reverse("archive:match", kwargs={"pk": mine.pk}) in casual_part
    assert reverse("archive:match", kwargs={"pk": theirs.pk}) not in page
    assert reverse("archive:player", kwargs={"pk": asel.pk}) in casual_part
