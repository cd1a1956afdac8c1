"""Live tables in Chromium at 360 px: a person plays a whole deal against three bots by tapping, and
four people play together while a fifth watches.

pytest-django's `live_server` speaks HTTP only, so the site runs here under Daphne (HTTP and
websockets) in a process of its own, on the test database; bots move in the real Celery worker
of tests/conftest.py.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect, sync_playwright

from gameplay import services
from gameplay.models import Table
from tests.conftest import REPO_ROOT, _database_url

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server(django_db_setup):
    """Daphne serving config.asgi on a free port, connected to the test database."""
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "BILKA_RUN_ID": settings.RUN_ID,
        "BILKA_WS_ORIGINS": f"http://127.0.0.1:{port}",
        "PYTHONUNBUFFERED": "1",
    }
    log = Path(REPO_ROOT / "var" / f"daphne-e2e-{port}.log")
    log.parent.mkdir(exist_ok=True)
    out = log.open("w")
    process = subprocess.Popen(  # noqa: S603 - fixed command line
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120  # Daphne imports the site first: far slower on a busy machine
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"daphne did not start:\n{log.read_text()}")
            time.sleep(0.2)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        out.close()


def _no_horizontal_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def _take_turn(page) -> bool:
    """Tap a legal card, or decide a redeal by playing the hand; False when it is not this page's turn."""
    decide = page.locator(".bt-decide:not([hidden]) [data-action=pass]")
    if decide.count() and decide.is_visible():
        return _tap(decide)
    legal = page.locator(".bt-hand button.bt-legal:not([disabled])")
    if legal.count():
        return _tap(legal.first)
    return False


def _tap(target) -> bool:
    """Tap what was just seen; False when a frame hid or redrew it between look and tap (a card
    played, the redeal question's clock run out), to try again next round."""
    try:
        target.click(timeout=1000)
    except Exception:  # noqa: BLE001 - gone from under the finger; the caller looks again
        return False
    return True


def _deals_finished(table_id: int) -> int:
    """Deals played to the end; a deal thrown in for a redeal (a bot may ask for one) does not count."""
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    if state is None:
        return 0
    return sum(1 for deal in state.deals if deal.outcome not in (None, "redeal"))


class Progress:
    """Whether a table still moves. A loop that plays until something happens at a table goes on
    as long as the table's events keep coming, however slowly a busy machine plays them; it ends
    early only when none has come for STALLED_AFTER seconds (a bot, a worker or a page stuck)."""

    STALLED_AFTER = 120.0

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.event = None
        self.since = time.monotonic()

    def stalled(self) -> bool:
        event = Table.objects.values_list("event_seq", flat=True).get(pk=self.table_id)
        if event != self.event:
            self.event, self.since = event, time.monotonic()
        return time.monotonic() - self.since > self.STALLED_AFTER


def _deal_number(table_id: int) -> int:
    """The number the page shows for the current deal (redeals count, as in the record)."""
    state = services.load_state(Table.objects.get(pk=table_id))
    return len(state.deals) if state else 0


def test_a_person_plays_a_whole_deal_against_three_bots(asgi_server, celery_worker_process, chromium_path,
                                                       screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tables-lobby.png", full_page=True)
            page.locator("#play-now").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            expect(page.locator(".bt-hand .bt-card").first).to_be_visible()
            page.screenshot(path=screenshots_dir / "table-start.png", full_page=True)
            taps = 0
            shot_mid = False
            progress = Progress(table_id)
            while _deals_finished(table_id) < 1 and not progress.stalled():
                if _take_turn(page):
                    taps += 1
                    if taps == 3 and not shot_mid:
                        page.wait_for_timeout(400)
                        page.screenshot(path=screenshots_dir / "table-mid-deal.png", full_page=True)
                        _no_horizontal_scroll(page)
                        shot_mid = True
                page.wait_for_timeout(150)
            assert _deals_finished(table_id) >= 1, "the table stopped before the deal was finished"
            assert taps >= 8  # eight cards from the person's hand, one tap each
            page.wait_for_timeout(500)
            page.screenshot(path=screenshots_dir / "table-after-deal.png", full_page=True)
            # the page shows the new score and the new deal
            expect(page.locator(".bt-deal")).to_contain_text(str(_deal_number(table_id)))
            # resigning asks first, then ends the match for the person's pair
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator(".bt-resign").click()
            expect(page.locator(".bt-result")).to_be_visible()
            assert Table.objects.get(pk=table_id).result["reason"] == "resign"
            page.screenshot(path=screenshots_dir / "table-resigned.png", full_page=True)
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()


def test_four_people_play_while_a_fifth_watches(asgi_server, chromium_path, screenshots_dir):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        contexts = [browser.new_context(viewport=PHONE, locale="ru-RU") for _ in range(5)]
        pages = [c.new_page() for c in contexts]
        try:
            host = pages[0]
            host.goto(f"{asgi_server}/tables/new/")
            _no_horizontal_scroll(host)
            host.screenshot(path=screenshots_dir / "table-create-form.png", full_page=True)
            host.select_option("select[name=seating]", "in_order")
            host.locator("#table-form button[type=submit]").click()
            host.wait_for_url("**/tables/*/")
            invite = host.locator("#invite-link").inner_text().strip()
            table_id = int(host.url.rstrip("/").split("/")[-1])
            for guest in pages[1:4]:
                guest.goto(invite)
                guest.locator("#sit").click()
                guest.wait_for_load_state()
                expect(guest.locator(".bt-open, .bt-hand .bt-card").first).to_be_visible()
            spectator = pages[4]
            spectator.goto(f"{asgi_server}/tables/{table_id}/")
            for page in pages[:4]:
                page.reload()
                expect(page.locator(".bt-hand .bt-card")).to_have_count(8)
            expect(spectator.locator(".bt-hand .bt-card")).to_have_count(0)
            progress = Progress(table_id)
            moves = 0
            while _deals_finished(table_id) < 1 and not progress.stalled():
                for page in pages[:4]:
                    if _take_turn(page):
                        moves += 1
                        if moves == 6:
                            spectator.wait_for_timeout(400)
                            spectator.screenshot(path=screenshots_dir / "table-spectator.png", full_page=True)
                            expect(spectator.locator(".bt-trick .bt-card").first).to_be_visible()
                            assert spectator.locator(".bt-hand .bt-card").count() == 0
                page.wait_for_timeout(100)
            assert _deals_finished(table_id) >= 1
            assert moves >= 32
            # every player's page and the spectator's page show the table's score, once its frames
            # have come (a busy machine delivers them later)
            eyes = min(12, services.load_state(Table.objects.get(pk=table_id)).capped_score[0])
            for p in pages:
                expect(p.locator(".bt-pair[data-pair=NS] .bt-eyes")).to_have_text(str(eyes))
        finally:
            for c in contexts:
                c.close()
            browser.close()
