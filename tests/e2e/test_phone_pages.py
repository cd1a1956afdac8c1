"""Tournament pages on a phone: the active tab is in view, the bracket shows how to reach the final,
and the printed pairings of a full evening fit one A4 page (and, read on the phone, only their table
scrolls sideways)."""

import datetime
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from clubs.models import Club, Role
from tests.clubs.factories import MembershipFactory, UserFactory
from tournaments import services

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _inside(page, inner: str, outer: str) -> bool:
    """Whether the element ``inner`` is shown whole inside the visible box of ``outer``."""
    return page.evaluate(
        """([inner, outer]) => {
            const a = document.querySelector(inner).getBoundingClientRect();
            const b = document.querySelector(outer).getBoundingClientRect();
            return a.left >= b.left - 1 && a.right <= b.right + 1;
        }""",
        [inner, outer],
    )


def test_the_active_tab_scrolls_into_view_on_a_phone(live_server, chromium_path, screenshots_dir):
    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        try:
            page.goto(f"{live_server.url}/t/pyatnichnaya-liga/live/")
            expect(page.locator(".tabs [aria-current=page]")).to_be_visible()
            page.wait_for_function("() => document.querySelector('.tabs').scrollLeft > 0")
            assert _inside(page, ".tabs [aria-current=page]", ".tabs")
            page.screenshot(path=screenshots_dir / "tabs-360.png")
            page.goto(f"{live_server.url}/t/pyatnichnaya-liga/")  # the first tab needs no scrolling
            assert _inside(page, ".tabs [aria-current=page]", ".tabs")
        finally:
            browser.close()


def test_the_bracket_hints_it_scrolls_and_leads_to_the_final(live_server, chromium_path, screenshots_dir):
    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        phone = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        wide = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU").new_page()
        try:
            phone.goto(f"{live_server.url}/t/osenniy-kubok-uspenki/bracket/")
            final = ".bracket-col:last-child"
            assert not _inside(phone, final, ".bracket")
            hint = phone.locator(".bracket-hint")
            expect(hint).to_be_visible()
            phone.screenshot(path=screenshots_dir / "bracket-360.png")
            hint.locator("button").click()
            phone.wait_for_function(
                "() => { const b = document.querySelector('.bracket');"
                " return b.scrollLeft + b.clientWidth >= b.scrollWidth - 1; }"
            )
            assert _inside(phone, final, ".bracket")
            expect(phone.locator(f"{final} h3")).to_have_text("Финал")
            phone.screenshot(path=screenshots_dir / "bracket-360-final.png")

            wide.goto(f"{live_server.url}/t/osenniy-kubok-uspenki/bracket/")
            assert _inside(wide, final, ".bracket")
            expect(wide.locator(".bracket-hint")).to_be_hidden()  # nothing to scroll, no hint
        finally:
            browser.close()


def test_printed_pairings_of_twenty_tables_fit_one_a4_page(live_server, chromium_path, screenshots_dir):
    organiser = UserFactory(username="organiser")
    club = Club.objects.create(name="Павлодар", slug="pavlodar", city="Павлодар")
    MembershipFactory(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(
        actor=organiser, club=club, name="Большой вечер Павлодарской области: открытый Кубок",
        format="swiss", swiss_rounds=5, starts_on=datetime.date(2026, 12, 1),
    )  # fmt: skip
    names = "\n".join(
        f"Мұхаммедқали Жаңабергенов {i} & Александра Константинопольская {i}" for i in range(40)
    )
    services.register_entries_bulk(actor=organiser, tournament=t, text=names)
    services.pair_next_round(actor=organiser, tournament=t)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        try:
            page.goto(f"{live_server.url}/t/{t.slug}/rounds/1/print/")
            # on the phone's screen the page itself does not scroll sideways: the table does, in its box
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"the pairings page scrolls sideways by {overflow}px on a phone"
            pdf = page.pdf(prefer_css_page_size=True)
            (screenshots_dir / "pairings-20-tables.pdf").write_bytes(pdf)
            pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
            assert pages == 1, f"20 tables print on {pages} pages"
            page.emulate_media(media="print")
            overflowing = page.evaluate(
                "[...document.querySelectorAll('table td, table th')]"
                ".filter(c => c.scrollWidth > c.clientWidth + 1).length"
            )
            assert overflowing == 0
            for number in (1, 20):
                expect(page.locator("tbody tr").nth(number - 1).locator("td").first).to_have_text(str(number))
        finally:
            browser.close()
