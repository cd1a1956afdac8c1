"""The rating pages in a browser at 360, 390 and 1280 px: the board, a player's page whose chart
names a match on tap and whose date labels never overlap, a match page with each pair's chance —
none breaks the Content-Security-Policy."""

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from clubs.models import ClubPlayer
from ratings.models import RatingChange
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ratings.test_rating_pages import _archive
from tournaments import services

from .conftest import CHROMIUM_ARGS, PHONE
from .test_csp import WATCH

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/shots")


def _scene():
    names = ["Ерлан Сапаров", "Асель Нурланова", "Жанар Бекова", "Нурлан Ахметов",
             "Данияр Омаров", "Айгуль Касымова", "Тимур Ким", "Мадина Алиева"]
    players = [PlayerFactory(display_name=n, city="Успенка" if i % 3 else "Uspenka")
               for i, n in enumerate(names)]
    for i in range(12):
        four = [players[(i + k) % 8] for k in (0, 1, 2, 3)] if i % 2 else players[:4]
        _archive(four, seed=500 + i, day=i)
    club = ClubFactory(name="Успенка", slug="uspenka-e2e")
    organiser = UserFactory(username="org-e2e")
    from clubs.models import Membership, Role

    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    for p in players:
        ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
    t = services.create_tournament(actor=organiser, club=club, name="Кубок Успенки", format="swiss",
                                   swiss_rounds=3, starts_on=datetime.date(2026, 10, 2), seeding="rating")
    for a, b in ((0, 2), (1, 3), (4, 6), (5, 7)):
        services.register_entry(actor=organiser, tournament=t, player_a=players[a], player_b=players[b])
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    return players, t, rnd.matches.filter(bye=False).first()


def test_rating_pages_render_and_break_no_policy(live_server, chromium_path):
    players, t, match = _scene()
    SHOTS.mkdir(exist_ok=True)
    pages = {
        "board": "/ratings/",
        "player": f"/archive/players/{players[0].pk}/",
        "match": match.get_absolute_url(),
        "standings": f"/t/{t.slug}/standings/",
        "how": "/ratings/how/",
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        for width, viewport in (("360", PHONE), ("390", {"width": 390, "height": 844}),
                                ("1280", {"width": 1280, "height": 900})):
            context = browser.new_context(viewport=viewport, locale="ru-RU")
            context.add_init_script(WATCH)
            page = context.new_page()
            console = []
            page.on("console", lambda m, console=console: m.type == "error" and console.append(m.text))
            for name, path in pages.items():
                response = page.goto(f"{live_server.url}{path}")
                assert response.status == 200, path
                page.wait_for_load_state("networkidle")
                page.screenshot(path=SHOTS / f"ratings-{name}-{width}.png", full_page=True)
                assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
                assert not [c for c in console if "WebSocket" not in c], (path, console)  # no sockets here
                if name == "player":
                    _the_chart_reads(page, RatingChange.objects.filter(player=players[0]).count())
                if name == "match":
                    assert page.locator(".chance").count() == 2
                overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
                assert not overflow, (path, width)
            context.close()
        browser.close()


#: The time labels' boxes as the browser laid them out, left to right.
LABEL_BOXES = """[...document.querySelectorAll('.rating-chart .rc-x text:not(.rc-axis-title)')]
    .map(t => t.getBoundingClientRect()).map(r => [r.left, r.right]).sort((a, b) => a[0] - b[0])"""


def _the_chart_reads(page, matches):
    """One point per rated match; time labels that do not touch; a tap names the match under the
    chart (the script runs under the CSP), with its link."""
    points = page.locator(".rating-chart a.rc-point")
    assert points.count() == matches > 2
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) >= 2 and all(a[1] < b[0] for a, b in zip(boxes, boxes[1:], strict=False)), boxes
    caption = page.locator(".rc-caption")
    assert caption.is_hidden()
    point = points.nth(5)
    name = point.get_attribute("data-name")
    point.dispatch_event("click")
    assert caption.is_visible() and name in caption.inner_text()
    assert page.locator(".rc-caption-link").get_attribute("href") == point.get_attribute("href")
