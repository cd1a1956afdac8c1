"""The club form's refusals of unreadable and unbounded text, on a phone and a wide screen: the
reason is shown beside the field in the reader's language, the page stays within the screen, and
what was typed is still there to correct."""

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs import services
from clubs.models import Club
from clubs.text_fields import PROSE_LENGTH
from tests.clubs.factories import PASSWORD, UserFactory

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}


def _sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_url(f"{base}/")


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["360", "1280"])
def test_the_club_form_says_why_it_refuses_and_keeps_what_was_typed(
    live_server, chromium_path, screenshots_dir, viewport
):
    owner = UserFactory(username="zhanar")
    club = services.create_club(actor=owner, name="Успенка", description="По пятницам.")
    too_long = ("Играем по пятницам в Доме культуры. " * 200)[: PROSE_LENGTH + 300]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=viewport, locale="ru-RU").new_page()
        try:
            _sign_in(page, live_server.url, "zhanar")
            page.goto(f"{live_server.url}/clubs/{club.slug}/edit/")
            page.fill("input[name=name]", "\u200b\u3164\u2800")
            page.fill("textarea[name=description]", too_long)
            page.locator("main form button[type=submit]").click()
            expect(page.get_by_text("Напишите буквами или цифрами")).to_be_visible()
            expect(page.get_by_text(f"Не больше {PROSE_LENGTH} символов, пожалуйста")).to_be_visible()
            assert page.input_value("textarea[name=description]") == too_long
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"the form scrolls sideways by {overflow}px"
            page.screenshot(
                path=screenshots_dir / f"club-form-refusals-{viewport['width']}.png", full_page=True
            )
        finally:
            browser.close()
    club.refresh_from_db()
    assert (club.name, club.description) == ("Успенка", "По пятницам.")
    assert Club.objects.count() == 1
