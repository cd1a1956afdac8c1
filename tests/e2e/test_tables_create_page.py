"""Opening a table in Chromium at 360 px: the house rules folded under one heading, a preset that
fills every option at once, each option's words shown whole, and the table opened with them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay.models import Table

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_preset_fills_the_folded_options_and_every_option_reads_whole(live_server, chromium_path,
                                                                       screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/tables/new/")
            expect(page.locator("input[name=rout_at]").first).to_be_hidden()  # folded away
            page.get_by_text("Классические правила").click()
            page.locator(".tc-house > summary").click()
            expect(page.locator("input[name=rout_at][value='91']")).to_be_checked()
            expect(page.locator("input[name=lucy_by][value=points]")).to_be_checked()
            expect(page.locator("input[name=eggs][value=plus_four]")).to_be_checked()
            expect(page.locator("input[name=first_lead][value=after_dealer]")).to_be_checked()
            cut = page.evaluate("""() => [...document.querySelectorAll('#table-form label, legend')]
                .filter(e => e.scrollWidth > e.clientWidth + 1
                             || e.getBoundingClientRect().right > innerWidth)
                .map(e => e.textContent.trim())""")
            assert not cut, f"cut off at 360 px: {cut}"
            assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
            page.screenshot(path=screenshots_dir / "table-create-classic.png", full_page=True)
            page.locator("input[name=deck][value='36']").check()
            page.locator("#table-form button[type=submit]").click()
            page.wait_for_url("**/tables/*/")
            rules = Table.objects.get().rules
            chosen = (rules["rout_at"], rules["lucy_by"], rules["eggs"], rules["first_lead"], rules["deck"])
            assert chosen == (91, "points", "plus_four", "after_dealer", "36")
        finally:
            context.close()
            browser.close()
