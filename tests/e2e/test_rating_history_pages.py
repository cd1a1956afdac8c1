"""The pages that tell a rating's history, on a phone and a wide screen: the card of a player whose
rating a correction moved without a match of his says when, why and how much; the match page after
a correction says its figures were recomputed; the entries page of an event seeded by rating says
as of when. Nothing scrolls sideways; screenshots go to var/screenshots/."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from ratings.models import PlayerRating
from tests.ratings.conftest import deliver  # noqa: F401 - fixture used by name
from tests.ratings.test_rating_history import spring  # noqa: F401 - fixture used by name
from tests.tournaments.day.test_seeding_snapshot import _rate, rated_swiss  # noqa: F401 - fixture used by name
from tournaments import services
from tournaments.services import runner

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}


def _no_sideways_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_history_pages_say_what_happened(live_server, chromium_path, screenshots_dir, spring,  # noqa: F811
                                             rated_swiss, organiser, deliver, language):  # noqa: F811
    t, rnd, mine, late, a, b = spring
    deliver(services.enter_result, actor=organiser, match=late, home_eyes=12, away_eyes=10)
    deliver(services.correct_result, actor=organiser, match=mine, home_eyes=4, away_eyes=12,
            reason="The sheet was read the wrong way round")
    swiss, entries = rated_swiss
    PlayerRating.objects.filter(player__in=[p for e in entries for p in (e.player_a, e.player_b)]).delete()
    for entry, rating in zip(entries, (1560, 1550, 1500), strict=False):  # the recomputes above rebuilt
        for player in (entry.player_a, entry.player_b):                    # the ratings from the archive
            _rate(player, rating, 60)
    day = swiss.day
    day.check_in_closes_at = timezone.now() - timedelta(minutes=1)
    day.save()
    runner.run_due()
    pages = {
        "card": (reverse("archive:player", args=[b[0].pk]) + "#rating", ".rc-move"),
        "match": (mine.get_absolute_url() + "#ratings", ".rc-recomputed"),
        "entries": (reverse("tournaments:entries", args=[swiss.slug]), "#seed-ratings"),
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for viewport in (PHONE, WIDE):
                page = browser.new_context(viewport=viewport, locale=language).new_page()
                for name, (url, what) in pages.items():
                    page.goto(live_server.url + url)
                    expect(page.locator(what).first).to_be_visible()
                    _no_sideways_scroll(page)
                    page.locator(what).first.scroll_into_view_if_needed()
                    shot = f"history-{name}-{language}-{viewport['width']}.png"
                    page.screenshot(path=screenshots_dir / shot)
                page.context.close()
        finally:
            browser.close()
