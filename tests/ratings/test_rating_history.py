"""A history people can follow: every match learnt at the time it was played (a result entered late
lands there and the history is recomputed), and a player whose rating a recompute moved without a
match of his is told when, why and by how much, on his card.

The archive's notices and the recompute run as a worker runs them (``Delivery``): the services
commit, their queued tasks are taken off the commit and run here, in order."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone

from archive import services as archive_services
from archive.models import ArchivedMatch
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.core.model import RatingState
from ratings.models import Cause, PlayerRating, RatingMove, RatingRun
from ratings.selectors import why_words
from ratings.services import recompute as ratings
from tests.tournaments.conftest import player_with_account, register_pairs
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _archive_other(four, *, seed, at):
    """A match of another event, archived and learnt."""
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk) for i, p in enumerate(four)]
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="tournament", seats=seats, rules={}, played_at=at, ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner], reason="eyes", record=write_record(state), tournament=99_999,
        tournament_match=50_000 + seed, event_name="Other Cup", rated=True))


def _pure_state() -> RatingState:
    """The pure model after learning the archive's rated matches in the order played."""
    state = RatingState(ratings.rating_state([]).params)  # the parameters the site computes with
    for m in ArchivedMatch.objects.filter(rated=True).order_by("played_at", "pk"):
        seats = [""] * 4
        for s in m.seats.all():
            seats[s.seat] = str(s.player_id)
        deals = list(m.deals.order_by("number").values_list(*ratings.DEAL_FIELDS))
        match = ratings.model_match(m, seats, deals)
        if match is not None:
            state.update(match)
    return state


def _pure_ratings() -> dict[int, float]:
    """Every rating as the pure model learns the archive's rated matches in the order played."""
    state = _pure_state()
    return {int(pid): state.display(pid, r.day)[0] for pid, r in state.players.items()}


@pytest.fixture
def spring(club, organiser, deliver):
    """Spring Swiss, round 1 paired three hours ago between four pairs; its first match's result
    reported by its home pair at the table two and a half hours ago and confirmed; then two
    matches of another event, an hour and a half and an hour ago, between its players."""
    t = services.create_tournament(actor=organiser, club=club, name="Spring Swiss", format="swiss",
                                   swiss_rounds=3, starts_on=datetime.date(2026, 12, 5))
    me, partner = player_with_account(club, "asel"), player_with_account(club, "bota")
    first = services.register_entry(actor=organiser, tournament=t, player_a=me, player_b=partner)
    others = register_pairs(t, organiser, 3)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    now = timezone.now()
    rnd.__class__.objects.filter(pk=rnd.pk).update(created_at=now - datetime.timedelta(hours=3))
    mine = rnd.matches.get(Q(home=first) | Q(away=first))
    deliver(services.enter_result, actor=me.user, match=mine, home_eyes=12, away_eyes=5)
    at_the_table = now - datetime.timedelta(hours=2, minutes=30)
    Match.objects.filter(pk=mine.pk).update(reported_at=at_the_table, played_at=at_the_table)
    deliver(services.confirm_result, actor=organiser, match=mine)
    late = rnd.matches.exclude(pk=mine.pk).get()
    players = {e.pk: (e.player_a, e.player_b) for e in (first, *others)}
    a = players[mine.home_id] + players[mine.away_id]
    b = players[late.home_id] + players[late.away_id]
    # the other event: the first match's home pair against the late match's home pair, twice
    for seed, hours in ((11, 1.5), (12, 1.0)):
        m = _archive_other([a[0], b[0], a[1], b[1]], seed=seed, at=now - datetime.timedelta(hours=hours))
        deliver(ratings.match_changed, sender=None, match_id=m.pk, change="created", players=[])
    return t, rnd, mine, late, a, b


def test_each_result_is_learnt_at_the_time_it_was_played(spring, organiser, deliver):
    t, rnd, mine, late, a, b = spring
    rnd.refresh_from_db()
    reported = Match.objects.get(pk=mine.pk).reported_at
    # the players' own report is when they played (it was confirmed later)
    assert ArchivedMatch.objects.get(tournament_match=mine.pk).played_at == reported
    assert not RatingRun.objects.exists()  # every match so far was the latest when it came
    before = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    deliver(services.enter_result, actor=organiser, match=late, home_eyes=12, away_eyes=0)
    archived = ArchivedMatch.objects.get(tournament_match=late.pk)
    assert archived.played_at == rnd.created_at  # the organiser's entry: the round's pairing
    run = RatingRun.objects.get()
    assert (run.status, run.cause, run.about, run.round_number) == ("done", Cause.LATE, "Spring Swiss", 1)
    assert run.concerns_at == rnd.created_at and run.match_ref == archived.pk
    # recomputed: exactly what learning every match in the order played gives
    pure = _pure_ratings()
    stored = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    assert stored.keys() == pure.keys()
    for pid, rating in stored.items():
        assert rating == pytest.approx(pure[pid], abs=1e-9)
    # the first match's players did not play the late match, yet their ratings moved: they are told
    # the first match's home pair, who played the other event after it, did not play the late match,
    # yet their ratings moved: they are told; their opponents, who played nothing since, did not move
    for p in (a[0], a[1]):
        move = RatingMove.objects.get(player=p)
        assert move.run == run and move.after == pytest.approx(stored[p.pk])
        assert move.before == pytest.approx(before[p.pk])
    assert not RatingMove.objects.filter(player__in=(a[2], a[3])).exists()
    assert stored[a[3].pk] == pytest.approx(before[a[3].pk])


