"""A rating per game in a browser at 360 and 1280 px: the board's game switch leads from Bilka's board
to Kozyol's and to Bilka for two's, and a player's card names each game's rating and shows the
chosen one's chart; nothing scrolls sideways and nothing breaks the Content-Security-Policy."""

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from ratings.services import recompute as ratings
from tests.clubs.factories import PlayerFactory
from tests.ratings.other_games import BILKA_TWO, KOZYOL, archive
from tests.ratings.test_rating_pages import _archive

from .conftest import CHROMIUM_ARGS, PHONE
from .test_csp import WATCH

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LOOK = Path("/tmp")  # noqa: S108 - screenshots to look at, nothing secret


def _scene():
    names = ["Ерлан Сапаров", "Асель Нурланова", "Жанар Бекова", "Нурлан Ахметов", "Данияр Омаров"]
    players = [PlayerFactory(display_name=n, city="Успенка") for n in names]
    for i in range(5):
        _archive(players[:4], seed=900 + i, day=i)  # Bilka, learnt as it comes
        for rules, who, seed in ((KOZYOL, players[:4], 910 + i),
                                 (BILKA_TWO, [players[0], players[4]], 920 + i)):
            m = archive(rules, who, seed=seed, day=i + 0.5)
            ratings.match_changed(sender=None, match_id=m.pk, change="created", players=[])
    return players


def test_the_game_switch_on_the_board_and_the_card(live_server, chromium_path, settings):
    settings.RATING_BOARD_MIN_MATCHES = 3
    players = _scene()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        for width, viewport in (("360", PHONE), ("1280", {"width": 1280, "height": 900})):
            context = browser.new_context(viewport=viewport, locale="ru-RU")
            context.add_init_script(WATCH)
            page = context.new_page()
            page.goto(f"{live_server.url}/ratings/")
            expect(page.locator(".game-switch a[aria-current]")).to_have_text("Белка")
            page.locator(".game-switch a[data-game=kozyol]").click()
            page.wait_for_url("**/ratings/?game=kozyol")
            expect(page.locator("h1")).to_contain_text("Козёл хвалёный")
            expect(page.locator(".rating-board tbody tr")).to_have_count(4)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1") is False
            page.screenshot(path=LOOK / f"rate-board-kozyol-{width}.png", full_page=True)
            page.locator(".game-switch a[data-game=bilka2]").click()
            page.wait_for_url("**/ratings/?game=bilka2")
            expect(page.locator(".rating-board tbody tr")).to_have_count(2)
            page.locator(".rating-board a", has_text=players[0].display_name).click()
            page.wait_for_url("**/archive/players/*/?rating=bilka2#rating")
            card = page.locator("#rating")
            expect(card.locator(".game-switch a")).to_have_count(3)
            expect(card.locator("h3.rating-game")).to_have_text("Белка на двоих")
            expect(card.locator(".rc-point")).to_have_count(5)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1") is False
            card.screenshot(path=LOOK / f"rate-card-{width}.png")
            card.locator(".game-switch a[data-game=kozyol]").click()
            page.wait_for_url("**/archive/players/*/?rating=kozyol#rating")
            expect(card.locator("h3.rating-game")).to_have_text("Козёл хвалёный")
            assert page.evaluate("window.__csp") == []
            context.close()
        browser.close()
