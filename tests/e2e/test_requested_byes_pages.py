"""In Chromium, on a phone and a desk's screen: a player asks his pair to sit out round 2 of a Swiss
and takes the ask back, asks again; the organiser asks for another pair on the entries page; once
round 2 is paired the crosstable and the standings show the asked byes apart from the pairing's."""

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.clubs.factories import PASSWORD, UserFactory
from tournaments import services
from tournaments.models import ByeRequest, Match

from .conftest import CHROMIUM_ARGS, club_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("Асель Ахметова", "Болат Жумабаев", "Дана Серікова", "Ерлан Оспанов", "Жанна Ким", "Ілияс Нұров",
         "Қайрат Әлиев", "Ләззат Өтебаева", "Мұрат Үсенов", "Нұргүл Һасенова")  # fmt: skip


def _event():
    return club_event(
        NAMES, accounts={0: UserFactory(username="asel")}, name="Швейцарка с пропусками", format="swiss",
        swiss_rounds=4, seeding="manual", bye_requests="half", bye_requests_not_last=1,
    )  # fmt: skip


def _sign_in(browser, base, viewport, username):
    page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return page


def _play(rnd, organiser):
    for m in Match.objects.filter(round=rnd, bye=False).order_by("table"):
        services.enter_result(actor=organiser, match=m, home_eyes=12, away_eyes=5)


def test_ask_take_back_and_see_the_asked_byes(live_server, chromium_path, screenshots_dir):
    t, organiser, pairs = _event()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            phone = _sign_in(browser, base, {"width": 390, "height": 844}, "asel")
            phone.goto(f"{base}/t/{t.slug}/entries/")
            card = phone.locator("#byes")
            expect(card).to_contain_text("Пропустить тур")
            expect(card.locator("select[name=entry]")).to_have_count(0)  # his own pair only
            card.locator("select[name=round]").select_option("2")
            phone.screenshot(path=screenshots_dir / "byes-player-390.png", full_page=True)
            card.locator("button", has_text="Попросить пропуск").click()
            expect(phone.locator("#byes")).to_contain_text("тур 2: попросили")
            assert ByeRequest.objects.filter(entry=pairs[0], round_number=2, withdrawn_at=None).exists()
            phone.locator("#byes button", has_text="Отменить просьбу").click()
            expect(phone.locator("#byes")).to_contain_text("Пропуск тура не просили")
            phone.locator("#byes select[name=round]").select_option("3")
            phone.locator("#byes button", has_text="Попросить пропуск").click()
            expect(phone.locator("#byes")).to_contain_text("тур 3: попросили")
            phone.screenshot(path=screenshots_dir / "byes-player-asked-390.png", full_page=True)

            desk = _sign_in(browser, base, {"width": 1280, "height": 900}, "zhanar")
            desk.goto(f"{base}/t/{t.slug}/entries/")
            desk.locator("#byes select[name=entry]").select_option(str(pairs[3].pk))
            desk.locator("#byes select[name=round]").select_option("2")
            desk.locator("#byes button", has_text="Попросить пропуск").click()
            expect(desk.locator(f"#byes-{pairs[3].pk}")).to_contain_text("тур 2: попросили")
            desk.screenshot(path=screenshots_dir / "byes-organiser-1280.png", full_page=True)
            organiser_phone = _sign_in(browser, base, {"width": 390, "height": 844}, "zhanar")
            organiser_phone.goto(f"{base}/t/{t.slug}/entries/#byes")
            organiser_phone.screenshot(path=screenshots_dir / "byes-organiser-390.png", full_page=True)

            r1 = services.pair_next_round(actor=organiser, tournament=t)
            _play(r1, organiser)
            r2 = services.pair_next_round(actor=organiser, tournament=t)
            assert r2.matches.get(home=pairs[3]).requested_bye == "half"
            _play(r2, organiser)
            services.pair_next_round(actor=organiser, tournament=t)
            for page, width in ((desk, 1280), (organiser_phone, 390)):
                page.goto(f"{base}/t/{t.slug}/crosstable/")
                expect(page.locator(".requested-bye").first).to_contain_text("просьба ½")
                page.screenshot(path=screenshots_dir / f"byes-crosstable-{width}.png", full_page=True)
                page.goto(f"{base}/t/{t.slug}/standings/")
                expect(page.locator("#requested-bye-rule")).to_contain_text("0,5")
                if width == 390:  # the table goes on beyond the phone's edge: a line says so until seen
                    hint = page.locator(".scroll-hint").first
                    expect(hint).to_be_visible()
                    page.locator(".scroll-x").first.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
                    expect(hint).to_be_hidden()
                    page.locator(".scroll-x").first.evaluate("box => { box.scrollLeft = 0; }")
                    expect(hint).to_be_visible()
                page.screenshot(path=screenshots_dir / f"byes-standings-{width}.png", full_page=True)
            desk.goto(f"{base}/t/{t.slug}/rounds/3/")
            expect(desk.locator(".requested-bye")).to_contain_text("пропуск по просьбе: пол-победы")
            desk.screenshot(path=screenshots_dir / "byes-round-1280.png", full_page=True)
        finally:
            browser.close()
