"""In Chromium, on a phone and a desk's screen: the organiser sets a women's category in the event's
settings, writes the players' details, and prints the prize list with its certificates as a PDF in
which every Kazakh letter shows (var/screenshots/prizes-*.png and prizes-print.pdf, for a person to
look at)."""

import datetime

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.tournaments.conftest import play_round
from tournaments import selectors, services

from .conftest import CHROMIUM_ARGS, club_event
from .test_fee_desk import _sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("Әсел Құрманғали", "Ұлжан Өтебаева", "Нұрлан Ахметов", "Қайрат Әлиев", "Іңкәр Һасенова",
         "Ләззат Үсенова", "Ерлан Оспанов", "Мұрат Ғабитов")  # fmt: skip


def _finished():
    t, organiser, pairs = club_event(
        NAMES, name="Құрманғали кубогы", format="swiss", swiss_rounds=2,
        starts_on=datetime.date(2026, 12, 5), venue="Успенка, мәдениет үйі",
        prizes=["Жылқы", "30 000", "20 000"],
    )  # fmt: skip
    for _n in range(2):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser,
                   loser_eyes=lambda m: 3 + m.table)  # fmt: skip
    t.refresh_from_db()
    return t, pairs


def test_categories_details_and_printed_certificates(live_server, chromium_path, screenshots_dir):
    t, pairs = _finished()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            phone = _sign_in(browser, base, {"width": 390, "height": 844})
            phone.goto(f"{base}/t/{t.slug}/edit/")
            phone.locator("#prize-categories > summary").click()
            phone.fill("input[name=cat_1_name]", "Үздік әйелдер жұбы")
            phone.fill("textarea[name=cat_1_prizes]", "10 000")
            phone.select_option("select[name=cat_1_gender]", "f")
            phone.locator("#prizes-settings").screenshot(path=screenshots_dir / "prizes-settings-390.png")
            phone.locator("button.button-block", has_text="Сохранить").click()
            expect(phone.locator(".messages")).to_contain_text("Сохранено")

            phone.goto(f"{base}/t/{t.slug}/prizes/players/")
            women = pairs[2]  # Іңкәр and Ләззат
            for player in (women.player_a, women.player_b):
                phone.select_option(f"select[name=g_{player.pk}]", "f")
                phone.fill(f"input[name=y_{player.pk}]", "1990")
            phone.screenshot(path=screenshots_dir / "prizes-details-390.png", full_page=True)
            phone.locator("button.button-block", has_text="Сохранить").click()
            expect(phone.locator(".messages")).to_contain_text("изменено: 2")

            phone.goto(f"{base}/t/{t.slug}/")
            prizes = phone.locator("#prizes")
            expect(prizes).to_contain_text("Үздік әйелдер жұбы")
            expect(prizes).to_contain_text("Іңкәр Һасенова")
            prizes.screenshot(path=screenshots_dir / "prizes-home-390.png")

            desk = _sign_in(browser, base, {"width": 1280, "height": 900})
            desk.goto(f"{base}/t/{t.slug}/edit/")
            desk.locator("#prize-categories > summary").click()
            desk.locator("#prizes-settings").screenshot(path=screenshots_dir / "prizes-settings-1280.png")
            desk.goto(f"{base}/t/{t.slug}/day/")
            desk.locator("#prize-links a", has_text="Печать").click()
            expect(desk.locator(".print-prizes")).to_contain_text("Жылқы")
            desk.screenshot(path=screenshots_dir / "prizes-print-1280.png", full_page=True)
            desk.emulate_media(media="print")
            desk.pdf(path=str(screenshots_dir / "prizes-print.pdf"), format="A4")
            t.refresh_from_db()  # the category the browser added above; a stale copy lists one line less
            given = [line for line in selectors.prize_list(tournament=t) if line.winners]
            assert len(given) >= 3 and desk.locator(".certificate").count() == len(given)
        finally:
            browser.close()
