"""Play now against strong bots in Chromium, on a phone (360 px) and a desktop (1280 px): the lobby
offers the level, the table names each bot's level, and the bots answer through their own worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay.models import Seat, Table

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import Progress, _no_horizontal_scroll, _take_turn, asgi_server  # noqa: F401 - a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "360"), (DESKTOP, "1280")])
def test_play_now_against_strong_bots(asgi_server, celery_worker_process, bot_worker_process,  # noqa: F811
                                      chromium_path, screenshots_dir, viewport, name):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU", has_touch=viewport is PHONE)
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/")
            _no_horizontal_scroll(page)
            page.select_option("#play-now-level", "strong")
            page.screenshot(path=screenshots_dir / f"strong-bots-lobby-{name}.png", full_page=True)
            page.locator("#play-now").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            bots = Seat.objects.filter(table_id=table_id, is_bot=True)
            assert set(bots.values_list("bot_level", flat=True)) == {"strong"}
            # each bot's seat names its level in the reader's language
            for position in ("left", "top", "right"):
                expect(page.locator(f".bt-pos-{position} .bt-meta")).to_contain_text("сильный бот")
            taps, progress = 0, Progress(table_id)
            while taps < 4 and not progress.stalled():
                taps += _take_turn(page)
                page.wait_for_timeout(150)
            assert taps >= 4, "the strong bots did not answer through their worker"
            page.wait_for_timeout(400)
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / f"strong-bots-table-{name}.png", full_page=True)
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "360"), (DESKTOP, "1280")])
def test_an_open_table_chooses_each_bots_level(asgi_server, chromium_path, screenshots_dir,  # noqa: F811
                                               viewport, name):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/new/")
            page.select_option("select[name=seating]", "in_order")
            page.locator("#table-form button[type=submit]").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            page.select_option("#level-E", "strong")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / f"bot-levels-open-table-{name}.png", full_page=True)
            page.locator("#fill-bots").click()
            page.wait_for_url(f"**/tables/{table_id}/")
            bots = Seat.objects.filter(table_id=table_id, is_bot=True)
            levels = dict(bots.values_list("seat", "bot_level"))
            assert levels == {1: "strong", 2: "beginner", 3: "beginner"}
            # the person sits at N: E on his left, S at the top, W on his right
            expect(page.locator(".bt-pos-left .bt-meta")).to_contain_text("сильный бот")
            expect(page.locator(".bt-pos-top .bt-meta")).to_contain_text("бот-новичок")
            expect(page.locator(".bt-pos-right .bt-meta")).to_contain_text("бот-новичок")
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()
