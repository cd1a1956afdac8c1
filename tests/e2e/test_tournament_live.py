"""Spectators watch standings change live: a result confirmed elsewhere reaches the open page unreloaded.

The site runs under Daphne (HTTP and websockets, tests/e2e/test_tables_play.py's fixture); the
results are confirmed through the service in this process and by the organiser from his own
browser on the dashboard. The spectator's page is never reloaded (a marker on ``window`` stays).
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Round

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import asgi_server  # noqa: F401 - the Daphne fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _swiss():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(
        actor=organiser, club=club, name="Живая швейцарка", format="swiss", swiss_rounds=3, seeding="manual"
    )
    players = []
    for i in range(8):
        p = PlayerFactory(display_name=f"Игрок {i + 1}")
        ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
        players.append(p)
    for i in range(4):
        services.register_entry(
            actor=organiser, tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    return t, organiser, rnd


def _points(page, entry):
    return page.locator("table.standings tr", has_text=entry.name).locator("td.num strong")


def test_standings_change_live_for_a_spectator(asgi_server, chromium_path, screenshots_dir):  # noqa: F811
    t, organiser, rnd = _swiss()
    first, second = rnd.matches.order_by("table")
    base = asgi_server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        spectator = browser.new_context(viewport=PHONE, locale="en")
        page = spectator.new_page()
        page.goto(f"{base}/t/{t.slug}/standings/")
        expect(page.locator("#t-live[data-live-connected='1']")).to_have_count(1)
        page.evaluate("window.__notReloaded = 42")
        expect(_points(page, first.home)).to_have_text("0")

        services.enter_result(actor=organiser, match=first, home_eyes=12, away_eyes=7)

        expect(_points(page, first.home)).to_have_text("1")
        expect(_points(page, first.away)).to_have_text("0")

        # the organiser corrects the other result from the dashboard in his own browser
        desk = browser.new_context(viewport=PHONE, locale="en")
        admin = desk.new_page()
        admin.goto(f"{base}/accounts/login/")
        admin.fill("input[name=login]", organiser.username)
        admin.fill("input[name=password]", PASSWORD)
        admin.locator("form.auth-form button[type=submit]").click()
        admin.wait_for_url(f"{base}/")
        # a table is "stuck" (with forfeit buttons) only once its round's deadline has passed
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=1))
        admin.goto(f"{base}/t/{t.slug}/day/")
        stuck = admin.locator(f"[data-match='{second.pk}']")
        stuck.locator("a[data-confirm]", has_text=f"{second.home.short_name} forfeits").click()
        admin.locator("dialog[open] button.button-danger").click()  # the forfeit asks first
        admin.wait_for_url(f"{base}/t/{t.slug}/day/")

        expect(_points(page, second.away)).to_have_text("1")
        assert page.evaluate("window.__notReloaded") == 42
        page.screenshot(path=screenshots_dir / "tournament-live-standings.png", full_page=True)
        browser.close()
