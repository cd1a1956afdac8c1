"""The hall screen on a projector: a 40-pair Swiss at 1920×1080 and 1280×720, every pairing on the
screen without scrolling, and a result entered elsewhere reaching the wall unreloaded.

The site runs under Daphne (tests/e2e/test_tables_play.py's fixture); screenshots go to
var/screenshots/hall-*.png for a person to look at.
"""

import time

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services

from .conftest import CHROMIUM_ARGS
from .test_tables_play import asgi_server  # noqa: F401 - the Daphne fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST = ["Айгерим", "Нұрлан", "Олег", "Мария", "Әсел", "Иван", "Дина", "Ержан", "Оксана", "Тимур"]
LAST = ["Жұмабаева", "Ахметов", "Ткаченко", "Петрова", "Сейтқалиева", "Кузнецов", "Бекова", "Омаров"]
PAIRS = 40
SIZES = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}


def _championship():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(
        actor=organiser, club=club, name="Чемпионат села Успенка по бильке", format="swiss",
        swiss_rounds=5, seeding="manual", round_length=40,
        prizes=["Кубок и 20 000 ₸", "Мешок муки", "Торт"],
    )
    players = []
    for i in range(2 * PAIRS):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]}"
        p = PlayerFactory(display_name=name)
        ClubPlayer.objects.create(club=club, player=p, added_as=name)
        players.append(p)
    for i in range(PAIRS):
        services.register_entry(
            actor=organiser, tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    for m in rnd.matches.filter(bye=False).order_by("table")[:6]:
        services.enter_result(actor=organiser, match=m, home_eyes=12, away_eyes=m.table % 12)
    services.post_announcement(
        actor=organiser, tournament=t,
        text="Обед в 13:00 в столовой. Второй тур начнётся в 14:00 — не опаздывайте!",
    )
    return t, organiser, rnd


def _all_on_screen(page, selector: str, viewport: dict) -> int:
    """How many of the shown view's lines lie (wholly) outside the screen: 0 when nobody needs to scroll."""
    return page.evaluate(
        """([selector, w, h]) => Array.from(document.querySelectorAll(selector)).filter(el => {
             const r = el.getBoundingClientRect();
             return r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > h + 1 || r.right > w + 1;
           }).length""",
        [selector, viewport["width"], viewport["height"]],
    )


def test_the_hall_screen_fits_a_projector_and_follows_the_results(  # noqa: F811
    asgi_server, chromium_path, screenshots_dir  # noqa: F811
):
    t, organiser, rnd = _championship()
    tables = rnd.matches.filter(bye=False).count()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        pages = {}
        for label, viewport in SIZES.items():
            page = browser.new_context(viewport=viewport, locale="ru").new_page()
            page.goto(f"{asgi_server}/t/{t.slug}/hall/")
            expect(page.locator("#t-live[data-live-connected='1']")).to_have_count(1)
            expect(page.locator("#hall-tables.is-shown li.hall-table")).to_have_count(tables)
            expect(page.locator(".round-clock .clock-left")).to_contain_text(":")
            page.screenshot(path=screenshots_dir / f"hall-{label}-tables.png")
            assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
            assert _all_on_screen(page, "#hall-tables.is-shown li.hall-table", viewport) == 0
            expect(page.locator("#hall-announcement")).to_contain_text("Обед в 13:00")
            page.evaluate("window.__notReloaded = 7")
            pages[label] = page

        # the organiser pins each view in turn: the screens pick it up over the socket
        for view, selector in (("names", "#hall-names li"), ("standings", "#hall-standings li"),
                               ("results", "#hall-results li")):
            services.pin_hall_view(actor=organiser, tournament=t, view=view)
            for label, page in pages.items():
                expect(page.locator(f"#hall-{view}.is-shown")).to_have_count(1)
                page.wait_for_timeout(300)  # the type is fitted right after the swap
                assert _all_on_screen(page, selector, SIZES[label]) == 0, (view, label)
                page.screenshot(path=screenshots_dir / f"hall-{label}-{view}.png")
        expect(pages["720p"].locator("#hall-names li")).to_have_count(2 * PAIRS)

        services.pin_hall_view(actor=organiser, tournament=t, view="tables")
        open_match = rnd.matches.filter(bye=False, home_eyes__isnull=True).order_by("table").first()
        services.enter_result(actor=organiser, match=open_match, home_eyes=5, away_eyes=12)
        for label, page in pages.items():
            row = page.locator(f"#hall-tables li[data-table='{open_match.table}'] .hall-score")
            expect(row).to_have_text("5:12")
            assert page.evaluate("window.__notReloaded") == 7
            assert _all_on_screen(page, "#hall-tables.is-shown li.hall-table", SIZES[label]) == 0
        browser.close()


# Keeps every socket the page opens, so the test can drop them as a weak network would.
KEEP_SOCKETS = """
  window.__sockets = [];
  const Real = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const s = new Real(url, protocols);
    window.__sockets.push(s);
    return s;
  };
  window.WebSocket.prototype = Real.prototype;
"""


def test_the_hall_screen_says_it_is_reconnecting_and_comes_back_by_itself(  # noqa: F811
    asgi_server, chromium_path  # noqa: F811
):
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Вечер бильки", format="swiss",
                                   swiss_rounds=3, seeding="manual")
    for i in range(4):
        a = PlayerFactory(display_name=f"Игрок {2 * i + 1}")
        b = PlayerFactory(display_name=f"Игрок {2 * i + 2}")
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=SIZES["720p"], locale="ru").new_page()
        page.add_init_script(KEEP_SOCKETS)

        # On a loaded machine the socket can open before the deferred hall.js has run (CI saw it
        # once): hold hall.js back until then, so the screen must learn it was connected.
        def late(route):  # type: ignore[no-untyped-def]
            time.sleep(2)
            route.continue_()

        page.route("**/tournaments/hall*.js", late)
        page.goto(f"{asgi_server}/t/{t.slug}/hall/")
        expect(page.locator("#t-live[data-live-connected='1']")).to_have_count(1)
        expect(page.locator("#hall-reconnecting")).to_be_hidden()
        page.evaluate("window.__notReloaded = 3; window.__sockets.forEach(s => s.close())")
        expect(page.locator("#hall-reconnecting")).to_be_visible()
        expect(page.locator("#hall-reconnecting")).to_be_hidden()  # back by itself
        expect(page.locator("#t-live[data-live-connected='1']")).to_have_count(1)
        match = rnd.matches.filter(bye=False).order_by("table").first()
        services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=9)
        expect(page.locator(f"#hall-tables li[data-table='{match.table}'] .hall-score")).to_have_text("12:9")
        assert page.evaluate("window.__notReloaded") == 3
        browser.close()
