"""The rating pages: the boards (global, club, city) with their rule and the viewer's place, the
player's card and chart, ratings on standings and on the match page, the explanation page."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from clubs.models import ClubPlayer
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.models import BILKA_FOUR, PlayerRating, RatingRun, RunStatus
from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.tournaments.conftest import register_pairs
from tournaments import services

pytestmark = pytest.mark.django_db
START = timezone.now() - datetime.timedelta(days=40)


def _archive(four, *, seed, day):
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk) for i, p in enumerate(four)]
    played = archive_services.PlayedMatch(
        source="tournament", seats=seats, rules={}, played_at=START + datetime.timedelta(days=day),
        ns_eyes=ns, ew_eyes=ew, winner=PAIRS[state.winner], reason="eyes", record=write_record(state),
        tournament=7, tournament_match=seed, rated=True,
    )
    m = archive_services.archive_match(played=played)
    ratings.match_changed(sender=None, match_id=m.pk, change="created", players=[])
    return m


@pytest.fixture
def season(db):
    """Eight players; the first four play six matches, the others two: only four reach the board."""
    players = [PlayerFactory(display_name=f"Игрок {i}", city="Успенка" if i % 2 else "Uspenka")
               for i in range(8)]
    for i in range(6):
        _archive(players[:4], seed=200 + i, day=i)
    for i in range(2):
        _archive(players[4:], seed=300 + i, day=10 + i)
    return players


def test_the_board_lists_players_with_enough_matches_and_states_the_rule(client, season, settings):
    settings.RATING_BOARD_MIN_MATCHES = 5
    page = client.get(reverse("ratings:board")).content.decode()
    assert "at least 5 rated matches" in page
    for p in season[:4]:
        assert p.display_name in page
    for p in season[4:]:
        assert p.display_name not in page
    best = PlayerRating.objects.order_by("-rating", "player_id").first()
    assert page.index(best.player.display_name) < min(page.index(p.display_name) for p in season[:4]
                                                      if p.pk != best.player_id)


@pytest.mark.parametrize("needed", [2, 5])
def test_the_api_leaderboard_asks_as_many_matches_as_the_board(client, season, settings, needed):
    settings.RATING_BOARD_MIN_MATCHES = needed
    page = client.get(reverse("ratings:board")).content.decode()
    on_board = {p.pk for p in season if p.display_name in page}
    listed = client.get(reverse("api:rating_list"), HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert {row["player"]["id"] for row in listed} == on_board
    assert len(on_board) == (8 if needed == 2 else 4)


def test_the_signed_in_player_sees_his_own_place(client, season):
    user = UserFactory(username="igrok")
    lowest = PlayerRating.objects.filter(matches__gte=5).order_by("rating", "-player_id").first()
    me = lowest.player  # the lowest of the four: place 4
    me.user = user
    me.save()
    client.force_login(user)
    page = client.get(reverse("ratings:board")).content.decode()
    assert "Your place: <strong>4</strong>" in page


def test_cities_written_in_cyrillic_and_latin_are_one_board(client, season):
    board = client.get(reverse("ratings:board")).content.decode()
    assert reverse("ratings:city", args=["uspenka"]) in board
    for spelling in ("Успенка", "Uspenka", "uspenka"):
        page = client.get(reverse("ratings:city", args=[spelling])).content.decode()
        assert all(p.display_name in page for p in season[:4])


def test_a_city_no_player_wrote_is_not_found(client, season):
    assert client.get(reverse("ratings:city", args=["Атлантида"])).status_code == 404
    assert client.get(reverse("ratings:city", args=["Uspenka"])).status_code == 200


def test_a_club_board_has_only_its_roster(client, club, season):
    ClubPlayer.objects.create(club=club, player=season[0], added_as="x")
    page = client.get(reverse("ratings:club", args=[club.slug])).content.decode()
    assert season[0].display_name in page
    assert season[1].display_name not in page


def test_the_board_runs_the_same_queries_whatever_the_page_holds(client, settings, season, monkeypatch):
    from ratings import views

    counts = []
    for size in (1, 4):
        monkeypatch.setattr(views, "PAGE_SIZE", size)
        with CaptureQueriesContext(connection) as q:
            assert client.get(reverse("ratings:board")).status_code == 200
        counts.append(len(q))
    assert counts[0] == counts[1]


def test_the_player_page_shows_his_rating_and_a_chart_of_his_matches(client, season):
    p = season[0]
    page = client.get(reverse("archive:player", args=[p.pk])).content.decode()
    row = PlayerRating.objects.get(player=p, game=BILKA_FOUR)
    assert f"<strong>{round(row.rating)}</strong>" in page
    assert page.count('class="rc-point"') == 6  # one point per rated match, each a link to it
    chart = client.get(reverse("ratings:chart", args=[p.pk]))
    assert chart["Content-Type"].startswith("image/svg+xml")
    svg = chart.content.decode()
    assert "<svg" in svg and "<script" not in svg
    assert reverse("ratings:board") in page
    detail = client.get(reverse("clubs:player_detail", args=[p.pk])).content.decode()
    assert f"Rating {round(row.rating)}" in detail


def test_a_newcomer_is_provisional(client, season):
    page = client.get(reverse("archive:player", args=[season[5].pk])).content.decode()
    assert "provisional" in page


def _swiss(club, organiser, **extra):
    return services.create_tournament(actor=organiser, club=club, name="Рейтинговый", format="swiss",
                                      swiss_rounds=3, starts_on=datetime.date(2026, 10, 2), **extra)


def test_the_match_page_gives_chances_and_moves_before_the_match(client, club, organiser, season):
    t = _swiss(club, organiser)
    register_pairs(t, organiser, 2)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    m = rnd.matches.get()
    page = client.get(m.get_absolute_url()).content.decode()
    assert "chance to win" in page
    assert page.count('class="gain" title="a win 12:11 … 12:0">+') == 4
    assert "%</p>" in page


def test_an_unrated_event_says_so(client, club, organiser):
    t = _swiss(club, organiser, rated=False)
    register_pairs(t, organiser, 2)
    m = services.pair_next_round(actor=organiser, tournament=t).matches.get()
    assert "This event is unrated" in client.get(m.get_absolute_url()).content.decode()


def test_rated_cannot_change_once_round_one_is_paired(club, organiser):
    from django.core.exceptions import ValidationError

    t = _swiss(club, organiser)
    register_pairs(t, organiser, 2)
    services.pair_next_round(actor=organiser, tournament=t)
    t.refresh_from_db()
    with pytest.raises(ValidationError):
        services.update_tournament(actor=organiser, tournament=t, rated=False)


def test_standings_rows_show_ratings_and_link_the_players(client, club, organiser, season):
    t = _swiss(club, organiser)
    pairs = register_pairs(t, organiser, 2)
    PlayerRating.objects.create(player=pairs[0].player_a, rating=1600, deviation=50, mu=0.25, var=0.0156,
                                matches=9)
    services.pair_next_round(actor=organiser, tournament=t)
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert reverse("archive:player", args=[pairs[0].player_a_id]) in page
    # a 1600 player and a newcomer at 1500 make a 1550 pair, on the players' own scale
    assert "rating-cell" in page and "1550" in page and "Pair rating" in page


def test_the_organiser_sees_a_recompute_under_way(client, club, organiser):
    t = _swiss(club, organiser)
    RatingRun.objects.create(status=RunStatus.RUNNING, done=1200, total=5000)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:dashboard", args=[t.slug])).content.decode()
    assert "Ratings are being recomputed: 1,200 of 5,000 matches." in page


def test_the_explanation_page(client):
    page = client.get(reverse("ratings:how")).content.decode()
    assert "provisional" in page and "0.3607" in page and "a third" in page
    assert "played out by bots · changing partners" in page and "Elo for teams" in page


def test_the_match_page_shows_what_the_played_match_did(client, club, organiser, season):
    t = _swiss(club, organiser)
    home, away = register_pairs(t, organiser, 2)
    m = services.pair_next_round(actor=organiser, tournament=t).matches.get()
    four = [m.home.player_a, m.away.player_a, m.home.player_b, m.away.player_b]
    state = bot_match(Rules(), seed=900)
    ns, ew = state.capped_score
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk) for i, p in enumerate(four)]
    archived = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="tournament", seats=seats, rules={}, played_at=timezone.now(), ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner], reason="eyes", record=write_record(state), tournament=t.pk,
        tournament_match=m.pk, rated=True))
    ratings.match_changed(sender=None, match_id=archived.pk, change="created", players=[])
    page = client.get(m.get_absolute_url()).content.decode()
    assert "What this match did to the ratings" in page
    assert page.count("1500 → ") == 4  # four newcomers, each moved
