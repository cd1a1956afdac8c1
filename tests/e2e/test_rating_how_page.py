"""The ratings' explanation page on a phone and a wide screen: the model's own scale (when each
game was last fitted) and the held-out figures, readable in every language, nothing scrolling sideways but
the figures' own table, whose shape headings stay inside its box. Screenshots go to var/screenshots/."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect, sync_playwright

from ratings.models import ModelFit

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize("language", ["en", "ru", "kk"])
def test_the_explanation_page_reads_on_a_phone_and_a_wide_screen(live_server, chromium_path, screenshots_dir,
                                                                 language):
    ModelFit.objects.create(matches=4321, params={"drift": 0.0001}, log_loss=0.41, reason="nightly")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for viewport in (PHONE, WIDE):
                page = browser.new_context(viewport=viewport, locale=language).new_page()
                page.goto(live_server.url + reverse("ratings:how"))
                expect(page.locator("#model")).to_be_visible()
                expect(page.locator("table.harness")).to_be_visible()
                fits = page.locator("#model ~ ul.fits li")
                expect(fits).to_have_count(3)  # each game's fit: Bilka's, then the two on the defaults
                assert "4321" in fits.first.inner_text()
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
                # Each shape's heading wraps inside the figures' scrolling box instead of running past
                # its edge (at 360 px it once ran 8 px out and was cut mid-word).
                past = page.evaluate("""() => {
                    const box = document.querySelector('table.harness').parentElement.getBoundingClientRect();
                    return Math.max(...[...document.querySelectorAll('th.harness-shape span')]
                        .map(s => s.getBoundingClientRect().right - box.right));
                }""")
                assert past <= 0, f"a shape's heading runs {past}px past the figures' box"
                page.screenshot(path=str(screenshots_dir / f"ratings-how-{language}-{viewport['width']}.png"),
                                full_page=True)
                page.locator("#model").locator("..").screenshot(
                    path=str(screenshots_dir / f"ratings-how-fits-{language}-{viewport['width']}.png"))
                page.locator("table.harness").locator("..").locator("..").screenshot(
                    path=str(screenshots_dir / f"ratings-how-figures-{language}-{viewport['width']}.png"))
        finally:
            browser.close()
