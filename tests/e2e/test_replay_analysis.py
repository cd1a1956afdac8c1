"""The replay's double-dummy panel in Chromium: the script keeps it in step with the card shown.
Screenshots at 360 px and 1280 px go to var/screenshots/replay-analysis-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from archive.models import MatchAnalysis
from archive.services import analysis
from tests.archive.test_analysis import _archive, _short_record
from tests.clubs.factories import PlayerFactory, UserFactory

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_panel_follows_the_card_shown(live_server, chromium_path, screenshots_dir):
    players = [PlayerFactory(display_name=n, user=UserFactory(username=n.lower()))
               for n in ("Asel", "Ivan", "Oleh", "Nurlan")]
    match = _archive(players, _short_record())
    analysis.analyse_match(match_id=match.pk)
    cards = MatchAnalysis.objects.get(match=match).result["deals"][0]["cards"]
    url = f"{live_server.url}/archive/{match.pk}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}?deal=1&card=0")
        expect(page.locator(".rp-dd-last")).to_have_text("")
        leader = dict(zip("NESW", ("Asel", "Ivan", "Oleh", "Nurlan"), strict=True))[cards[0]["seat"]]
        expect(page.locator(".rp-dd-now")).to_contain_text(f"Best for {leader}")
        body = page.locator("body")
        for k in range(1, 5):
            body.press("ArrowRight")
            expect(page).to_have_url(f"{url}?deal=1&card={k}")
            lost = cards[k - 1]["lost"]
            expect(page.locator(".rp-dd-last")).to_contain_text(
                "a best card." if lost == 0 else f"{lost} points lost.")
        page.goto(f"{url}?deal=1&card=4")
        server_drawn = page.locator(".rp-dd").inner_text()
        body.press("ArrowLeft")
        body.press("ArrowRight")
        expect(page).to_have_url(f"{url}?deal=1&card=4")
        assert page.locator(".rp-dd").inner_text() == server_drawn  # the script writes what the server did
        page.locator(".rp-dd").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots_dir / "replay-analysis-360.png"), full_page=True)
        wide = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU").new_page()
        wide.goto(f"{url}?deal=1&card=4")
        expect(wide.locator(".rp-dd h2")).to_have_text("Лучшая игра при открытых картах")
        wide.screenshot(path=str(screenshots_dir / "replay-analysis-1280.png"), full_page=True)
        assert errors == []
        browser.close()
