"""Ratings from the archive: learnt as matches arrive, rebuilt exactly by a full recompute after a
correction, a removal or a late entry; only rated matches count; a run killed midway loses nothing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch, SeatKind
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.core.model import RatingState
from ratings.models import PairRating, PlayerRating, RatingChange, RatingRun, RunStatus
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory

pytestmark = pytest.mark.django_db
START = timezone.now() - datetime.timedelta(days=60)


@pytest.fixture
def players(db):
    return [PlayerFactory(display_name=f"Игрок {i}") for i in range(8)]


def _archive(four, *, seed, day, rated=True, tournament=7, record=True, forfeit=False, bot=False):
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk) for i, p in enumerate(four)]
    if bot:
        seats[3] = archive_services.SeatIn(seat=3, name="Бот", kind=SeatKind.BOT)
    played = archive_services.PlayedMatch(
        source="tournament" if tournament else "table", seats=seats, rules={},
        played_at=START + datetime.timedelta(days=day), ns_eyes=12 if forfeit else ns,
        ew_eyes=0 if forfeit else ew, winner="NS" if forfeit else PAIRS[state.winner],
        reason="forfeit" if forfeit else "eyes",
        record=None if forfeit or not record else write_record(state),
        tournament=tournament, tournament_match=seed if tournament else None, rated=rated,
    )
    return archive_services.archive_match(played=played)


def _snapshot():
    board = {r.player_id: (round(r.rating, 6), round(r.deviation, 6), r.matches)
             for r in PlayerRating.objects.all()}
    history = sorted((c.match_id, c.player_id, round(c.before, 6), round(c.after, 6))
                     for c in RatingChange.objects.all())
    return board, history


def _learn_each(matches):
    for m in matches:
        ratings.match_changed(sender=None, match_id=m.pk, change="created", players=[])


def _season(players, n=12):
    """Matches archived one after another, each learnt as its notice arrives."""
    out = []
    for i in range(n):
        four = [players[(i + k) % 8] for k in (0, 1, 2, 3)] if i % 3 else players[:4]
        out.append(_archive(four, seed=100 + i, day=i, record=i % 4 != 3))
        _learn_each(out[-1:])
    return out


def test_matches_learnt_one_by_one_equal_a_full_recompute(players):
    _season(players)
    assert not RatingRun.objects.exists()  # each was the latest: learnt at once
    learnt = _snapshot()
    assert len(learnt[0]) == 8 and len(learnt[1]) == 12 * 4
    ratings.recompute()
    assert _snapshot() == learnt


@pytest.mark.parametrize("bulk", [False, True], ids=["delete", "truncate"])
def test_the_postgresql_fast_path_writes_exactly_the_rows_of_the_orm_path(players, monkeypatch, bulk):
    from ratings.services import bulk

    if bulk:  # the very large recompute's way of replacing the rows, here on a small one
        monkeypatch.setattr(bulk, "BULK_REPLACE_ROWS", 0)
    _season(players)
    for i in range(6):  # casual matches of one four (the farming guard), a forfeit, a late entry
        _archive(players[:4], seed=300 + i, day=12 + i // 3, tournament=None, record=i % 2 == 0)
    _archive(players[4:], seed=400, day=13, forfeit=True)
    _archive(players[2:6], seed=401, day=3)

    def rows():
        return (sorted((c.match_id, c.player_id, c.played_at, c.seq, c.before, c.after, c.deviation_before,
                        c.deviation_after, c.weight) for c in RatingChange.objects.all()),
                sorted((r.player_id, r.rating, r.deviation, r.mu, r.var, r.day, r.matches, r.last_played)
                       for r in PlayerRating.objects.all()),
                sorted((p.player_a_id, p.player_b_id, p.mu, p.var, p.day, p.matches)
                       for p in PairRating.objects.all()))

    timings = {}
    ratings.recompute(timings=timings)
    fast = rows()
    assert set(timings) == {"read", "compute", "write", "commit"}
    monkeypatch.setattr(ratings, "_fast_path", lambda: False)
    ratings.recompute()
    assert rows() == fast
    assert {c[8] for c in fast[0]} > {1.0}  # the guard weighed some matches down


def test_the_pure_model_gives_the_same_ratings(players):
    matches = _season(players)
    state = RatingState()
    for m in sorted(matches, key=lambda m: (m.played_at, m.pk)):
        seats = [""] * 4
        for s in m.seats.all():
            seats[s.seat] = str(s.player_id)
        deals = list(m.deals.values_list(*ratings.DEAL_FIELDS))
        state.update(ratings.model_match(m, seats, deals))
    for row in PlayerRating.objects.all():
        assert row.rating == pytest.approx(state.display(str(row.player_id), row.day)[0])


def test_a_winner_gains_and_a_loser_loses(players):
    match = _archive(players[:4], seed=1, day=0)
    _learn_each([match])
    won = (0, 2) if match.winner == "NS" else (1, 3)
    for seat, player in enumerate(players[:4]):
        change = RatingChange.objects.get(player=player)
        assert (change.after > change.before) == (seat in won)


def test_a_correction_or_a_late_entry_recomputes_everything_after_it(players):
    matches = _season(players)
    late = _archive(players[4:8], seed=999, day=2.5)  # played early, entered now
    ratings.match_changed(sender=None, match_id=late.pk, change="created", players=[])
    run = RatingRun.objects.get()
    assert run.status == RunStatus.PENDING
    assert ratings.run_recompute(run_id=run.pk).endswith("matches")
    after_late = _snapshot()
    ratings.recompute()
    assert _snapshot() == after_late
    # a correction: the first match's sheet was entered the wrong way round
    first = matches[0]
    ArchivedMatch.objects.filter(pk=first.pk).update(winner="EW" if first.winner == "NS" else "NS")
    for deal in first.deals.all():
        deal.ns_eyes, deal.ew_eyes = deal.ew_eyes, deal.ns_eyes
        deal.ns_points, deal.ew_points = deal.ew_points, deal.ns_points
        deal.save()
    ratings.match_changed(sender=None, match_id=first.pk, change="updated", players=[])
    pending = RatingRun.objects.filter(status=RunStatus.PENDING).get()
    ratings.run_recompute(run_id=pending.pk)
    assert _snapshot() != after_late
    corrected = _snapshot()
    ratings.recompute()
    assert _snapshot() == corrected
    # removed: its changes go with it and the rest is recomputed
    ArchivedMatch.objects.filter(pk=first.pk).delete()
    ratings.match_changed(sender=None, match_id=first.pk, change="removed", players=[])
    ratings.run_recompute(run_id=RatingRun.objects.filter(status=RunStatus.PENDING).get().pk)
    assert not RatingChange.objects.filter(match_id=first.pk).exists()


def test_only_rated_matches_count(players):
    four = players[:4]
    for kind in ({"rated": False},  # an unrated event or a table opened unrated
                 {"bot": True},  # a bot at the table
                 {"forfeit": True}):  # a forfeit before the first card
        _learn_each([_archive(four, seed=len(kind), day=0, **kind)])
    assert not RatingChange.objects.exists()
    ratings.recompute()
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def test_casual_results_of_the_same_four_count_less_and_less(players):
    casual = []
    for i in range(3):
        casual.append(_archive(players[:4], seed=10 + i, day=i, tournament=None))
        _learn_each(casual[-1:])
    weights = [RatingChange.objects.filter(match=m).values_list("weight", flat=True).first() for m in casual]
    assert weights == [1.0, 0.5, pytest.approx(1 / 3)]
    before = _snapshot()
    ratings.recompute()
    assert _snapshot() == before


def test_a_recompute_killed_midway_leaves_the_old_ratings_and_runs_again(players, monkeypatch):
    _season(players)
    good = _snapshot()
    run = ratings.request_recompute(reason="test")
    calls = {"n": 0}
    real = RatingState.update

    def dies(self, match):
        calls["n"] += 1
        if calls["n"] == 5:
            raise SystemExit("worker killed")
        return real(self, match)

    monkeypatch.setattr(RatingState, "update", dies)
    with pytest.raises(SystemExit):
        ratings.run_recompute(run_id=run.pk)
    assert _snapshot() == good  # nothing half-written
    monkeypatch.setattr(RatingState, "update", real)
    ratings.run_recompute(run_id=run.pk)  # delivered again
    ratings.run_recompute(run_id=run.pk)  # and once more: nothing to do
    assert _snapshot() == good
    assert RatingRun.objects.get(pk=run.pk).status == RunStatus.DONE


def test_several_requests_make_one_recompute(players):
    _season(players, n=4)
    first = ratings.request_recompute(reason="one")
    second = ratings.request_recompute(reason="two")
    assert ratings.run_recompute(run_id=first.pk) == "superseded"
    assert ratings.run_recompute(run_id=second.pk).endswith("matches")


def test_the_command_rebuilds_what_the_notices_built(players, capsys):
    from django.core.management import call_command

    _season(players, n=4)
    learnt = _snapshot()
    call_command("recompute_ratings")
    assert "4 archived matches read" in capsys.readouterr().out
    assert _snapshot() == learnt
