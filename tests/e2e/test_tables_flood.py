"""A phone that sends too much to a table socket: the page says why in Russian, then reconnects later.

The site runs under Daphne (tests/e2e/test_tables_play.py) with a tiny per-viewer allowance; a
second socket of the same browser spends it, and the table page's own socket is then told and
closed at its next connect.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect, sync_playwright

from gameplay import services

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import asgi_server  # noqa: F401 - the fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SPEND = """async () => {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host
                           + document.querySelector("[data-ws]").dataset.ws);
  await new Promise((ok) => { ws.onopen = ok; });
  for (let i = 0; i < 30; i++) ws.send(JSON.stringify({type: "ping"}));
  return await new Promise((ok) => { ws.onclose = (e) => ok(e.code); });
}"""


@pytest.fixture
def tight_limits(monkeypatch):
    monkeypatch.setenv("GAMEPLAY_FLOOD_VIEWER_BURST", "8")
    monkeypatch.setenv("GAMEPLAY_FLOOD_VIEWER_RATE", "0.05")
    monkeypatch.setenv("GAMEPLAY_FLOOD_ADDRESS_FACTOR", "1")


def test_a_flooding_phone_is_told_why_in_its_language(tight_limits, asgi_server, chromium_path,  # noqa: F811
                                                       screenshots_dir):
    users = [get_user_model().objects.create_user(username=f"f{i}", password="pw-x-1") for i in range(4)]
    table = services.create_table(rules={}, seating="in_order", user=users[0])
    for u in users[1:]:
        services.sit(table_id=table.pk, user=u)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for width, viewport in (("360", PHONE), ("1280", {"width": 1280, "height": 800})):
                context = browser.new_context(viewport=viewport, locale="ru-RU")
                page = context.new_page()
                page.goto(f"{asgi_server}/tables/{table.pk}/")
                assert page.evaluate(SPEND) == 4429
                page.reload()
                message = page.locator(".bt-message")
                expect(message).to_have_text("Слишком много сообщений с этого устройства. "
                                             "Стол переподключится через несколько секунд.")
                page.screenshot(path=screenshots_dir / f"table-too-fast-{width}.png", full_page=True)
                context.close()
        finally:
            browser.close()
