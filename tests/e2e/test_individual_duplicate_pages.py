"""An organiser runs an individual duplicate over the board: the format chosen on the event form, round
1 seated, the tables' boards entered, the standings counting a board only once both tables played it,
and a board's traveller naming each side's two players."""

import shutil

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
NAMES = ("Арман Сейткали", "Болат Нуржанов", "Вера Ким", "Галия Ахметова", "Данияр Омаров",
         "Елена Павленко", "Жанна Исаева", "Зарина Толеу")


def _shot(page, path) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"
    page.screenshot(path=path, full_page=True)
    shutil.copy(path, f"/tmp/indiv-{path.name}")


def _enter(page, base, t, index, first, second=None) -> None:
    page.goto(f"{base}/t/{t.slug}/rounds/1/")
    page.locator(".seated-table").nth(index).locator("p.small a").first.click()
    page.wait_for_url("**/boards/")
    page.fill("input[name=ns_1]", str(first))
    if second is not None:
        page.fill("input[name=ns_2]", str(second))
    page.locator("form.board-form button[type=submit]").click()
    expect(page.locator("#board-entry")).to_contain_text("1")


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
def test_organiser_runs_an_individual_duplicate(live_server, chromium_path, screenshots_dir, viewport):
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
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
            page.goto(f"{base}/clubs/uspenka/tournaments/new/")
            page.fill("input[name=name]", "Личный дубль")
            page.fill("input[name=starts_on]", "2026-12-06")
            page.select_option("select[name=format]", "ind_duplicate")
            expect(page.locator("select[name=format] option[value=ind_duplicate]")).to_contain_text(
                "Личный дубликат")
            page.fill("input[name=swiss_rounds]", "7")
            page.fill("input[name=boards_per_round]", "2")
            page.locator("main form button[type=submit]").click()
            page.wait_for_url("**/entries/")
            t = Tournament.objects.get()
            assert t.format == "ind_duplicate" and t.boards_per_round == 2 and t.swiss_rounds == 7
            for name in NAMES:
                player = PlayerFactory(display_name=name)
                ClubPlayer.objects.create(club=club, player=player, added_as=name)
                services.register_player(actor=organiser, tournament=t, player=player)

            page.goto(f"{base}/t/{t.slug}/")
            page.locator("form[action$='/pair/'] button").click()
            page.wait_for_url(f"{base}/t/{t.slug}/rounds/1/")
            expect(page.locator(".seated-table")).to_have_count(2)

            _enter(page, base, t, 0, 70, 60)
            _enter(page, base, t, 1, 50)  # board 1 done at both tables, board 2 still in play
            page.goto(f"{base}/t/{t.slug}/standings/")
            table = page.locator("table.duplicate-standings")
            expect(table.locator("tbody tr")).to_have_count(8)
            expect(table.locator("td.percent")).to_have_text(["100,00"] * 4 + ["0,00"] * 4)
            expect(page.locator("#boards-in-play")).to_be_visible()
            _shot(page, screenshots_dir / f"ind-duplicate-standings-running-{w}.png")

            _enter(page, base, t, 1, 50, 60)
            page.goto(f"{base}/t/{t.slug}/standings/")
            expect(table.locator("td.percent")).to_have_text(["75,00"] * 4 + ["25,00"] * 4)
            _shot(page, screenshots_dir / f"ind-duplicate-standings-{w}.png")

            page.goto(f"{base}/t/{t.slug}/boards/1/")
            expect(page.locator("#traveller .hand")).to_have_count(4)
            expect(page.locator("#traveller table")).to_contain_text("70")
            _shot(page, screenshots_dir / f"ind-duplicate-traveller-{w}.png")
            page.goto(f"{base}/t/{t.slug}/")
            _shot(page, screenshots_dir / f"ind-duplicate-home-{w}.png")
        finally:
            context.close()
            browser.close()
