"""Bilka for two in Chromium, on a phone (360 px) and a desktop (1280 px): the lobby's form offers
the game with its stock rule, "play now" seats the person at S against one bot, the page draws two
seats (the opponent across), the trump, the stock's count and a score per player; he plays cards by
tapping while the bot answers through the worker, resigns, and the replay and the archive read the
match as two players'."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from archive.models import ArchivedMatch
from gameplay.models import Seat, Table

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import Progress, _no_horizontal_scroll, _take_turn, asgi_server  # noqa: F401 - a fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
#: Where a person looks at the pictures (beside the suite's own screenshots folder).
LOOK = Path("/tmp")  # noqa: S108 - screenshots to look at, nothing secret


@pytest.mark.parametrize(("viewport", "name", "level"),
                         [(PHONE, "360", "beginner"), (DESKTOP, "1280", "strong")])
def test_bilka_for_two_against_a_bot_from_the_lobby(asgi_server, celery_worker_process,  # noqa: F811
                                                    bot_worker_process, chromium_path, screenshots_dir,
                                                    viewport, name, level):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU", has_touch=viewport is PHONE)
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/new/")
            page.locator("#game-choice a[data-game=bilka-2]").click()
            page.wait_for_url("**/tables/new/?game=bilka-2")
            expect(page.locator("input[name=stock]")).to_have_count(2)
            expect(page.locator("input[name=eyes]")).to_have_count(2)
            expect(page.locator("input[name=preset]")).to_have_count(0)
            expect(page.locator("input[name=redeal_seconds]")).to_have_count(0)
            expect(page.locator("#table-form")).to_contain_text("Правила Белки на двоих")
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"two-form-{name}.png", full_page=True)
            # "play now" against one bot: the game and the bot's level chosen on the lobby
            page.goto(f"{asgi_server}/tables/")
            page.locator("#play-now-game").select_option("bilka-2")
            page.locator("#play-now-level").select_option(level)
            page.locator("#play-now").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            table = Table.objects.get(pk=table_id)
            assert table.rules["game"] == "bilka-2" and not table.rated
            seats = list(Seat.objects.filter(table=table).order_by("seat")
                         .values_list("seat", "is_bot", "bot_level"))
            assert seats == [(0, True, level), (2, False, "beginner")]
            expect(page.locator(".bt-hand .bt-card")).to_have_count(8)
            expect(page.locator(".bt-pos-top")).to_contain_text("соперник")
            expect(page.locator(".bt-pos-left")).to_be_hidden()
            expect(page.locator(".bt-pos-right")).to_be_hidden()
            expect(page.locator(".bt-trump")).to_contain_text("♣")  # clubs in the first deal
            expect(page.locator(".bt-stock")).to_contain_text("В прикупе: 16")
            expect(page.locator(".bt-duty")).to_contain_text("Каждый играет за себя")
            expect(page.locator(".bt-pair")).to_have_count(2)
            expect(page.locator(".bt-pair[data-pair=S]")).to_have_class("bt-pair bt-mine")
            taps, progress = 0, Progress(table_id)
            while taps < 5 and not progress.stalled():
                taps += _take_turn(page)
                page.wait_for_timeout(150)
            assert taps >= 5, "the table stopped: the bot did not answer"
            page.wait_for_timeout(400)
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"two-table-{name}.png", full_page=True)
            page.screenshot(path=screenshots_dir / f"bilka2-table-{name}.png", full_page=True)
            # a spectator sees the table with no hand
            watcher = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
            watcher.goto(f"{asgi_server}/tables/{table_id}/")
            expect(watcher.locator(".bt-status")).to_contain_text("Вы смотрите")
            expect(watcher.locator(".bt-hand .bt-card")).to_have_count(0)
            watcher.screenshot(path=LOOK / f"two-spectator-{name}.png", full_page=True)
            watcher.context.close()
            page.goto(f"{asgi_server}/tables/")
            expect(page.locator(f"#lobby-tables a[href='/tables/{table_id}/'] .lobby-game")).to_have_text(
                "Белка на двоих")
            # resigning ends the match; its replay and the archive read two players
            page.goto(f"{asgi_server}/tables/{table_id}/")
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator(".bt-resign").click()
            expect(page.locator(".bt-result")).to_be_visible()
            expect(page.locator(".bt-result-text")).to_contain_text("выиграл")
            page.screenshot(path=LOOK / f"two-result-{name}.png", full_page=True)
            page.goto(f"{asgi_server}/tables/{table_id}/replay/?deal=1&card=2")
            expect(page.locator(".rp-trump")).to_contain_text("трефы")
            expect(page.locator(".rp-seat")).to_have_count(2)
            expect(page.locator(".rp-points")).to_contain_text("Очки: С ")
            page.locator(".rp-step[data-step=next_card]").click()
            expect(page.locator(".rp-status")).to_contain_text("3")
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"two-replay-{name}.png", full_page=True)
            match = ArchivedMatch.objects.get(table_id=table_id)
            assert sorted(match.seats.values_list("seat", flat=True)) == [0, 2] and match.winner == "N"
            assert not match.public  # a game against a bot is its player's own, until he shares it
            ArchivedMatch.objects.filter(pk=match.pk).update(public=True)  # as "share" does (a guest here)
            page.goto(f"{asgi_server}/archive/{match.pk}/")
            expect(page.locator("#rp-head-pairs")).to_contain_text("Бот")
            _no_horizontal_scroll(page)
            page.screenshot(path=LOOK / f"two-archive-{name}.png", full_page=True)
            page.goto(f"{asgi_server}/tables/{table_id}/verify/")
            expect(page.locator("body")).to_contain_text("bilka-2-shuffle/1")
            page.screenshot(path=LOOK / f"two-verify-{name}.png", full_page=True)
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()
