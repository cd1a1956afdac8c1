"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Run in their own pytest process (`pytest tests/e2e`): Playwright's sync API runs an event loop
in the test thread, so Django's async-safety check must be relaxed for the ORM calls here.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error, Page, expect

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# How long a browser test waits for what must come: an `expect` to hold, a click to land, a page to
# load. Playwright's own defaults, 5 s for an expect and 30 s for an action, measure the machine: a
# live table's first frame, or a page of the site under test, came later than that on a machine
# busy with other work. Only a broken page makes a test wait this long.
WAIT_MS = 60_000
expect.set_options(timeout=WAIT_MS)
_new_context = Browser.new_context


def _context_that_waits(self: Browser, *args, **kwargs):
    context = _new_context(self, *args, **kwargs)
    context.set_default_timeout(WAIT_MS)
    return context


Browser.new_context = _context_that_waits  # every test makes its contexts with browser.new_context

# Chromium now and then refuses one capture ("Protocol error (Page.captureScreenshot): Unable to
# capture screenshot", seen once in CI on a page that had loaded and passed its checks) and takes
# the same picture when asked again: a known transient of the browser, not of the page
# (robotframework-browser #5237, chromedp #1215). A screenshot is asked up to three times for that
# error alone; any other error, and the third refusal, fail the test as before.
_screenshot = Page.screenshot


def _screenshot_asked_again(self: Page, *args, **kwargs):
    for attempt in range(3):
        try:
            return _screenshot(self, *args, **kwargs)
        except Error as error:
            if "Unable to capture screenshot" not in str(error) or attempt == 2:
                raise
            self.wait_for_timeout(500)


Page.screenshot = _screenshot_asked_again

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}


def sideways_overflow(page) -> int:
    """How many pixels the page scrolls sideways. Waits for the page to have loaded first: a click
    on a link returns once its navigation has started, and the new document has no root element
    for a moment (CI read `null.scrollWidth` there)."""
    page.wait_for_load_state()
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def club_event(names, *, accounts=None, **fields):
    """The Uspenka club, its organiser `zhanar`, an event made with ``fields`` and the pairs of
    ``names`` taken two by two (player i gets the account ``accounts[i]`` where one is given).
    Returns (event, organiser, pairs)."""
    from clubs.models import ClubPlayer, Membership, Role
    from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
    from tournaments import services

    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    event = services.create_tournament(actor=organiser, club=club, **fields)
    players = []
    for i, name in enumerate(names):
        player = PlayerFactory(display_name=name, user=(accounts or {}).get(i))
        ClubPlayer.objects.create(club=club, player=player, added_as=name)
        players.append(player)
    pairs = [
        services.register_entry(actor=organiser, tournament=event, player_a=a, player_b=b)
        for a, b in zip(players[::2], players[1::2], strict=True)
    ]
    return event, organiser, pairs


@pytest.fixture
def screenshots_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
    return CHROMIUM


@pytest.fixture(scope="session", autouse=True)
def _close_live_server_connections(django_db_setup, django_db_blocker):
    """The live server's request threads may leave a PostgreSQL session open; end them so the
    test database can be dropped at the end of the run."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
