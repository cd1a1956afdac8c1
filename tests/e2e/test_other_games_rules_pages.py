"""The rules pages of Kozyol khvalyony and Bilka for two in Chromium: reached by a link from Bilka's
rules page, and read at 360 and 1280 px in Russian and Kazakh without a sideways scroll (the house
rules' tables with the engine's long names included)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM_ARGS, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SIZES = {"360": {"width": 360, "height": 780}, "1280": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("locale", ["ru-RU", "kk-KZ"])
def test_the_other_games_pages_are_linked_and_never_scroll_sideways(
    live_server, chromium_path, screenshots_dir, locale
):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for size, viewport in SIZES.items():
                context = browser.new_context(viewport=viewport, locale=locale)
                page = context.new_page()
                page.goto(f"{live_server.url}/rules/")
                assert sideways_overflow(page) == 0
                for path, slug in (("/rules/kozyol/", "kozyol"), ("/rules/bilka-2/", "bilka-2")):
                    page.goto(f"{live_server.url}/rules/")
                    page.locator(f"#other-games a[href='{path}']").click()
                    page.wait_for_url(f"**{path}")
                    expect(page.locator("#house-rules table")).to_be_visible()
                    assert sideways_overflow(page) == 0, f"{path} scrolls sideways at {size} px ({locale})"
                    shot = screenshots_dir / f"rules-{slug}-{locale}-{size}.png"
                    page.screenshot(path=shot, full_page=True)
                context.close()
        finally:
            browser.close()
