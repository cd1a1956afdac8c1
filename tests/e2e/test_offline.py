"""In Chromium: the site installs (no installability errors in DevTools), and a player at a table
whose site goes down still reads his match page and reports his result.

The site runs in a uvicorn process of its own on the test database, stopped and started again on the
same port: Playwright's offline switch does not cut a service worker's requests, a stopped server
does. The match page opened while the site was up comes from the worker's copy, marked with its
time; the result reported while it is down waits on the phone and reaches the site when the page
next opens after the site is back; the same kept report sent again (same key) gets the first answer
and the result is entered once. A live table whose site goes down says so until it is back."""

import json
import os
import re
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect, sync_playwright

from clubs.models import AuditEntry, SentForm
from gameplay import services as gameplay_services
from tests.conftest import _database_url
from tests.e2e.test_phone_notices import _signed_in
from tests.processes import free_port, uvicorn
from tests.tournaments.day.conftest import swiss_with_accounts
from tournaments import services
from tournaments.models import Match

from .conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE_390 = {"width": 390, "height": 844}
# The worker is active and controls the page (it claims the open pages when it activates).
READY = """async () => {
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 300 && !navigator.serviceWorker.controller; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return !!navigator.serviceWorker.controller;
}"""


def test_the_site_is_installable(live_server, chromium_path, tmp_path):
    """What Chrome on Android checks before it offers "Install": DevTools lists no error. A profile
    on disk, as a phone's browser has: an incognito window installs nothing."""
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=chromium_path, args=CHROMIUM_ARGS, viewport=PHONE_390,
            locale="ru-RU",
        )
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/")
            assert page.evaluate(READY) is True
            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
        finally:
            context.close()


class Site:
    """uvicorn serving the site on the test database, on one port, stopped and started at will."""

    def __init__(self, tmp_path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / "uvicorn.log"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": _database_url(settings.DATABASES["default"]),
            "REDIS_URL": settings.REDIS_URL,
            "BILKA_RUN_ID": settings.RUN_ID,  # the same cache as this process: its sessions too
            "BILKA_WS_ORIGINS": self.url,
            "PYTHONUNBUFFERED": "1",
        }

    @contextmanager
    def up(self):
        args = ["config.asgi:application", "--host", "127.0.0.1", "--port", str(self.port)]
        with uvicorn(args, port=self.port, env=self.env, log=self.log, start_timeout=240):
            yield


@pytest.fixture
def table_one(club, organiser):
    t = swiss_with_accounts(club, organiser, 4, name="Кубок", auto_pair=False)
    return services.pair_next_round(actor=organiser, tournament=t).matches.get(table=1)


def _reports(match) -> int:
    return AuditEntry.objects.filter(action="match.report", object_id=str(match.pk)).count()


def test_a_result_reported_while_the_site_is_down_arrives_once_when_it_is_back(
    tmp_path, chromium_path, table_one, screenshots_dir
):
    site = Site(tmp_path)
    address = table_one.get_absolute_url()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE_390, locale="ru-RU")
        page = context.new_page()
        try:
            # 1. Online: the worker installs, the match page is opened through it and kept.
            with site.up():
                _signed_in(context, site, table_one.home.player_a.user)
                page.goto(site.url + address)
                assert page.evaluate(READY) is True
                page.reload()
                expect(page.locator("#enter")).to_be_visible()
                expect(page.locator("#offline-as-of")).to_have_count(0)
            # 2. The site is down: the page comes from the phone, marked with the time it was fetched.
            page.reload()
            as_of = page.locator("#offline-as-of")
            expect(as_of).to_have_text(re.compile(r"^Нет связи\. Страница по состоянию на \d\d:\d\d\.$"))
            expect(page.locator("#enter")).to_be_visible()
            page.screenshot(path=screenshots_dir / "offline-match-as-of-390.png", full_page=True)
            # 3. The result reported now waits on the phone.
            page.fill("#id_final-home_eyes", "12")
            page.fill("#id_final-away_eyes", "7")
            page.get_by_role("button", name="Сохранить результат").click()
            waiting = page.locator("#offline-waiting")
            expect(waiting).to_contain_text(
                re.compile(r"Ждёт отправки \(сохранено на этом телефоне\) с \d\d:\d\d\.")
            )
            expect(waiting.get_by_role("button", name="Отправить сейчас")).to_be_visible()
            page.screenshot(path=screenshots_dir / "offline-match-waiting-390.png", full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=screenshots_dir / "offline-match-waiting-1280.png", full_page=True)
            page.set_viewport_size(PHONE_390)
            kept = page.evaluate("localStorage.getItem('bilka-waiting-forms')")
            assert len(json.loads(kept)) == 1
            page.reload()  # still down: it stays on the phone
            expect(page.locator("#offline-waiting")).to_be_visible()
            assert _reports(table_one) == 0
            # 4. The site is back: the page opens from it and sends what waited; the answer is shown.
            with site.up():
                page.reload()
                expect(page.locator(".messages")).to_contain_text("Результат сохранён.")
                expect(page.locator("#offline-waiting")).to_have_count(0)
                expect(page.locator("#offline-as-of")).to_have_count(0)
                expect(page.locator(".big-score")).to_have_text("12 : 7")
                assert page.evaluate("localStorage.getItem('bilka-waiting-forms')") == "[]"
                assert _reports(table_one) == 1
                page.screenshot(path=screenshots_dir / "offline-match-delivered-390.png", full_page=True)
                # 5. The same kept report sent again (same key): the first answer, no second entry.
                page.evaluate("(kept) => localStorage.setItem('bilka-waiting-forms', kept)", kept)
                page.reload()
                expect(page.locator(".messages")).to_contain_text("Результат сохранён.")
                expect(page.locator("#offline-waiting")).to_have_count(0)
                assert _reports(table_one) == 1
                key = json.loads(kept)[0]["key"]
                row = SentForm.objects.get(key=key)
                assert row.status_code == 302 and row.location == address
        finally:
            browser.close()
    table_one.refresh_from_db()
    assert (table_one.home_eyes, table_one.away_eyes) == (12, 7)
    assert Match.objects.filter(pk=table_one.pk, reported_by=table_one.home.player_a.user).exists()


