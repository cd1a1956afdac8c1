"""A new visitor finds the menu at every width: in the header on a wide screen, one tap away on a phone."""

import pytest
from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}
MENU_LINKS = ["/tables/", "/tournaments/", "/clubs/", "/players/", "/accounts/login/"]


def _menu_link(page, href):
    return page.locator(f"header nav a[href='{href}']")


def test_wide_screen_shows_every_menu_link_in_the_header(live_server, chromium_path, screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=WIDE, locale="ru-RU").new_page()
        try:
            page.goto(f"{live_server.url}/")
            page.screenshot(path=screenshots_dir / "menu-1280.png")
            for href in MENU_LINKS:
                expect(_menu_link(page, href)).to_be_visible()
            expect(page.locator("header .menu-toggle")).to_be_hidden()
            _menu_link(page, "/clubs/").click()
            page.wait_for_url(f"{live_server.url}/clubs/")
        finally:
            browser.close()


def test_phone_opens_the_menu_with_one_tap(live_server, chromium_path, screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        try:
            page.goto(f"{live_server.url}/")
            expect(_menu_link(page, "/clubs/")).to_be_hidden()  # folded away, the page comes first
            toggle = page.locator("header .menu-toggle")
            expect(toggle).to_have_attribute("aria-expanded", "false")
            toggle.click()
            expect(toggle).to_have_attribute("aria-expanded", "true")
            page.screenshot(path=screenshots_dir / "menu-360-open.png")
            for href in MENU_LINKS:
                expect(_menu_link(page, href)).to_be_visible()
            page.keyboard.press("Escape")
            expect(_menu_link(page, "/clubs/")).to_be_hidden()
            toggle.click()
            _menu_link(page, "/tournaments/").click()
            page.wait_for_url(f"{live_server.url}/tournaments/")
        finally:
            browser.close()
