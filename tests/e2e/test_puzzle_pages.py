"""A puzzle in Chromium on a phone (390x844) and a desktop (1280x800): the position as the seat saw
it with its cards to tap, the answer, the solution with all four hands; the daily puzzle reached
from the home page by clicking. Screenshots go to var/screenshots/puzzle-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from archive.models import Puzzle
from archive.services import analysis
from tests.archive.puzzle_factory import short_record
from tests.archive.test_puzzles import _archive

from .conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODES = "els => els.map(e => e.dataset.card)"
SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}


def test_a_puzzle_is_found_from_home_answered_and_explained(live_server, chromium_path, screenshots_dir):
    match = _archive(short_record(1))
    analysis.analyse_match(match_id=match.pk)
    assert Puzzle.objects.filter(match=match).exists()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        for name, viewport in SIZES.items():
            page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(f"{live_server.url}/")
            page.locator("#daily-puzzle").scroll_into_view_if_needed()
            page.screenshot(path=str(screenshots_dir / f"puzzle-home-{name}.png"))
            page.locator("#daily-puzzle a.button").click()
            expect(page.locator(".pz-task")).to_be_visible()
            puzzle = Puzzle.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
            hidden = {c for s, h in puzzle.solution["hands"].items() if s != puzzle.view["seat"] for c in h}
            drawn = set(page.locator("[data-card]").evaluate_all(CODES))
            assert drawn and not drawn & hidden
            buttons = page.locator(".pz-hand button:not([disabled])")
            expect(buttons).to_have_count(len(puzzle.view["legal"]))
            hand = page.locator(".pz-hand").bounding_box()
            # the cards to answer with are on the first screen, no scroll
            assert hand is not None and hand["y"] + hand["height"] <= viewport["height"]
            page.screenshot(path=str(screenshots_dir / f"puzzle-position-{name}.png"), full_page=True)
            page.locator(f'.pz-hand button[value="{puzzle.card}"]').click()
            expect(page.locator(".pz-solution h2")).to_have_text("Верно: эта карта сохраняет пар.")
            shown = set(page.locator(".pz-hands [data-card]").evaluate_all(CODES))
            assert hidden <= shown
            page.screenshot(path=str(screenshots_dir / f"puzzle-solution-{name}.png"), full_page=True)
            page.goto(f"{live_server.url}/puzzles/")
            expect(page.locator(".pz-list .pz-solved").first).to_be_visible()
            page.screenshot(path=str(screenshots_dir / f"puzzle-list-{name}.png"), full_page=True)
            assert errors == []
            page.context.close()
        browser.close()