def test_the_forms_are_kept_match_by_match_as_a_recompute_keeps_them(spring, organiser, deliver):
    """Each match learnt on top of the stored rows reads and writes the forms (the estimates the
    chances come from) as well as the ratings: the rows hold what the pure model holds, and a
    recompute writes the same."""
    pure = _pure_state()

    def stored_forms() -> dict[int, float]:
        return {r.player_id: (r.mu if r.form is None else r.form) for r in PlayerRating.objects.all()}

    learnt = stored_forms()
    assert learnt.keys() == {int(pid) for pid in pure.players}
    for pid, form in learnt.items():
        assert form == pytest.approx(pure.players[str(pid)].estimate, abs=1e-12)
    ratings.recompute()
    for pid, form in stored_forms().items():
        assert form == pytest.approx(pure.players[str(pid)].estimate, abs=1e-12)


def test_a_correction_tells_the_uninvolved_on_their_cards(spring, organiser, deliver, client):
    t, rnd, mine, late, a, b = spring
    deliver(services.enter_result, actor=organiser, match=late, home_eyes=12, away_eyes=0)
    RatingMove.objects.all().delete()  # the late result's moves, told above
    before = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    deliver(services.correct_result, actor=organiser, match=mine, home_eyes=4, away_eyes=12,
            reason="The sheet was read the wrong way round")
    run = RatingRun.objects.order_by("-pk").first()
    assert (run.cause, run.about, run.round_number) == (Cause.CORRECTED, "Spring Swiss", 1)
    uninvolved = b[0]  # played the later matches with the first match's players, not the first match
    after = PlayerRating.objects.get(player=uninvolved).rating
    move = RatingMove.objects.get(player=uninvolved)
    assert move.change == pytest.approx(after - before[uninvolved.pk]) and abs(move.change) >= 0.05
    page = client.get(reverse("archive:player", args=[uninvolved.pk])).content.decode()
    day = formats.date_format(timezone.localtime(move.at), "j E")
    sign = "+" if move.change > 0 else "−"
    words = f"Recomputed on {day} after a corrected result in Spring Swiss, round 1"
    assert words in page, page[page.find('id="rating"'):][:3000]
    assert f"{sign}{abs(move.change):.1f}" in page
    # the round is over: its match is public, and the line links it
    assert mine.get_absolute_url() in page[page.find("rc-move"):page.find("rc-move") + 800]
    # a recompute that changes nothing tells nobody anything
    count = RatingMove.objects.count()
    deliver(lambda: ratings.request_recompute(reason="again"))
    assert RatingMove.objects.count() == count


def test_a_removed_result_and_a_negligible_move(spring, organiser, deliver):
    t, rnd, mine, late, a, b = spring
    deliver(services.enter_result, actor=organiser, match=late, home_eyes=12, away_eyes=0)
    RatingMove.objects.all().delete()
    first_other = timezone.now() - datetime.timedelta(hours=1, minutes=15)
    other = ArchivedMatch.objects.get(event_name="Other Cup", played_at__lt=first_other)
    deliver(archive_services.remove_match, tournament_match=other.tournament_match)
    run = RatingRun.objects.order_by("-pk").first()
    assert (run.cause, run.about, run.match_ref) == (Cause.REMOVED, "Other Cup", other.pk)
    assert RatingMove.objects.filter(run=run).exists()
    assert all(abs(m.change) >= 0.05 for m in RatingMove.objects.all())


def test_one_run_answers_several_requests_and_names_the_earliest(spring):
    t, rnd, mine, late, a, b = spring
    others = list(ArchivedMatch.objects.filter(event_name="Other Cup").order_by("-played_at"))
    for m in others:  # the later one's notice first
        ratings.match_changed(sender=None, match_id=m.pk, change="updated", players=[],
                              about=archive_services.about_match(m))
    first, second = RatingRun.objects.order_by("pk")
    assert ratings.run_recompute(run_id=first.pk) == "superseded"
    ratings.run_recompute(run_id=second.pk)
    second.refresh_from_db()
    assert (second.others, second.match_ref, second.concerns_at) == (1, others[1].pk, others[1].played_at)
    assert why_words(second) == "after a corrected result in Other Cup and 1 other change"


def test_a_refit_is_told_as_a_refit(spring, deliver):
    t, rnd, mine, late, a, b = spring
    run = deliver(lambda: ratings.request_recompute(reason="refit:1"))
    run.refresh_from_db()
    assert run.cause == Cause.REFIT and why_words(run) == "after the model's parameters were fitted again"
