"""A Kozyol match's replay with its double-dummy analysis in Chromium (360 px and 1280 px): the
cards before the analysis starts show no judgement, the script's panel from there on says what the
server's does, and the par graph starts where the analysis does. Screenshots in /tmp/koztour-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from archive.models import MatchAnalysis
from archive.services import analysis
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from tests.archive.test_analysis_other_games import _archive, _played
from tests.clubs.factories import PlayerFactory, UserFactory

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOOK = Path("/tmp")  # noqa: S108 - screenshots to look at, nothing secret


def test_the_kozyol_panel_starts_where_the_analysis_does(live_server, chromium_path):
    players = [PlayerFactory(display_name=n, user=UserFactory(username=n.lower()))
               for n in ("Asel", "Ivan", "Oleh", "Nurlan")]
    rules = KozyolRules(redeal_below=0)
    match = _archive(players, _played(KozyolMatchState(rules, seed=7), 1, 7), rules.to_json())
    analysis.analyse_match(match_id=match.pk)
    deal = MatchAnalysis.objects.get(match=match).result["deals"][0]
    start, cards = deal["from_ply"], deal["cards"]
    url = f"{live_server.url}/archive/{match.pk}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}?deal=1&card={start - 1}")
        expect(page.locator(".rp-dd-par")).to_contain_text(f"Par with best play from card {start + 1}")
        body = page.locator("body")
        body.press("ArrowRight")  # the last card not judged: no line
        expect(page).to_have_url(f"{url}?deal=1&card={start}")
        expect(page.locator(".rp-dd-last")).to_have_text("")
        expect(page.locator(".rp-dd-now")).to_contain_text("Best for")
        for k in range(start + 1, start + 4):
            body.press("ArrowRight")
            expect(page).to_have_url(f"{url}?deal=1&card={k}")
            lost = cards[k - 1 - start]["lost"]
            expect(page.locator(".rp-dd-last")).to_contain_text(
                "a best card." if lost == 0 else f"{lost} points lost.")
        server = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        server.goto(f"{url}?deal=1&card={start + 3}")
        assert server.locator(".rp-dd").inner_text() == page.locator(".rp-dd").inner_text()
        page.locator(".rp-dd").scroll_into_view_if_needed()
        page.screenshot(path=LOOK / "koztour-replay-360.png", full_page=True)
        wide = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU").new_page()
        wide.goto(f"{url}?deal=1&card={start + 3}")
        expect(wide.locator(".rp-note")).to_contain_text("Анализ в открытую начинается")
        wide.screenshot(path=LOOK / "koztour-replay-1280.png", full_page=True)
        assert errors == []
        browser.close()