def test_the_live_table_says_when_its_connection_is_lost_and_when_it_is_back(
    tmp_path, chromium_path, screenshots_dir
):
    users = [get_user_model().objects.create_user(username=f"conn{i}", password="pw-x-1") for i in range(4)]
    table = gameplay_services.create_table(rules={}, seating="in_order", user=users[0])
    for user in users[1:]:
        gameplay_services.sit(table_id=table.pk, user=user)
    site = Site(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE_390, locale="ru-RU").new_page()
        connection = page.locator(".bt-connection")
        try:
            frames = []  # the page's "sync", sent once its socket is open
            page.on("websocket", lambda socket: socket.on("framesent", lambda frame: frames.append(frame)))
            with site.up():
                page.goto(f"{site.url}/tables/{table.pk}/")
                for _ in range(600):
                    if frames:
                        break
                    page.wait_for_timeout(100)
                assert frames, site.log.read_text()[-3000:]
                expect(connection).to_be_hidden()
            expect(connection).to_have_text("Связь потеряна, переподключаемся…")
            page.wait_for_timeout(6000)  # longer than a move's message stays: this one stays while it is true
            expect(connection).to_have_text("Связь потеряна, переподключаемся…")
            expect(connection).to_be_visible()
            page.screenshot(path=screenshots_dir / "table-connection-lost-390.png", full_page=True)
            with site.up():
                expect(connection).to_have_text("Связь восстановлена.")
                expect(connection).to_be_hidden()
        finally:
            browser.close()


def test_a_kept_result_the_site_refuses_when_it_arrives_shows_why(
    tmp_path, chromium_path, table_one, organiser
):
    """While the phone waited, the organiser entered the result: the kept report is refused, and the
    page says why instead of "waiting to send"."""
    site = Site(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE_390, locale="ru-RU")
        page = context.new_page()
        try:
            with site.up():
                _signed_in(context, site, table_one.home.player_a.user)
                page.goto(site.url + table_one.get_absolute_url())
                assert page.evaluate(READY) is True
                page.reload()
            page.reload()
            expect(page.locator("#offline-as-of")).to_be_visible()
            page.fill("#id_final-home_eyes", "12")
            page.fill("#id_final-away_eyes", "7")
            page.get_by_role("button", name="Сохранить результат").click()
            expect(page.locator("#offline-waiting")).to_be_visible()
            services.enter_result(actor=organiser, match=table_one, home_eyes=3, away_eyes=12)
            with site.up():
                page.reload()
                expect(page.locator(".messages .message-error")).to_have_text(
                    "Этот результат уже подтверждён. Попросите организатора исправить его."
                )
                expect(page.locator("#offline-waiting")).to_have_count(0)
                expect(page.locator(".big-score")).to_have_text("3 : 12")
        finally:
            browser.close()
    assert _reports(table_one) == 1  # the organiser's
    assert not SentForm.objects.exists()  # a refused send keeps no answer
