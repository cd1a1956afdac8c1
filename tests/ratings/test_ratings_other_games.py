"""Only Bilka is rated: a match of Kozyol khvalyony reaches the archive unrated, and neither the
learning of one match nor a full recompute counts it, even where a row says it is rated."""

from __future__ import annotations

import datetime
import random

import pytest
from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch
from gameplay.engine.cards import PAIRS
from gameplay.engine.games import new_match, rules_from_json
from gameplay.engine.kozyol import KozyolMatchState
from gameplay.engine.record_games import write_game_record
from gameplay.engine.variant_bot import choose_action
from ratings.models import PlayerRating, RatingChange
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _kozyol_match(seed: int) -> KozyolMatchState:
    state = new_match(rules_from_json({"game": "kozyol"}), seed=seed)
    assert isinstance(state, KozyolMatchState)
    rng = random.Random(seed)  # noqa: S311 - test players
    while state.winner is None:
        seat = state.redeal_pending[0] if state.redeal_pending else state.to_move
        state.apply(choose_action(state.observation(seat), rng), seat)
    return state


def test_a_kozyol_match_of_four_players_is_never_rated(db):
    four = [PlayerFactory(display_name=f"Игрок {i}") for i in range(4)]
    state = _kozyol_match(3)
    played = archive_services.PlayedMatch(
        source="table", seats=[archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk)
                               for i, p in enumerate(four)],
        rules={"game": "kozyol"}, played_at=timezone.now() - datetime.timedelta(days=1),
        ns_eyes=state.capped_score[0], ew_eyes=state.capped_score[1], winner=PAIRS[state.winner],
        reason="eyes", record=write_game_record(state), table_id=99, rated=True)
    match = archive_services.archive_match(played=played)
    assert match.rules["game"] == "kozyol" and not match.rated
    assert match.deals.count() == len(state.deals)
    # a row that says it is rated all the same (written before this rule) is still not Bilka's
    ArchivedMatch.objects.filter(pk=match.pk).update(rated=True)
    ratings.match_changed(sender=None, match_id=match.pk, change="created", players=[])
    ratings.recompute()
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
