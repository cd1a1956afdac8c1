"""Kozyol khvalyony in Chromium, on a phone (360 px) and a desktop (1280 px): the lobby's form opens
a Kozyol table against three bots, the page shows the trump and the permanent trumps, a person
plays cards by tapping while the beginner bots answer through the worker, and after he resigns the
replay steps through the Kozyol record."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay.models import Seat, Table

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import Progress, _no_horizontal_scroll, _take_turn, asgi_server  # noqa: F401 - a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
#: Where a person looks at the pictures (beside the suite's own screenshots folder).
LOOK = Path("/tmp")  # noqa: S108 - screenshots to look at, nothing secret


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "360"), (DESKTOP, "1280")])
def test_a_kozyol_table_against_three_bots_from_the_lobby(asgi_server, celery_worker_process,  # noqa: F811
                                                          chromium_path, screenshots_dir, viewport, name):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU", has_touch=viewport is PHONE)
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/new/")
            page.locator("#game-choice a[data-game=kozyol]").click()
            page.wait_for_url("**/tables/new/?game=kozyol")
            expect(page.locator("input[name=six_of_clubs]")).to_be_visible()
            expect(page.locator("input[name=preset]")).to_have_count(0)
            expect(page.locator("input[name=rated]")).to_have_count(1)  # Kozyol has a rating of its own
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"kozlive-form-{name}.png", full_page=True)
            page.locator("input[name=bots]").check()
            page.locator("#table-form button[type=submit]").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            table = Table.objects.get(pk=table_id)
            assert table.rules["game"] == "kozyol"  # rated or not, bots at the table: never rated
            assert set(Seat.objects.filter(table=table, is_bot=True).values_list("bot_level", flat=True)) == {
                "beginner"}
            expect(page.locator(".bt-hand .bt-card").first).to_be_visible()
            # the trump is always diamonds, with the shamok, the queens and the jacks above them
            expect(page.locator(".bt-trump")).to_contain_text("♦")
            expect(page.locator(".bt-permanent")).to_contain_text("Всегда козыри")
            assert page.locator(".bt-permanent .bt-card").count() == 9  # 6♣, four queens, four jacks
            expect(page.locator(".bt-duty")).to_contain_text("Обязанной пары нет")
            taps, progress = 0, Progress(table_id)
            while taps < 4 and not progress.stalled():
                taps += _take_turn(page)
                page.wait_for_timeout(150)
            assert taps >= 4, "the table stopped: the bots did not answer"
            page.wait_for_timeout(400)
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"kozlive-table-{name}.png", full_page=True)
            page.screenshot(path=screenshots_dir / f"kozyol-table-{name}.png", full_page=True)
            page.goto(f"{asgi_server}/tables/")
            expect(page.locator(f"#lobby-tables a[href='/tables/{table_id}/'] .lobby-game")).to_have_text(
                "Козёл хвалёный")
            page.screenshot(path=LOOK / f"kozlive-lobby-{name}.png", full_page=True)
            # resigning ends the match; its replay reads the Kozyol record card by card
            page.goto(f"{asgi_server}/tables/{table_id}/")
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator(".bt-resign").click()
            expect(page.locator(".bt-result")).to_be_visible()
            record = Table.objects.get(pk=table_id).record
            assert record["game"] == "kozyol"
            last = len(record["deals"])  # the deal he resigned in (a bot may have asked a redeal before)
            page.goto(f"{asgi_server}/tables/{table_id}/replay/?deal={last}&card=4")
            expect(page.locator(".rp-trump")).to_contain_text("бубны")
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"kozlive-replay-{name}.png", full_page=True)
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()
