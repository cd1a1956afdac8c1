"""A rating per game: a rated match of Kozyol khvalyony moves only the Kozyol rating, a match of
Bilka for two only that game's (each player a side of his own), and Bilka's rating never sees
either. The one-match update and the full recompute agree game by game."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.record_games import write_game_record
from gameplay.engine.selfplay import bot_match
from ratings.models import BILKA_FOUR, BILKA_TWO, KOZYOL, PairRating, PlayerRating, RatingChange
from ratings.selectors import player_ratings, predict_pairing
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory
from tests.ratings.other_games import BILKA_TWO as TWO_RULES
from tests.ratings.other_games import KOZYOL as KOZYOL_RULES
from tests.ratings.other_games import START, archive, played_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return [PlayerFactory(display_name=f"Игрок {i}") for i in range(6)]


def _learn(match):
    ratings.match_changed(sender=None, match_id=match.pk, change="created", players=[])


def _bilka(four, *, seed, day):
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    played = archive_services.PlayedMatch(
        source="table", seats=[archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk)
                               for i, p in enumerate(four)],
        rules={}, played_at=START + datetime.timedelta(days=day), ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner], reason="eyes", record=write_record(state), table_id=20_000 + seed,
        rated=True)
    return archive_services.archive_match(played=played)


def _rows(game):
    return (sorted((r.player_id, round(r.rating, 6), round(r.deviation, 6), r.matches)
                   for r in PlayerRating.objects.filter(game=game)),
            sorted((c.match_id, c.player_id, round(c.after, 6))
                   for c in RatingChange.objects.filter(game=game)))


def test_a_kozyol_match_is_rated_in_the_kozyol_rating_alone(people):
    four = people[:4]
    bilka = _bilka(four, seed=1, day=0)
    _learn(bilka)
    before = _rows(BILKA_FOUR)
    state = played_out(KOZYOL_RULES, 3)
    match = archive(KOZYOL_RULES, four, seed=3, day=1)
    assert match.rules["game"] == "kozyol" and match.rated
    assert match.deals.count() == len(state.deals)
    _learn(match)
    changes = RatingChange.objects.filter(match=match)
    assert {c.game for c in changes} == {KOZYOL} and {c.player_id for c in changes} == {p.pk for p in four}
    winners = {four[0].pk, four[2].pk} if match.winner == "NS" else {four[1].pk, four[3].pk}
    assert all((c.after > c.before) == (c.player_id in winners) for c in changes)
    assert PlayerRating.objects.filter(game=KOZYOL).count() == 4
    assert PairRating.objects.filter(game=KOZYOL).count() == 2  # NS's and EW's own terms, Kozyol's
    assert _rows(BILKA_FOUR) == before  # Bilka's rating never saw it
    learnt = _rows(KOZYOL)
    ratings.recompute()
    assert _rows(KOZYOL) == learnt and _rows(BILKA_FOUR) == before
    # a card names both ratings, Bilka's first
    assert [s.game.key for s in player_ratings(four[0].pk)] == [BILKA_FOUR, KOZYOL]


def test_a_kozyol_match_with_a_bot_or_marked_unrated_is_not_rated(people):
    with_bot = archive(KOZYOL_RULES, people[:4], seed=5, bot_seat=3)
    unrated = archive(KOZYOL_RULES, people[:4], seed=6, day=1, rated=False)
    assert not with_bot.rated and not unrated.rated
    for m in (with_bot, unrated):
        _learn(m)
    ratings.recompute()
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_bilka_for_two_rates_each_player_on_his_own(people):
    a, b, c = people[:3]
    first = archive(TWO_RULES, [a, b], seed=11)
    assert first.rated and sorted(first.seats.values_list("seat", flat=True)) == [0, 2]
    assert first.winner in ("N", "S") and first.deals.exclude(ns_points=None).exists()
    _learn(first)
    changes = {ch.player_id: ch for ch in RatingChange.objects.filter(match=first)}
    assert set(changes) == {a.pk, b.pk} and {ch.game for ch in changes.values()} == {BILKA_TWO}
    winner, loser = (a, b) if first.winner == "N" else (b, a)
    assert changes[winner.pk].after > changes[winner.pk].before > changes[loser.pk].after
    assert not PairRating.objects.exists()  # a side of one has no pair term
    _learn(archive(TWO_RULES, [b, c], seed=12, day=1))
    _learn(archive(TWO_RULES, [c, a], seed=13, day=2))
    learnt = _rows(BILKA_TWO)
    assert len(learnt[0]) == 3 and len(learnt[1]) == 6
    assert not PlayerRating.objects.exclude(game=BILKA_TWO).exists()
    ratings.recompute()
    assert _rows(BILKA_TWO) == learnt  # match by match as from scratch
    # the preview before a match of two reckons in that game's rating
    p = predict_pairing((a.pk,), (b.pk,), rules=TWO_RULES)
    rows = {r.player_id: r.rating for r in PlayerRating.objects.filter(game=BILKA_TWO)}
    assert p.game.key == BILKA_TWO and len(p.home) == len(p.away) == 1
    assert p.home[0].rating == pytest.approx(rows[a.pk], abs=1e-6) and 0 < p.home_chance < 1
    assert p.home[0].win > 0 > p.home[0].loss


def test_the_full_recompute_rebuilds_each_game_apart(people):
    four = people[:4]
    _learn(_bilka(four, seed=21, day=0))
    _learn(archive(KOZYOL_RULES, four, seed=22, day=1))
    _learn(archive(TWO_RULES, people[4:6], seed=23, day=2))
    snapshot = {g: _rows(g) for g in (BILKA_FOUR, KOZYOL, BILKA_TWO)}
    assert all(rows[1] for rows in snapshot.values())
    # a late Kozyol match (played before the one learnt) asks for a full recompute, Kozyol's only moves
    late = archive(KOZYOL_RULES, four, seed=24, day=0.5)
    assert not ratings.learn_latest(late.pk)
    ratings.recompute()
    assert _rows(BILKA_FOUR) == snapshot[BILKA_FOUR] and _rows(BILKA_TWO) == snapshot[BILKA_TWO]
    assert _rows(KOZYOL) != snapshot[KOZYOL]
    assert RatingChange.objects.filter(game=KOZYOL).count() == 8
    seqs = list(RatingChange.objects.filter(game=KOZYOL, player=four[0]).values_list("seq", flat=True))
    assert seqs == [1, 2]  # each game's changes numbered in its own order


def test_a_match_of_two_with_four_seats_or_a_pair_winner_is_refused(people):
    state = played_out(TWO_RULES, 31)

    def played(seats, winner):
        return archive_services.PlayedMatch(
            source="table", seats=[archive_services.SeatIn(seat=n, name=p.display_name, player_id=p.pk)
                                   for n, p in zip(seats, people, strict=False)],
            rules=dict(TWO_RULES), played_at=timezone.now(), ns_eyes=state.capped_score[0],
            ew_eyes=state.capped_score[1], winner=winner, record=write_game_record(state), rated=True)

    with pytest.raises(archive_services.ArchiveError, match="two seats, N and S"):
        archive_services.archive_match(played=played((0, 1, 2, 3), "N"))
    with pytest.raises(archive_services.ArchiveError, match="N or S"):
        archive_services.archive_match(played=played((0, 2), "NS"))
    assert not ArchivedMatch.objects.exists()
