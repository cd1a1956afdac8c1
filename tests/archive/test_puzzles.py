"""Puzzles from real play: the finder (a missed par-keeping card that is the best in at least 90% of
the layouts the seat could not see), only from public matches, the page that shows the seat's view
and never a hidden card, the answer, the solution against the solver, difficulty, streak, daily."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from archive import puzzle_rating, puzzle_selectors
from archive import services as archive_services
from archive.models import MatchAnalysis, Puzzle, PuzzleAttempt, PuzzlePlayer, SeatKind
from archive.replays import card_view
from archive.services import analysis
from archive.services.puzzles import attempt_puzzle, find_for_match
from gameplay.engine.analysis import analyse_record, solve_record, start_position
from gameplay.engine.cards import PAIRS, SEATS, card_from_str, card_to_str, mask_cards
from gameplay.engine.puzzles import (
    SAMPLES,
    _seed,
    candidates,
    find_puzzles,
    layouts_agreeing,
    observation_at,
    seat_view,
)
from gameplay.engine.record import read_record
from gameplay.engine.solver import Solver
from tests.archive.puzzle_factory import short_record
from tests.clubs.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
NEEDED = 36  # 90% of SAMPLES layouts


def _archive(record: dict, *, public: bool = True, bots: bool = False, tournament_match: int | None = None):
    players = [PlayerFactory(display_name=n) for n in ("Asel", "Ivan", "Oleh", "Nurlan")]
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=None if bots and i else p.pk,
                                     kind=SeatKind.BOT if bots and i else SeatKind.PLAYER)
             for i, p in enumerate(players)]
    return archive_services.archive_match(played=archive_services.PlayedMatch(
        source="tournament" if tournament_match else "table", seats=seats, rules={},
        played_at=timezone.now() - datetime.timedelta(hours=1), ns_eyes=0, ew_eyes=2, winner=PAIRS[1],
        reason="resign", reason_seat=1, record=record, public=public, tournament_match=tournament_match,
        tournament=7 if tournament_match else None))


def _hands_at(record: dict, deal: int, ply: int):
    state = read_record(record)
    log = state.deals[deal - 1]
    pos = start_position(state.rules, log)
    for card in log.plays[:ply]:
        pos = pos.play(card)
    return pos, log.plays[ply]


# --------------------------------------------------------------------------- the finder (pure)

#: A deal laid out by hand (trump clubs: North holds the jack of clubs and leads). West's only trump
#: is the seven of clubs and he has no heart.
HANDS = {"N": ["JC", "AH", "QH", "9H", "AC", "TC", "KC", "QC"],
         "E": ["TH", "8H", "7H", "JS", "JH", "TD", "KD", "QD"],
         "S": ["KH", "JD", "8C", "9C", "TS", "KS", "QS", "7S"],
         "W": ["7C", "7D", "8D", "9D", "AD", "8S", "9S", "AS"]}


def _hand_made(plays: list[str]) -> dict:
    return {"format": "bilka-record/1", "rules": {},
            "deals": [{"dealer": "W", "hands": HANDS, "plays": plays}],
            "end": {"reason": "resign", "seat": "E"}}


def test_a_hand_made_miss_that_any_seat_would_see_is_a_puzzle_and_a_guess_is_not():
    """North leads the ace of hearts, East and South follow with the ten and the king: 25 points on
    the table, and West, with no heart, discards the eight of spades instead of trumping with his
    seven of clubs. Whatever the hidden hands, trumping takes the 25: a puzzle. North's lead was a
    miss too (the queen of clubs, drawing West's only trump, was the one card that kept the par),
    but from North's seat West's void and singleton trump are unknown: a guess, no puzzle."""
    record = _hand_made(["AH", "TH", "KH", "8S"])
    result = analyse_record(record)
    assert [(e["ply"], e["card"], e["best"]) for _, e in candidates(result)] == [
        (0, "AH", ["QC"]), (3, "8S", ["7C"])]
    lead = layouts_agreeing(observation_at(record, 1, 0), card_from_str("QC"), seed=5, threshold=0.0)
    ruff = layouts_agreeing(observation_at(record, 1, 3), card_from_str("7C"), seed=5, threshold=0.0)
    assert lead < NEEDED <= ruff == SAMPLES
    found = find_puzzles(record, result, key="hand-made")
    assert [(f.deal, f.ply, f.seat, f.card, f.played) for f in found] == [(1, 3, "W", "7C", "8S")]
    assert found[0].lost == 36 and found[0].agreeing == SAMPLES
    view = seat_view(observation_at(record, 1, 3), 1, 3)
    assert view["hand"] == ["7C", "AS", "9S", "8S", "AD", "9D", "8D", "7D"]
    assert view["trick"] == [["N", "AH"], ["E", "TH"], ["S", "KH"]] and view["legal"] == view["hand"]
    assert (view["trump"], view["jack_holder"], view["on_duty"]) == ("C", "N", "NS")


def test_a_missed_card_that_keeps_the_par_in_most_layouts_is_a_puzzle_and_a_guess_is_not():
    record = short_record(1)
    result = analyse_record(record)
    counts = {}
    for deal, entry in candidates(result):
        obs = observation_at(record, deal, entry["ply"])
        counts[(deal, entry["ply"])] = layouts_agreeing(
            obs, card_from_str(entry["best"][0]), samples=SAMPLES, seed=_seed("key", deal, entry["ply"]),
            threshold=0.0)
    found = {(f.deal, f.ply): f for f in find_puzzles(record, result, key="key")}
    solvable = {k for k, n in counts.items() if n >= NEEDED}
    guesses = {k for k, n in counts.items() if n < NEEDED}
    assert solvable and guesses  # this record has both kinds
    assert set(found) == solvable
    for (deal, ply), puzzle in found.items():
        pos, played = _hands_at(record, deal, ply)
        values = Solver(pos.trump, pos.next_seat).card_values(pos)
        mine = {c: (v if pos.to_move % 2 == 0 else 120 - v) for c, v in values.items()}
        best = max(mine.values())
        assert [card_to_str(c) for c, v in mine.items() if v == best] == [puzzle.card]  # the one card
        assert card_to_str(played) == puzzle.played and best - mine[played] == puzzle.lost > 0
        assert puzzle.agreeing == counts[(deal, ply)] >= NEEDED
    assert find_puzzles(record, result, key="key") == list(found.values())  # the same every time


def test_a_card_no_one_could_have_missed_is_no_puzzle():
    """A card that kept the par, or a miss where two cards kept it, is never a candidate."""
    record = short_record(1)
    result = analyse_record(record)
    for _deal, entry in candidates(result):
        assert entry["lost"] > 0 and len(entry["best"]) == 1 and entry["card"] != entry["best"][0]
    every = [c for d in result["deals"] for c in d["cards"]]
    assert len(candidates(result)) == sum(1 for c in every if c["lost"] > 0 and len(c["best"]) == 1)


def test_the_seat_view_holds_no_card_of_the_hidden_hands():
    record = short_record(3)
    for deal, entry in candidates(analyse_record(record)):
        view = seat_view(observation_at(record, deal, entry["ply"]), deal, entry["ply"])
        pos, _ = _hands_at(record, deal, entry["ply"])
        me = SEATS.index(view["seat"])
        hidden = {card_to_str(c) for s in range(4) if s != me for c in mask_cards(pos.hands[s])}
        played = {c for t in view["tricks"] for _, c in t["cards"]} | {c for _, c in view["trick"]}
        shown = set(view["hand"]) | played
        assert shown and not shown & hidden
        assert set(view["hand"]) == {card_to_str(c) for c in mask_cards(pos.hands[me])}
        assert view["hand_sizes"] == {SEATS[s]: pos.hands[s].bit_count() for s in range(4)}


# --------------------------------------------------------------------------- finding in the archive

@pytest.mark.django_db
def test_the_analysis_finds_the_puzzles_once_per_record():
    match = _archive(short_record(1))
    said = analysis.analyse_match(match_id=match.pk)
    kept = list(Puzzle.objects.filter(match=match).values_list("deal", "ply", "card"))
    assert f"{len(kept)} puzzles in" in said and kept
    assert MatchAnalysis.objects.get(match=match).puzzles_hash == match.record_hash
    assert analysis.analyse_match(match_id=match.pk) == "already analysed"
    assert find_for_match(match_id=match.pk) == (0, 0)
    assert find_for_match(match_id=match.pk, again=True)[0] == len(kept)
    assert list(Puzzle.objects.filter(match=match).values_list("deal", "ply", "card")) == kept


@pytest.mark.django_db
def test_searched_again_by_a_stricter_finder_the_unanswered_puzzles_it_no_longer_finds_go(monkeypatch):
    match = _archive(short_record(1))
    analysis.analyse_match(match_id=match.pk)
    puzzles = list(Puzzle.objects.filter(match=match).order_by("deal", "ply"))
    assert len(puzzles) >= 2
    answered = puzzles[0]
    attempt_puzzle(user=UserFactory(), puzzle_id=answered.pk, card=answered.card)
    import gameplay.engine.puzzles as finder
    monkeypatch.setattr(finder, "MIN_CHOICES", 99)  # finds nothing now
    find_for_match(match_id=match.pk, again=True)
    assert list(Puzzle.objects.filter(match=match)) == [answered]  # its answer and streak stay
    assert PuzzleAttempt.objects.filter(puzzle=answered).count() == 1


def test_a_corrected_record_replaces_the_puzzles_of_the_old_one():
    first = _archive(short_record(1), tournament_match=41)
    analysis.analyse_match(match_id=first.pk)
    old = set(Puzzle.objects.filter(match=first).values_list("deal", "ply", "card"))
    corrected = _archive(short_record(2), tournament_match=41)  # the organiser's correction
    assert corrected.pk == first.pk and corrected.record_hash != first.record_hash
    analysis.analyse_match(match_id=first.pk)
    kept = Puzzle.objects.filter(match=first)
    assert set(kept.values_list("record_hash", flat=True)) == {corrected.record_hash}
    again = find_puzzles(corrected.record, analyse_record(corrected.record), key=corrected.record_hash)
    assert set(kept.values_list("deal", "ply", "card")) == {(f.deal, f.ply, f.card) for f in again} != old


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["private", "bots not shared", "round running"])
def test_only_public_matches_give_puzzles(kind):
    record = short_record(1)
    match = {"private": lambda: _archive(record, public=False),
             "bots not shared": lambda: _archive(record, public=False, bots=True),
             "round running": lambda: _archive(record, public=False, tournament_match=41)}[kind]()
    analysis.analyse_match(match_id=match.pk)
    stored = Puzzle.objects.filter(match=match)
    assert stored.exists()  # found, kept for the day the match becomes public
    assert not puzzle_selectors.visible_puzzles().exists()
    assert puzzle_selectors.daily_puzzle(timezone.localdate()) is None
    for user in (None, UserFactory(is_staff=True, is_superuser=True)):
        client = Client()
        if user:
            client.force_login(user)
        assert client.get(reverse("archive:puzzle", args=[stored.first().pk])).status_code == 404
        assert client.post(reverse("archive:puzzle", args=[stored.first().pk]),
                           {"card": stored.first().card}).status_code == 404
        page = client.get(reverse("archive:puzzles")).content.decode()
        assert reverse("archive:puzzle", args=[stored.first().pk]) not in page
    assert not PuzzleAttempt.objects.exists()
    match.public = True  # the round ends; the players share the game
    match.save(update_fields=["public"])
    assert puzzle_selectors.visible_puzzles().count() == stored.count()


@pytest.mark.django_db
def test_the_backfill_says_how_many_puzzles_per_deal():
    match = _archive(short_record(1))
    result = analyse_record(match.record)
    MatchAnalysis.objects.create(match=match, record_hash=match.record_hash, result=result)
    out = io.StringIO()
    call_command("find_puzzles", stdout=out)
    count, deals = Puzzle.objects.filter(match=match).count(), len(result["deals"])
    assert count and deals == 2  # the whole first deal and the start of the second
    assert (f"{count} puzzles found in {deals} deals of 1 matches ({count * 1000 // deals} per 1,000 deals)."
            in out.getvalue())
    out = io.StringIO()
    call_command("find_puzzles", stdout=out)
    assert "0 puzzles found in 0 deals of 0 matches" in out.getvalue()
    assert Puzzle.objects.filter(match=match).count() == count


# --------------------------------------------------------------------------- the page

@pytest.fixture
def puzzle(db):
    match = _archive(short_record(1))
    analysis.analyse_match(match_id=match.pk)
    return Puzzle.objects.filter(match=match).order_by("pk").first()


def _hidden(puzzle: Puzzle) -> set[str]:
    return {c for s, cards in puzzle.solution["hands"].items() if s != puzzle.view["seat"] for c in cards}


def _shows_card(html: str, code: str) -> bool:
    c = card_view(code)
    drawn = rf'bt-rank">{re.escape(c["rank"])}</span><span class="bt-suit">{c["suit"]}'
    return (f'data-card="{code}"' in html or f'value="{code}"' in html or c["label"] in html
            or re.search(drawn, html) is not None)


@pytest.mark.parametrize("language", ["en", "ru", "kk", "uk"])
def test_the_page_shows_the_seats_view_and_no_hidden_card(puzzle, client, language):
    with translation.override(language):
        client.cookies["django_language"] = language
        html = client.get(reverse("archive:puzzle", args=[puzzle.pk]),
                          HTTP_ACCEPT_LANGUAGE=language).content.decode()
        hidden = _hidden(puzzle)
        assert hidden
        leaked = [c for c in hidden if _shows_card(html, c)]
        assert leaked == []
        for code in puzzle.view["hand"]:
            assert f'data-card="{code}"' in html
        for code in puzzle.view["legal"]:
            assert f'name="card" value="{code}"' in html
        assert "csrfmiddlewaretoken" in html
        for seat in puzzle.match.seats.all():  # names nobody, links to no match
            assert seat.name not in html
        assert reverse("archive:match", args=[puzzle.match_id]) not in html


def test_the_solution_shows_every_hand_and_agrees_with_the_solver(puzzle, client):
    client.cookies["django_language"] = "en"
    response = client.post(reverse("archive:puzzle", args=[puzzle.pk]), {"card": puzzle.card}, follow=True)
    html = response.content.decode()
    assert "Right: that card keeps the par." in html
    for code in _hidden(puzzle):
        assert f'data-card="{code}"' in html
    solved = solve_record(puzzle.match.record, puzzle.deal, puzzle.ply)  # the solver, asked afresh
    pair = PAIRS[SEATS.index(puzzle.view["seat"]) % 2]
    values = {c: v[pair] for c, v in solved["cards"].items()}
    assert puzzle.solution["values"] == values
    assert puzzle.solution["par"] == solved["par"][pair] == max(values.values())
    assert [c for c, v in values.items() if v == solved["par"][pair]] == [puzzle.card]
    assert f"ends the deal with {solved['par'][pair]} points" in html
    line = puzzle.solution["line"]
    assert line[0] == [puzzle.view["seat"], puzzle.card]
    state = read_record(puzzle.match.record)  # the line is best play: every card keeps the par
    pos = start_position(state.rules, state.deals[puzzle.deal - 1])
    for card in state.deals[puzzle.deal - 1].plays[:puzzle.ply]:
        pos = pos.play(card)
    solver = Solver(pos.trump, pos.next_seat)
    for seat, code in line:
        assert SEATS[pos.to_move] == seat
        here = solver.card_values(pos)
        best = max(here.values()) if pos.to_move % 2 == 0 else min(here.values())
        assert here[card_from_str(code)] == best
        pos = pos.play(card_from_str(code))
    assert pos.points[SEATS.index(puzzle.view["seat"]) % 2] == puzzle.solution["par"]


@pytest.mark.parametrize("card", ["", "ZZ", "7", "JC'", "AH AS"])
def test_a_forged_card_is_refused_in_words_and_nothing_is_kept(puzzle, card):
    user = UserFactory()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("archive:puzzle", args=[puzzle.pk]), {"card": card},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Выберите карту" in html or "Эту карту нельзя сыграть" in html
    assert 'name="card"' in html  # the form is there again
    assert not PuzzleAttempt.objects.exists() and not PuzzlePlayer.objects.exists()


def test_a_card_the_seat_may_not_play_is_refused(puzzle):
    others = [c for s, h in puzzle.solution["hands"].items() for c in h if c not in puzzle.view["legal"]]
    client = Client()
    client.force_login(UserFactory())
    response = client.post(reverse("archive:puzzle", args=[puzzle.pk]), {"card": others[0]})
    assert response.status_code == 400 and not PuzzleAttempt.objects.exists()


def test_the_post_needs_the_csrf_token(puzzle):
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    assert client.post(reverse("archive:puzzle", args=[puzzle.pk]), {"card": puzzle.card}).status_code == 403
    assert not PuzzleAttempt.objects.exists()


def test_the_first_answer_counts_once_and_moves_both_ratings(puzzle):
    user = UserFactory()
    client = Client()
    client.force_login(user)
    wrong = next(c for c in puzzle.view["legal"] if c != puzzle.card)
    url = reverse("archive:puzzle", args=[puzzle.pk])
    assert client.post(url, {"card": wrong}).status_code == 302
    assert client.post(url, {"card": puzzle.card}).status_code == 302  # sent again: the first stands
    attempt = PuzzleAttempt.objects.get()
    assert (attempt.card, attempt.solved) == (wrong, False)
    puzzle.refresh_from_db()
    player = PuzzlePlayer.objects.get(user=user)
    assert (puzzle.attempts, puzzle.solved) == (1, 0)
    assert puzzle.rating > puzzle_rating.START_RATING > player.rating  # the puzzle won
    assert player.deviation < puzzle_rating.START_DEVIATION and player.streak == 0
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Not the best card." in html and 'name="card"' not in html


def test_a_visitor_answers_without_moving_any_rating(puzzle, client):
    url = reverse("archive:puzzle", args=[puzzle.pk])
    assert client.post(url, {"card": puzzle.card}).status_code == 302
    wrong = next(c for c in puzzle.view["legal"] if c != puzzle.card)
    client.post(url, {"card": wrong})  # a second answer: the session keeps the first
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Right: that card keeps the par." in html
    puzzle.refresh_from_db()
    assert (puzzle.attempts, puzzle.rating) == (0, puzzle_rating.START_RATING)
    assert not PuzzleAttempt.objects.exists()


@pytest.mark.django_db
def test_the_streak_counts_puzzles_solved_in_a_row():
    puzzles = []
    for seed in (1, 2, 3):
        match = _archive(short_record(seed))
        analysis.analyse_match(match_id=match.pk)
        puzzles += list(Puzzle.objects.filter(match=match))
    assert len(puzzles) >= 3
    user = UserFactory()
    for p in puzzles[:2]:
        attempt_puzzle(user=user, puzzle_id=p.pk, card=p.card)
    player = PuzzlePlayer.objects.get(user=user)
    assert (player.streak, player.best_streak, player.solved) == (2, 2, 2)
    assert player.rating > puzzle_rating.START_RATING
    wrong = next(c for c in puzzles[2].view["legal"] if c != puzzles[2].card)
    attempt_puzzle(user=user, puzzle_id=puzzles[2].pk, card=wrong)
    player.refresh_from_db()
    assert (player.streak, player.best_streak, player.attempts) == (0, 2, 3)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("archive:puzzles"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "streak: 0 (best 2)" in page


def test_glicko_moves_the_winner_up_and_a_settled_rating_less():
    fresh = puzzle_rating.Glicko(1500, 350)
    settled = puzzle_rating.Glicko(1500, 60)
    person, task = puzzle_rating.attempt(fresh, fresh, solved=True)
    assert person.rating > 1500 > task.rating and person.rating - 1500 == pytest.approx(1500 - task.rating)
    moved, _ = puzzle_rating.attempt(settled, fresh, solved=True)
    assert 0 < moved.rating - 1500 < person.rating - 1500
    assert moved.deviation == puzzle_rating.MIN_DEVIATION
    hard = puzzle_rating.Glicko(1900, 80)
    easy = puzzle_rating.Glicko(1100, 80)
    assert puzzle_rating.expected(fresh, hard) < 0.5 < puzzle_rating.expected(fresh, easy)
    beat_hard, _ = puzzle_rating.attempt(fresh, hard, solved=True)
    beat_easy, _ = puzzle_rating.attempt(fresh, easy, solved=True)
    assert beat_hard.rating - 1500 > beat_easy.rating - 1500 > 0


@pytest.mark.django_db
def test_the_daily_puzzle_is_one_per_day_and_linked_from_home_and_the_menu():
    for seed in (1, 2):
        match = _archive(short_record(seed))
        analysis.analyse_match(match_id=match.pk)
    Puzzle.objects.update(found_at=timezone.now() - datetime.timedelta(days=3))
    days = [timezone.localdate() - datetime.timedelta(days=n) for n in range(10)]
    picks = [puzzle_selectors.daily_puzzle(d) for d in days]
    assert picks == [puzzle_selectors.daily_puzzle(d) for d in days]  # the same all day
    assert len({p.pk for p in picks}) > 1  # not always the same one
    today = picks[0]
    late = _archive(short_record(3))
    analysis.analyse_match(match_id=late.pk)  # found today: today's pick stays
    assert puzzle_selectors.daily_puzzle(days[0]) == today
    client = Client()
    home = client.get(reverse("clubs:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("archive:puzzle", args=[today.pk]) in home
    assert f'href="{reverse("archive:puzzles")}"' in home  # in the site's menu
    index = client.get(reverse("archive:puzzles"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Puzzle of the day" in index and reverse("archive:puzzle", args=[today.pk]) in index


def test_the_puzzles_page_answers_only_get(client):
    assert client.post(reverse("archive:puzzles")).status_code == 405
