"""A villager's organiser on a phone: signs up, creates a club, adds a player without an account."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from clubs.models import Club, Player

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _no_horizontal_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def test_signup_create_club_add_player(live_server, chromium_path, screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "home-anonymous.png", full_page=True)

            page.goto(f"{live_server.url}/accounts/signup/")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "signup.png", full_page=True)
            page.fill("input[name=email]", "zhanar@example.com")
            page.fill("input[name=username]", "zhanar")
            page.fill("input[name=password1]", "uspenka-bilka-2026")
            page.fill("input[name=password2]", "uspenka-bilka-2026")
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{live_server.url}/")
            assert Player.objects.filter(user__username="zhanar").exists()

            page.goto(f"{live_server.url}/clubs/new/")
            page.fill("input[name=name]", "Успенка")
            page.fill("input[name=city]", "Успенка")
            page.fill("textarea[name=description]", "Играем по пятницам в Доме культуры.")
            page.locator("main form button[type=submit]").click()
            page.wait_for_url(f"{live_server.url}/clubs/uspenka/")
            assert Club.objects.get(slug="uspenka").memberships.get().user.username == "zhanar"

            page.goto(f"{live_server.url}/clubs/uspenka/roster/")
            page.fill("input[name=display_name]", "Нұрлан Ахметов")
            page.fill("input[name=city]", "Успенка")
            page.locator("form[action$='/roster/add/'] button[type=submit]").click()
            page.wait_for_url(f"{live_server.url}/clubs/uspenka/roster/")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "roster.png", full_page=True)

            page.goto(f"{live_server.url}/clubs/uspenka/")
            expect(page.locator("#players")).to_contain_text("Нұрлан Ахметов")
            expect(page.locator("h1")).to_have_text("Успенка")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "club-new.png", full_page=True)
            assert Player.objects.get(display_name="Нұрлан Ахметов").user is None

            page.goto(f"{live_server.url}/players/?q=Nurlan")
            expect(page.locator("main")).to_contain_text("Нұрлан Ахметов")
        finally:
            context.close()
            browser.close()


def test_screenshots_of_the_demo_site(live_server, chromium_path, screenshots_dir):
    """Not a behaviour check so much as the pictures a reviewer looks at before release."""
    call_command("seed_demo")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/accounts/login/")
            page.screenshot(path=screenshots_dir / "login.png", full_page=True)
            page.fill("input[name=login]", "demo")
            page.fill("input[name=password]", "bilka-demo")
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{live_server.url}/")
            shots = {
                "home": "/",
                "club": "/clubs/uspenka/",
                "roster-demo": "/clubs/uspenka/roster/",
                "members": "/clubs/uspenka/members/",
                "bulk": "/clubs/uspenka/roster/bulk/",
                "merge": "/clubs/uspenka/roster/merge/",
                "player-search": "/players/?q=Asel",
                "my-profile": "/me/",
            }
            for name, path in shots.items():
                page.goto(f"{live_server.url}{path}")
                _no_horizontal_scroll(page)
                page.screenshot(path=screenshots_dir / f"{name}.png", full_page=True)
            page.goto(f"{live_server.url}/clubs/uspenka/roster/bulk/")
            names = "Nurlan Akhmetov, Uspenka\nБақытжан Сейтқали, Успенка\n\nАнатолій Мельник"
            page.fill("textarea[name=text]", names)
            page.locator("main form button[type=submit]").click()
            expect(page.locator("#bulk-result")).to_contain_text("Nurlan Akhmetov, Uspenka")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "bulk-result.png", full_page=True)
            page.goto(f"{live_server.url}/")
            page.locator("header .menu-toggle").click()
            page.screenshot(path=screenshots_dir / "menu-open.png")
            page.select_option("#lang-select", "kk")
            page.locator(".lang-form button").click()
            page.wait_for_load_state()
            assert page.locator("html").get_attribute("lang") == "kk"
            page.goto(f"{live_server.url}/clubs/uspenka/")
            page.screenshot(path=screenshots_dir / "club-kk.png", full_page=True)
        finally:
            context.close()
            browser.close()


def test_village_player_claims_the_profile_with_the_link(live_server, chromium_path, screenshots_dir):
    """The organiser makes a link; the villager opens it on a phone, signs up and owns the profile."""
    call_command("seed_demo")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            organiser = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
            organiser.goto(f"{live_server.url}/accounts/login/")
            organiser.fill("input[name=login]", "organiser")
            organiser.fill("input[name=password]", "bilka-demo")
            organiser.locator("form.auth-form button[type=submit]").click()
            organiser.wait_for_url(f"{live_server.url}/")
            organiser.goto(f"{live_server.url}/clubs/uspenka/roster/")
            erlan = Player.objects.get(display_name="Ерлан Қасымов")
            organiser.locator(f"form[action$='/roster/invite/{erlan.pk}/'] button").click()
            organiser.wait_for_url("**/invitations/**")
            link = organiser.locator("#invite-link").inner_text().strip()
            organiser.screenshot(path=screenshots_dir / "invitation.png", full_page=True)

            villager = browser.new_context(viewport=PHONE, locale="kk-KZ").new_page()
            villager.goto(link)
            _no_horizontal_scroll(villager)
            villager.screenshot(path=screenshots_dir / "claim-anonymous.png", full_page=True)
            villager.locator("main a.button").first.click()  # sign up, coming back to the link
            villager.fill("input[name=email]", "erlan@example.com")
            villager.fill("input[name=username]", "erlan")
            villager.fill("input[name=password1]", "uspenka-bilka-2026")
            villager.fill("input[name=password2]", "uspenka-bilka-2026")
            villager.locator("form.auth-form button[type=submit]").click()
            villager.wait_for_url(link)
            villager.locator("main form button[type=submit]").click()
            villager.wait_for_url(f"{live_server.url}/players/{erlan.pk}/")
            expect(villager.locator("h1")).to_have_text("Ерлан Қасымов")
            villager.screenshot(path=screenshots_dir / "claimed-player.png", full_page=True)
            erlan.refresh_from_db()
            assert erlan.user.username == "erlan"
        finally:
            browser.close()
