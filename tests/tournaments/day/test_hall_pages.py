"""The hall's pages: the public wall screen, the clock on the players' and organiser's pages, and
the organiser's announcement and pin forms on the dashboard."""

from datetime import timedelta
from html import escape

import pytest
from django.utils import timezone

from clubs.models import Player
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import Announcement, Notification, Round

pytestmark = pytest.mark.django_db


def _hall(client, t):
    response = client.get(f"/t/{t.slug}/hall/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_hall_screen_is_public_and_shows_the_tables_and_who_sits_where(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    page = _hall(client, swiss8)
    assert "site-header" not in page  # a full screen: no site menu on the wall
    m = rnd.matches.get(table=2)
    tables = page.split('id="hall-tables"')[1].split("</section>")[0]
    assert 'data-table="2"><span class="hall-no">2</span>' in tables
    assert escape(m.home.name) in tables and escape(m.away.name) in tables
    names = page.split('id="hall-names"')[1].split("</section>")[0]
    name = m.home.player_a.display_name
    assert f'<span class="hall-name">{name}</span> <span class="hall-arrow" aria-hidden="true">→</span> ' \
           f'<span class="hall-at">table 2</span>' in names
    # without JavaScript: the pairings show, and the page reloads itself
    assert 'class="hall-view is-shown" data-view="tables"' in page
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in page


def test_the_hall_screen_of_an_unknown_tournament_is_404(client):
    assert client.get("/t/no-such-event/hall/").status_code == 404


def test_the_hall_shows_the_clock_and_the_latest_announcement(client, swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=45)
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    start = timezone.localtime().replace(hour=13, minute=45, second=0, microsecond=0)
    Round.objects.filter(pk=rnd.pk).update(created_at=start)
    services.post_announcement(actor=organiser, tournament=swiss8, text="Обед после третьего тура")
    page = _hall(client, swiss8)
    assert "ends at 14:30" in page
    assert 'data-clock-ends="' in page
    assert "Обед после третьего тура" in page.split('id="hall-announcement"')[1]


def test_the_clock_is_on_the_players_match_page_until_the_result(client, swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=30)
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    Round.objects.filter(pk=rnd.pk).update(
        created_at=timezone.localtime().replace(hour=10, minute=0, second=0, microsecond=0)
    )
    match = rnd.matches.get(table=1)
    player = Player.objects.get(pk=match.home.player_a_id)
    client.force_login(player.user)
    assert "ends at 10:30" in client.get(match.get_absolute_url()).content.decode()
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=4)
    assert "ends at" not in client.get(match.get_absolute_url()).content.decode()


def test_the_organiser_announces_from_the_dashboard_and_it_shows_on_the_tournament_page(
    client, swiss8, organiser
):
    client.force_login(organiser)
    day = client.get(f"/t/{swiss8.slug}/day/").content.decode()
    assert f'href="/t/{swiss8.slug}/hall/"' in day and "Show on the wall" in day
    response = client.post(f"/t/{swiss8.slug}/announcements/", {"text": "Все к столам!"}, follow=True)
    assert "The announcement is on the hall screen, and the players are told." in response.content.decode()
    assert Notification.objects.filter(kind="tournament.announcement").count() == 16
    client.logout()
    home = client.get(f"/t/{swiss8.slug}/").content.decode()
    assert "Все к столам!" in home.split('id="announcement"')[1]


def test_a_too_long_announcement_is_refused_on_the_page_and_nothing_is_sent(client, swiss8, organiser):
    client.force_login(organiser)
    response = client.post(f"/t/{swiss8.slug}/announcements/", {"text": "я" * 281}, follow=True)
    assert "at most 280 characters" in response.content.decode()
    assert not Announcement.objects.exists() and not Notification.objects.exists()


def test_a_player_cannot_post_an_announcement(client, swiss8):
    player = swiss8.entries.first().player_a
    client.login(username=player.user.username, password=PASSWORD)
    response = client.post(f"/t/{swiss8.slug}/announcements/", {"text": "Я главный"})
    assert response.status_code == 403
    assert not Announcement.objects.exists()


def test_the_organiser_pins_a_view_and_the_hall_stops_cycling(client, swiss8, organiser):
    services.pair_next_round(actor=organiser, tournament=swiss8)
    client.force_login(organiser)
    client.post(f"/t/{swiss8.slug}/hall/pin/", {"view": "names"})
    client.logout()
    page = _hall(client, swiss8)
    assert 'class="hall-view is-shown" data-view="names"' in page
    assert 'data-view="tables" id="hall-tables" data-off' in page


def test_late_tables_show_on_the_dashboard_round_clock(client, swiss8, organiser):
    services.update_tournament(actor=organiser, tournament=swiss8, round_length=20)
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    Round.objects.filter(pk=rnd.pk).update(created_at=timezone.now() - timedelta(minutes=25))
    client.force_login(organiser)
    page = client.get(f"/t/{swiss8.slug}/day/").content.decode()
    assert page.count("still playing: the round ended at") == 4
    assert 'class="round-clock is-over"' in page.split('id="day-hall"')[1]
