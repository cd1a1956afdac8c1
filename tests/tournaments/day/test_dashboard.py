"""The organiser's dashboard: who may see it, and its one-click actions going through the services."""

from html import escape

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import DaySettings, MatchStatus

from ..conftest import play_round

pytestmark = pytest.mark.django_db


def _url(t, name="dashboard"):
    return reverse(f"tournaments:{name}", kwargs={"slug": t.slug})


def test_anonymous_visitors_are_sent_to_log_in(client, swiss8):
    for response in (
        client.get(_url(swiss8)),
        client.post(_url(swiss8, "dashboard_action"), {"action": "pair_next"}),
    ):
        assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_players_who_do_not_run_the_club_get_403(client, swiss8, who, request):
    user = request.getfixturevalue(who)
    client.login(username=user.username, password=PASSWORD)
    assert client.get(_url(swiss8)).status_code == 403
    response = client.post(_url(swiss8, "dashboard_action"), {"action": "pair_next"})
    assert response.status_code == 403
    assert swiss8.rounds.count() == 0


def test_the_organiser_pairs_and_starts_a_round_in_one_click(client, swiss8, organiser):
    client.login(username="organiser", password=PASSWORD)
    page = client.get(_url(swiss8)).content.decode()
    assert "Pair and start round 1" in page

    response = client.post(_url(swiss8, "dashboard_action"), {"action": "pair_next"}, follow=True)

    assert swiss8.rounds.count() == 1
    assert "Round 1 is paired." in response.content.decode()
    assert AuditEntry.objects.filter(action="round.pair", actor=organiser).count() == 1


def test_the_dashboard_lists_disputes_and_the_organiser_settles_them(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=1)
    home_user, away_user = m.home.player_a.user, m.away.player_a.user
    services.enter_result(actor=home_user, match=m, home_eyes=12, away_eyes=5)
    services.dispute_result(actor=away_user, match=m, note="было 12:9")
    client.login(username="organiser", password=PASSWORD)
    page = client.get(_url(swiss8)).content.decode()
    assert "disputed" in page and f'data-match="{m.pk}"' in page

    client.post(
        _url(swiss8, "dashboard_action"),
        {"action": "correct", "match": m.pk, "home_eyes": 12, "away_eyes": 9, "reason": "sheet"},
    )
    m.refresh_from_db()
    assert (m.home_eyes, m.away_eyes, m.status) == (12, 9, MatchStatus.CONFIRMED)
    assert m.corrections.count() == 1


def test_a_forfeit_asks_first_then_is_recorded(client, swiss8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    m = rnd.matches.get(table=2)
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:forfeit", args=[swiss8.slug, m.pk, m.away_id]) + "?back=" + _url(swiss8)
    page = client.get(url).content.decode()
    assert f"Record a forfeit by {escape(m.away.name)}?" in page and f'action="{url}"' in page
    m.refresh_from_db()
    assert m.status == MatchStatus.SCHEDULED  # the question changed nothing
    response = client.post(url)
    assert response["Location"] == _url(swiss8)
    m.refresh_from_db()
    assert m.forfeit and (m.home_eyes, m.away_eyes) == (12, 0) and m.status == MatchStatus.CONFIRMED


def test_pairing_too_early_says_why(client, swiss8, organiser):
    services.pair_next_round(actor=organiser, tournament=swiss8)
    client.login(username="organiser", password=PASSWORD)
    response = client.post(_url(swiss8, "dashboard_action"), {"action": "pair_next"}, follow=True)
    assert "Round 1 is not complete" in response.content.decode()
    assert swiss8.rounds.count() == 1


def test_day_settings_are_saved_from_the_dashboard(client, swiss8, organiser):
    client.login(username="organiser", password=PASSWORD)
    client.post(
        _url(swiss8, "dashboard_action"),
        {"action": "settings", "reminder_minutes": 20, "no_show_minutes": 5, "round_minutes": 60},
    )
    day = DaySettings.objects.get(tournament=swiss8)
    assert (day.auto_pair, day.reminder_minutes, day.no_show_minutes, day.round_minutes) == (False, 20, 5, 60)


def test_rounds_and_their_state_on_the_dashboard(client, swiss8, organiser):
    play_round(services.pair_next_round(actor=organiser, tournament=swiss8), organiser)
    services.pair_next_round(actor=organiser, tournament=swiss8)
    client.login(username="organiser", password=PASSWORD)
    page = client.get(_url(swiss8)).content.decode()
    assert 'data-round="1"' in page and "4/4" in page and "0/4" in page


def test_the_now_playing_board_links_each_live_table(client, online8, organiser):
    from tournaments.services import runner

    services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    page = client.get(_url(online8, "now_playing")).content.decode()
    for m in online8.matches.all():
        assert f'href="/tables/{m.live_table}/"' in page


def test_the_organiser_opens_the_live_tables_of_an_online_round(client, online8, organiser):
    services.pair_next_round(actor=organiser, tournament=online8)  # the plan has not run yet
    client.login(username="organiser", password=PASSWORD)
    assert "Open live tables" in client.get(_url(online8)).content.decode()
    response = client.post(
        _url(online8, "dashboard_action"), {"action": "open_tables", "round": 1}, follow=True
    )
    assert "4 live table(s) opened." in response.content.decode()
    assert online8.matches.filter(live_table__isnull=False).count() == 4
    client.post(_url(online8, "dashboard_action"), {"action": "open_tables", "round": 1})
    assert online8.matches.filter(live_table__isnull=False).count() == 4


def test_players_read_their_notices_on_the_site(client, online8, organiser):
    from tournaments.models import Notification
    from tournaments.services import runner

    services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    m = online8.matches.get(table=1)
    user = m.home.player_a.user
    client.force_login(user)
    page = client.get(reverse("tournaments:my_notifications")).content.decode()
    assert "your table is ready" in page and f'href="/tables/{m.live_table}/"' in page and ">new<" in page
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    assert client.get(reverse("tournaments:my_notifications")).content.decode().count(">new<") == 0
