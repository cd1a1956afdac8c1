"""The redeal question in Chromium, at 360 px and 1280 px: the person is asked as every seat is
(both buttons, "redeal" usable only where his hand qualifies), sees who has answered, answers, and
the play begins; bots answer through the real Celery worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from gameplay import services
from gameplay.engine import Phase
from gameplay.models import Table

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import Progress, _no_horizontal_scroll, asgi_server  # noqa: F401 - the fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["360", "1280"])
def test_the_person_answers_the_redeal_question_as_every_seat_does(
    asgi_server, celery_worker_process, chromium_path, screenshots_dir, viewport  # noqa: F811
):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=viewport, locale="ru-RU")
        page = context.new_page()
        try:
            page.goto(f"{asgi_server}/tables/")
            page.locator("#play-now").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").split("/")[-1])
            decide = page.locator(".bt-decide")
            expect(decide).to_be_visible()
            # the three bots answer on their own (a bot may ask for a redeal: a new question)
            progress = Progress(table_id)
            while not progress.stalled():
                state = services.load_state(Table.objects.get(pk=table_id))
                if state.phase == Phase.REDEAL and state.redeal_pending == (2,):
                    break
                page.wait_for_timeout(200)
            assert state.redeal_pending == (2,), "the bots did not answer"
            expect(page.locator(".bt-answered")).to_have_count(3)
            redeal = decide.locator("[data-action=redeal]")
            if state.may_redeal(2):
                expect(redeal).to_be_enabled()
            else:
                expect(redeal).to_be_disabled()
            expect(page.locator(".bt-status")).to_contain_text("Играйте эту руку")
            expect(page.locator(".bt-status .bt-clock")).to_contain_text("с")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / f"table-redeal-question-{viewport['width']}.png",
                            full_page=True)
            decide.locator("[data-action=pass]").click()
            expect(decide).to_be_hidden()
            expect(page.locator(".bt-answered")).to_have_count(0)
            table = Table.objects.get(pk=table_id)
            assert services.load_state(table).phase == Phase.PLAY and table.decision_event is None
            page.screenshot(path=screenshots_dir / f"table-redeal-answered-{viewport['width']}.png",
                            full_page=True)
        finally:
            Table.objects.filter(pk__gt=0, status="playing").update(status="finished")
            context.close()
            browser.close()
