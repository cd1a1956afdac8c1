"""In Chromium, on a phone and a desk's screen: the organiser goes from the event's dashboard to its
fair-play review, asks for it, and (once the task has run) reads the players most suspect first and
opens a heaviest decision's replay position (var/screenshots/fairplay-*.png, for a person to look at)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect, sync_playwright

from archive.models import FairPlayReview
from archive.services import fairplay as service
from clubs.models import Membership, Player, Role
from tests.archive.test_fairplay_pages import archive_online, whole_match
from tests.clubs.factories import PASSWORD, ClubFactory, UserFactory
from tournaments import services

from .conftest import CHROMIUM_ARGS, sideways_overflow
from .test_fee_desk import _sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _event():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    cup = services.create_tournament(actor=organiser, club=club, name="Онлайн-кубок Успенки", format="swiss",
                                     swiss_rounds=3, starts_on=datetime.date(2026, 12, 1))
    owl, hedgehog = (Player.objects.create(display_name=n) for n in ("Сова Полуночная", "Ёж Честный"))
    archive_online(whole_match("all-seeing", 2), owl, cup=cup, number=1)
    archive_online(whole_match("beginner", 2), hedgehog, cup=cup, number=2)
    return cup


def test_the_organiser_runs_and_reads_the_review(live_server, chromium_path, screenshots_dir, settings):
    settings.FAIRPLAY_SAMPLES = 8
    cup = _event()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            page = _sign_in(browser, base, {"width": 360, "height": 740})
            page.goto(f"{base}/t/{cup.slug}/day/")
            page.locator("#fairplay-link").click()
            page.locator("#fairplay-run").click()
            expect(page.locator("#fairplay-run")).to_be_disabled()
            review = FairPlayReview.objects.get()
            service.run_review(review_id=review.pk, generation=review.generation)  # the worker's part
            page.reload()
            expect(page.locator("#fairplay-row-1")).to_contain_text("Сова Полуночная")
            expect(page.locator("#fairplay-row-2")).to_contain_text("Ёж Честный")
            assert sideways_overflow(page) == 0
            page.screenshot(path=screenshots_dir / "fairplay-event-360.png", full_page=True)
            desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU",
                                       storage_state=page.context.storage_state()).new_page()
            desk.goto(f"{base}/t/{cup.slug}/fairplay/")
            assert sideways_overflow(desk) == 0
            desk.screenshot(path=screenshots_dir / "fairplay-event-1280.png", full_page=True)
            first = desk.locator("#fairplay-decisions-1 li a").first
            href = first.get_attribute("href")
            assert href is not None and "?deal=" in href
            first.click()
            desk.wait_for_url(f"{base}{href}")
            assert desk.locator("body").inner_text()
            # the staff go on from the event's review to the player's own page
            get_user_model().objects.create_superuser(username="staff", password=PASSWORD,
                                                      email="s@example.org")
            staff = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU").new_page()
            staff.goto(f"{base}/accounts/login/")
            staff.fill("input[name=login]", "staff")
            staff.fill("input[name=password]", PASSWORD)
            staff.locator("form.auth-form button[type=submit]").click()
            staff.wait_for_url(f"{base}/")
            staff.goto(f"{base}/t/{cup.slug}/fairplay/")
            staff.locator("#fairplay-row-1 a").click()
            expect(staff.locator("h1")).to_contain_text("Сова Полуночная")
            expect(staff.locator("#fairplay-table")).to_contain_text("Онлайн-кубок Успенки")
            assert sideways_overflow(staff) == 0
            staff.screenshot(path=screenshots_dir / "fairplay-player-360.png", full_page=True)
        finally:
            browser.close()
