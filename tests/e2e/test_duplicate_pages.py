"""An organiser runs a duplicate event over the board: created by clicking, round 1 paired, each
table's boards entered, the standings in percentages, a board's traveller and the hand records."""

import re

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, UserFactory
from tournaments.models import BoardResult, Tournament

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
PAIRS = "Арман Сейткали & Болат Нуржанов\nВера Ким & Галия Ахметова\nДанияр Омаров & Елена Павленко\n" \
        "Жанна Исаева & Зарина Толеу"


def _flat(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def _shot(page, path) -> None:
    _flat(page)
    page.screenshot(path=path, full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
def test_organiser_runs_a_duplicate_event(live_server, chromium_path, screenshots_dir, viewport):
    club = ClubFactory(name="Успенка", slug="uspenka")
    Membership.objects.create(club=club, user=UserFactory(username="zhanar"), role=Role.ORGANISER)
    base, w = live_server.url, viewport["width"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=login]", "zhanar")
            page.fill("input[name=password]", PASSWORD)
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{base}/")
            page.goto(f"{base}/clubs/uspenka/tournaments/")
            page.locator("a[href='/clubs/uspenka/tournaments/new/']").first.click()
            page.fill("input[name=name]", "Дубль в Успенке")
            page.fill("input[name=starts_on]", "2026-12-06")
            page.select_option("select[name=format]", "duplicate")
            page.fill("input[name=boards_per_round]", "2")
            page.select_option("select[name=movement]", "howell")
            page.select_option("select[name=seeding]", "manual")
            page.locator("main form button[type=submit]").click()
            page.wait_for_url("**/entries/")
            page.fill("textarea[name=text]", PAIRS)
            page.locator("form[action$='/entries/bulk/'] button[type=submit]").click()
            expect(page.locator(".list-title")).to_have_count(4)
            t = Tournament.objects.get()
            assert t.format == "duplicate" and t.boards_per_round == 2 and t.movement == "howell"

            page.locator("nav.tabs a").first.click()
            page.locator("form[action$='/pair/'] button").click()
            page.wait_for_url(f"{base}/t/{t.slug}/rounds/1/")
            expect(page.locator(".pairing")).to_have_count(2)
            _shot(page, screenshots_dir / f"duplicate-round-{w}.png")

            for index, (first, second) in enumerate(((70, 60), (50, 60))):
                page.goto(f"{base}/t/{t.slug}/rounds/1/")
                page.locator(".pairing").nth(index).locator("a.pairing-link").first.click()
                page.wait_for_url("**/boards/")
                page.fill("input[name=ns_1]", str(first))
                page.fill("input[name=ns_2]", str(second))
                if index == 0:
                    _shot(page, screenshots_dir / f"duplicate-entry-{w}.png")
                page.locator("form.board-form button[type=submit]").click()
                expect(page.locator("#board-entry")).to_contain_text("1, 2")
            assert BoardResult.objects.count() == 4

            page.locator("nav.tabs a[href$='/standings/']").click()
            table = page.locator("table.duplicate-standings")
            expect(table).to_contain_text("75,00")  # in the reader's own figures
            expect(table.locator("td.percent")).to_have_text(["75,00", "75,00", "25,00", "25,00"])
            expect(table.locator("td.place")).to_have_text(["1=", "1=", "3=", "3="])
            _shot(page, screenshots_dir / f"duplicate-standings-{w}.png")

            page.locator("nav.tabs a[href$='/boards/']").click()
            page.locator("a[href$='/boards/1/']").click()
            expect(page.locator("#traveller .hand")).to_have_count(4)
            expect(page.locator("#traveller table")).to_contain_text("70")
            _shot(page, screenshots_dir / f"duplicate-traveller-{w}.png")

            page.goto(f"{base}/t/{t.slug}/day/")
            page.locator("#board-links a[href$='/boards/print/']").click()
            expect(page.locator(".hand-record")).to_have_count(6)
            expect(page.locator(".count-check").first).to_contain_text("32")
            _shot(page, screenshots_dir / f"duplicate-hand-records-{w}.png")
            page.emulate_media(media="print")
            page.screenshot(path=screenshots_dir / f"duplicate-hand-records-print-{w}.png", full_page=True)
            if w == WIDE["width"]:  # the records on A4 as the printer gets them
                pdf = page.pdf(path=screenshots_dir / "duplicate-hand-records.pdf", format="A4")
                assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 4  # 6 boards 2 a page, the cards
            page.emulate_media(media="screen")

            page.goto(f"{base}/t/{t.slug}/")
            expect(page.locator("#board-seed")).to_contain_text(t.board_commitment)
            _shot(page, screenshots_dir / f"duplicate-home-{w}.png")
        finally:
            context.close()
            browser.close()
