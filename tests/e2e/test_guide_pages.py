"""The rules and help pages and the table's first-visit help in Chromium: the note about the redeal
question shows on a browser's first table, goes when dismissed and stays away on the next table;
the rules page reads at 390 and 1280 px without a sideways scroll, its cards drawn as the table's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay.engine.rules import Rules
from gameplay.models import Table

from .conftest import CHROMIUM_ARGS
from .test_offline import READY, Site

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_the_first_visit_note_shows_once_and_stays_dismissed(live_server, chromium_path, screenshots_dir):
    first = Table.objects.create(rules=Rules().to_json(), redeal_seconds=20)
    second = Table.objects.create(rules=Rules().to_json())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE_390, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/tables/{first.pk}/")
            note = page.locator("#table-first-help")
            expect(note).to_be_visible()
            expect(note).to_contain_text("20 секунд")
            expect(note.locator("a[href='/help/']")).to_be_visible()
            # below the hand and the question's buttons: it never pushes the hand out of sight
            after = page.evaluate("""() => ['.bt-hand', '.bt-decide'].every((q) =>
                document.querySelector(q).compareDocumentPosition(
                    document.getElementById('table-first-help')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
            assert after
            page.screenshot(path=screenshots_dir / "table-first-help-390.png")
            page.locator("#table-first-help-close").click()
            expect(note).to_be_hidden()
            page.reload()
            expect(page.locator("#table-guide a[href='/rules/']")).to_be_visible()
            expect(note).to_be_hidden()
            page.goto(f"{live_server.url}/tables/{second.pk}/")
            expect(page.locator("#table-guide")).to_be_visible()
            expect(note).to_be_hidden()
        finally:
            context.close()
        fresh = browser.new_context(viewport=PHONE_390, locale="ru-RU")  # another phone: shown again
        try:
            page = fresh.new_page()
            page.goto(f"{live_server.url}/tables/{second.pk}/")
            expect(page.locator("#table-first-help")).to_be_visible()
            expect(page.locator("#table-first-help")).to_contain_text("15 секунд")
        finally:
            fresh.close()
            browser.close()


@pytest.mark.parametrize("viewport", [PHONE_390, DESKTOP], ids=["390", "1280"])
@pytest.mark.parametrize("path", ["/rules/", "/help/"])
def test_the_guide_pages_read_without_a_sideways_scroll(
    live_server, chromium_path, screenshots_dir, viewport, path
):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="kk-KZ")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}{path}")
            assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
            if path == "/rules/":
                jacks = page.locator(".guide-ladder").first.locator(".bt-card")
                expect(jacks).to_have_count(4)
                # drawn by table.css: a white card, the red suits in the table's red
                assert (
                    jacks.nth(0).evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
                )
                red = jacks.nth(2).evaluate("e => getComputedStyle(e).color")
                black = jacks.nth(0).evaluate("e => getComputedStyle(e).color")
                assert red != black
                page.goto(f"{live_server.url}/rules/#rule-eggs")
                expect(page.locator("#rule-eggs")).to_be_in_viewport()
            name = path.strip("/") + f"-{viewport['width']}.png"
            page.screenshot(path=screenshots_dir / name, full_page=True)
        finally:
            context.close()
            browser.close()


def test_each_house_rule_of_the_form_links_its_explanation(live_server, chromium_path, screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE_390, locale="uk-UA")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/tables/new/")
            page.locator(".tc-house > summary").click()
            links = page.locator(".tc-house a.tc-more")
            expect(links).to_have_count(len(Rules.__dataclass_fields__))
            assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
            page.locator("input[name=lucy_by]").first.scroll_into_view_if_needed()
            page.screenshot(path=screenshots_dir / "table-create-rule-links-390.png")
            page.locator(".tc-house a[href='/rules/#rule-lucy_by']").click()
            page.wait_for_url("**/rules/#rule-lucy_by")
            expect(page.locator("#rule-lucy_by")).to_be_in_viewport()
            expect(page.locator("#rule-lucy_by")).to_contain_text("Люся")
        finally:
            context.close()
            browser.close()


def test_the_rules_read_offline_once_opened(tmp_path, chromium_path, screenshots_dir):
    """At a real table with no connection the rules settle a dispute: the page opened while the site
    was up comes from the phone's copy, its cards still drawn with the table's style."""
    site = Site(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE_390, locale="ru-RU")
        page = context.new_page()
        try:
            with site.up():
                page.goto(site.url + "/rules/")
                assert page.evaluate(READY) is True
                page.reload()
                expect(page.locator("#offline-as-of")).to_have_count(0)
            page.reload()  # the site is down now
            expect(page.locator("#offline-as-of")).to_be_visible()
            expect(page.locator("#rule-eggs")).to_contain_text("яйца")
            jack = page.locator(".guide-ladder").first.locator(".bt-card").first
            assert jack.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
            page.screenshot(path=screenshots_dir / "rules-offline-390.png")
        finally:
            context.close()
            browser.close()
