"""The main pages run under a Content-Security-Policy with no inline script, and break none of it.

The site runs under Daphne (tests/e2e/test_tables_play.py's fixture) so the live table's and the
tournament's websockets connect as in production. Chromium reports every blocked script, style or
socket as a `securitypolicyviolation` event and a console error; a page that needed inline code
would show one here. A script injected into a page is refused, so the policy is really there.
"""

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay import services as tables
from gameplay.models import Seating
from tests.clubs.factories import PASSWORD, UserFactory

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import asgi_server  # noqa: F401 - the Daphne fixture
from .test_tournament_live import _swiss

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_main_pages_break_no_content_security_policy(asgi_server, chromium_path, screenshots_dir):  # noqa: F811
    t, organiser, _rnd = _swiss()
    others = [UserFactory(username=f"csp{i}") for i in range(3)]
    table = tables.create_table(rules={}, seating=Seating.IN_ORDER, user=organiser)
    for user in others:
        tables.sit(table_id=table.pk, user=user)
    base = asgi_server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        for width, viewport in (("360", PHONE), ("1280", {"width": 1280, "height": 900})):
            context = browser.new_context(viewport=viewport, locale="ru-RU")
            context.add_init_script(WATCH)
            page = context.new_page()
            console = []
            page.on("console", lambda m, console=console: m.type == "error" and console.append(m.text))

            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=login]", organiser.username)
            page.fill("input[name=password]", PASSWORD)
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{base}/")

            pages = {
                "home": "/",
                "table": f"/tables/{table.pk}/",
                "tournament": f"/t/{t.slug}/standings/",
                "dashboard": f"/t/{t.slug}/day/",
            }
            for name, path in pages.items():
                response = page.goto(f"{base}{path}")
                assert response.status == 200, path
                policy = response.headers["content-security-policy"]
                assert "script-src 'self'" in policy and "unsafe-inline" not in policy
                if name == "table":
                    expect(page.locator(".bt-hand .bt-card").first).to_be_visible()
                if name == "tournament":
                    expect(page.locator("#t-live[data-live-connected='1']")).to_have_count(1)
                page.wait_for_timeout(300)
                page.screenshot(path=screenshots_dir / f"csp-{name}-{width}.png", full_page=True)
                assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
                assert not [c for c in console if "Content Security Policy" in c], (path, console)

            # the printable sheets' button prints without an inline handler
            page.goto(f"{base}/t/{t.slug}/rounds/1/sheets/")
            page.evaluate("() => { window.__printed = 0; window.print = () => { window.__printed += 1; }; }")
            page.locator("[data-print]").click()
            assert page.evaluate("window.__printed") == 1
            assert page.evaluate("window.__csp") == []

            page.evaluate("""() => { const s = document.createElement('script');
                s.textContent = 'window.__ran = 1'; document.body.appendChild(s); }""")
            page.wait_for_timeout(200)
            assert page.evaluate("window.__ran") is None
            assert any(v.startswith("script-src") for v in page.evaluate("window.__csp"))
            context.close()
        browser.close()
