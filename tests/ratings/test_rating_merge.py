"""Two records of one player merged: the history is recomputed under the survivor, and everyone it
moved is told it was a merge."""

import datetime

import pytest
from django.utils import timezone

from archive import services as archive_services
from clubs import services as club_services
from clubs.models import ClubPlayer
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.models import Cause, PlayerRating, RatingMove, RatingRun
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _play(four, seed, at, deliver):
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    seats = [archive_services.SeatIn(seat=s, name=p.display_name, player_id=p.pk) for s, p in enumerate(four)]
    m = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="tournament", seats=seats, rules={}, played_at=at, ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner], reason="eyes", record=write_record(state), tournament=77_777,
        tournament_match=70_000 + seed, event_name="Winter Cup", rated=True))
    deliver(ratings.match_changed, sender=None, match_id=m.pk, change="created", players=[])


def test_a_merge_recomputes_and_tells_why(club, organiser, deliver):
    players = [PlayerFactory(display_name=f"Игрок {i}") for i in range(6)]
    twin = PlayerFactory(display_name="Игрок 0 (дубль)")
    for p in (*players, twin):
        ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
    start = timezone.now() - datetime.timedelta(days=10)
    _play(players[:4], 1, start, deliver)
    _play([twin, *players[3:6]], 2, start + datetime.timedelta(days=1), deliver)
    _play([players[0], players[4], players[1], players[5]], 3, start + datetime.timedelta(days=2), deliver)
    assert PlayerRating.objects.filter(player=twin).exists()
    deliver(club_services.merge_players, actor=organiser, club=club, source=twin, target=players[0])
    run = RatingRun.objects.filter(status="done").order_by("-pk").first()
    assert run.cause == Cause.MERGED and run.about == players[0].display_name
    assert not PlayerRating.objects.filter(player=twin).exists()
    assert PlayerRating.objects.get(player=players[0]).matches == 3
    assert RatingMove.objects.filter(run=run).exists()
