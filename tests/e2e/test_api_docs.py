"""The API's docs page (Swagger UI from drf-spectacular-sidecar) renders in Chromium under the
site's Content-Security-Policy, from the site's own files: no violation, nothing from a CDN."""

import pytest
from playwright.sync_api import expect, sync_playwright

from .conftest import CHROMIUM_ARGS

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
