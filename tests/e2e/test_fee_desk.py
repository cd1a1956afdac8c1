"""In Chromium, on a phone and a desk's screen: the organiser checks a pair in with its fee chosen
beside the button, and the dashboard then counts it among the paid with the totals."""

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import EntryStatus, Paid

from .conftest import CHROMIUM_ARGS, club_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("Асель Ахметова", "Болат Жумабаев", "Дана Серікова", "Ерлан Оспанов", "Жанна Ким", "Ілияс Нұров",
         "Қайрат Әлиев", "Ләззат Өтебаева", "Мұрат Үсенов", "Нұргүл Һасенова")  # fmt: skip


def _event():
    t, organiser, pairs = club_event(NAMES, name="Кубок с взносом", format="swiss", swiss_rounds=3,
                                     entry_fee=2000)
    services.check_in_entry(actor=organiser, entry=pairs[1], paid=Paid.TRANSFER, amount=2500)
    services.check_in_entry(actor=organiser, entry=pairs[2], paid=Paid.WAIVED)
    return t, pairs


def _sign_in(browser, base, viewport):
    page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "zhanar")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return page


def test_check_in_with_the_fee_and_the_dashboard_totals(live_server, chromium_path, screenshots_dir):
    t, pairs = _event()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            phone = _sign_in(browser, base, {"width": 390, "height": 844})
            phone.goto(f"{base}/t/{t.slug}/entries/")
            row = phone.locator(f"#entry-{pairs[0].pk}")
            row.locator("select[name=paid]").select_option("cash")
            phone.screenshot(path=screenshots_dir / "fees-entries-390.png", full_page=True)
            row.locator("button", has_text="Отметить").click()
            expect(phone.locator(f"#fee-{pairs[0].pk} .fee-badge")).to_contain_text("Наличными")
            pairs[0].refresh_from_db()
            assert (pairs[0].status, pairs[0].paid) == (EntryStatus.CHECKED_IN, "cash")
            assert pairs[0].paid_amount == 2000
            phone.locator(f"#fee-{pairs[1].pk} summary").click()
            phone.screenshot(path=screenshots_dir / "fees-entries-open-390.png", full_page=True)
            phone.goto(f"{base}/t/{t.slug}/day/")
            fees = phone.locator("#day-fees")
            expect(fees).to_contain_text("не оплатили: 2")
            expect(fees).to_contain_text(pairs[3].name)
            expect(fees.locator("#fees-totals")).to_contain_text("4\u202f500\u00a0₸")
            fees.scroll_into_view_if_needed()
            phone.screenshot(path=screenshots_dir / "fees-dashboard-390.png", full_page=True)
            fees.screenshot(path=screenshots_dir / "fees-dashboard-box-390.png")
            desk = _sign_in(browser, base, {"width": 1280, "height": 900})
            desk.goto(f"{base}/t/{t.slug}/entries/")
            desk.screenshot(path=screenshots_dir / "fees-entries-1280.png", full_page=True)
            desk.goto(f"{base}/t/{t.slug}/day/")
            desk.screenshot(path=screenshots_dir / "fees-dashboard-1280.png", full_page=True)
        finally:
            browser.close()
