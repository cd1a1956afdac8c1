"""The API's docs page (Swagger UI from drf-spectacular-sidecar) renders in Chromium under the
site's Content-Security-Policy, from the site's own files: no violation, nothing from a CDN; a
phone without script reads the guide and the operations; the Authorize dialog says the header."""

import pytest
from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_the_api_docs_render_under_the_csp_from_the_sites_own_files(live_server, chromium_path):
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(locale="ru-RU")
        context.add_init_script(WATCH)
        page = context.new_page()
        console, hosts = [], set()
        page.on("console", lambda m: m.type == "error" and console.append(m.text))
        page.on("request", lambda r: hosts.add(r.url.split("/")[2]))
        response = page.goto(f"{base}/api/docs/")
        assert response.status == 200
        assert "script-src 'self'" in response.headers["content-security-policy"]
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Bilka API")
        expect(page.locator(".opblock-summary-path").first).to_be_visible()
        assert page.locator(".opblock").count() >= 15
        assert page.evaluate("window.__csp") == []
        assert console == []
        assert hosts == {base.split("/")[2]}
        browser.close()


def test_on_a_phone_without_script_the_docs_page_reads_in_the_sites_frame(live_server, chromium_path):
    """The guide and the list of operations are the page itself: a phone with scripts off reads
    the key's header and every operation, inside the site's header and footer, with no sideways
    scrolling."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(locale="ru-RU", viewport=PHONE, java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{live_server.url}/api/docs/")
        expect(page.locator(".site-header .brand")).to_be_visible()
        expect(page.locator("h1")).to_have_text("Документация API")
        expect(page.locator(".api-example")).to_have_text("Authorization: Bearer <key>")
        assert page.locator(".api-operation").count() >= 15
        expect(page.locator(".site-footer a[href='/api/docs/']")).to_have_text("API для программ")
        expect(page.locator("noscript")).to_have_count(1)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        browser.close()


def test_swagger_uis_authorize_dialog_says_how_to_send_the_key(live_server, chromium_path):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(locale="ru-RU", viewport=PHONE).new_page()
        page.goto(f"{live_server.url}/api/docs/")
        # the header's form is on the first screen, and stays above the explorer
        expect(page.locator(".api-example")).to_be_in_viewport()
        page.locator(".swagger-ui button.authorize").click()
        dialog = page.locator(".swagger-ui .auth-container")
        expect(dialog).to_contain_text("Send: Authorization: Bearer <key>")
        expect(dialog).to_contain_text("/me/")
        browser.close()
