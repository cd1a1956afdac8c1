"""A tournament of Kozyol khvalyony in Chromium, on a phone (360 px) and a desktop (1280 px): the
organiser opens the new-event form, chooses Kozyol by its link (its own house rules appear), a
duplicate format is refused in Russian, the event is created; its page names the game with a link to
Kozyol's rules, and a match's score sheet has the catch column. No page scrolls sideways; the
screenshots go to /tmp/koztour-*.png for a person to look at."""

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
LOOK = Path("/tmp")  # noqa: S108 - screenshots to look at, nothing secret


def _no_horizontal_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "360"), (DESKTOP, "1280")])
def test_a_kozyol_event_is_created_and_shown(live_server, chromium_path, screenshots_dir, viewport, name):
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=login]", "zhanar")
            page.fill("input[name=password]", PASSWORD)
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{base}/")
            page.goto(f"{base}/clubs/uspenka/tournaments/new/")
            page.locator("#game-choice a[data-game=kozyol]").click()
            page.wait_for_url("**/tournaments/new/?game=kozyol")
            expect(page.locator("input[name=game]")).to_have_value("kozyol")
            expect(page.locator("#game-choice a[href='/rules/kozyol/']")).to_be_visible()
            # Kozyol events are rated in Kozyol's own rating: the switch is offered
            expect(page.locator("input[name=rated]")).to_have_count(1)
            page.fill("input[name=name]", "Кубок Козла")
            page.fill("input[name=starts_on]", "2026-12-20")
            page.select_option("select[name=format]", "duplicate")
            page.locator("form.card button[type=submit]").click()
            expect(page.locator("form.card")).to_contain_text("раздачи построены только для Белки")
            assert Tournament.objects.count() == 0
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"koztour-refused-{name}.png", full_page=True)
            page.select_option("select[name=format]", "round_robin")
            page.locator("details.more:has(input[name=rule_six_of_clubs]) summary").click()
            page.screenshot(path=LOOK / f"koztour-form-{name}.png", full_page=True)
            page.locator("form.card button[type=submit]").click()
            page.wait_for_url("**/entries/")
            t = Tournament.objects.get()
            assert t.rules["game"] == "kozyol"
            players = []
            for i, who in enumerate(("Асель", "Олег", "Иван", "Нурлан")):
                pl = PlayerFactory(display_name=who)
                ClubPlayer.objects.create(club=club, player=pl, added_as=who)
                players.append(pl)
                if i % 2:
                    services.register_entry(actor=organiser, tournament=t, player_a=players[i - 1],
                                            player_b=pl)
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            page.goto(base + t.get_absolute_url())
            game = page.locator("#t-game")
            expect(game).to_have_text("Козёл хвалёный")
            expect(game).to_have_attribute("href", "/rules/kozyol/")
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"koztour-home-{name}.png", full_page=True)
            page.screenshot(path=screenshots_dir / f"kozyol-event-{name}.png", full_page=True)
            match = rnd.matches.filter(bye=False).first()
            page.goto(base + match.get_absolute_url())
            page.locator("details:has(table[data-deal-grid]) > summary").first.click()
            expect(page.locator("table[data-deal-grid] thead")).to_contain_text("поимка")
            expect(page.locator("table[data-deal-grid] thead")).to_be_visible()
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"koztour-match-{name}.png", full_page=True)
            page.goto(base + t.get_absolute_url())
            page.locator("#t-game").click()
            page.wait_for_url("**/rules/kozyol/")
        finally:
            browser.close()
