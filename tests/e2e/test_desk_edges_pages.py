"""In Chromium, the organiser's-desk fixes as people see them, at 390 and 1280 px: the match page's
deal-by-deal form growing past 24 rows with "Add a deal row", the table device's the same, the
club page's "New tournament" for a new club's owner, a running Swiss taking late entries on its
page and on /tournaments/, and the A4 score sheet with 24 deal rows on one page (printed to PDF).
Screenshots go to var/screenshots/desk-*.png for a person to look at."""

import datetime
import re

import pytest
from django.db.models import Q
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from clubs import services as club_services
from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match
from tournaments.views.devices import device_url

from .conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 900}}
NAMES = ["Айгерим Жұмабаева", "Нұрлан Ахметов", "Олег Ткаченко", "Мария Петрова", "Әсел Сейтқалиева",
         "Иван Кузнецов", "Дина Бекова", "Ержан Омаров"]  # fmt: skip


def _event():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Чемпионат села Успенка",
                                   format="swiss", swiss_rounds=5, self_registration=True,
                                   starts_on=datetime.date(2026, 12, 5))  # fmt: skip
    player = None
    for i in range(8):
        a = PlayerFactory(display_name=f"{NAMES[i]} {i + 1}")
        b = PlayerFactory(display_name=f"{NAMES[(i + 3) % 8]} {i + 1}")
        if i == 0:
            player = UserFactory(username="aigerim")
            a.user = player
            a.save(update_fields=["user"])
        for p in (a, b):
            ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    Match.objects.filter(round=rnd).update(home_pin="1357", away_pin="2468")
    mine = rnd.matches.filter(Q(home__player_a__user=player) | Q(away__player_a__user=player)).get()
    return club, organiser, player, t, mine


def _login(context, live_server, user):
    client = Client()
    client.force_login(user)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}]
    )


def _add_rows(page, shots, name):
    page.locator("details.more summary").first.click()
    grid = page.locator("[data-deal-grid] tbody tr")
    expect(grid).to_have_count(24)
    add = page.locator("[data-add-deal]").first
    expect(add).to_be_visible()
    add.click()
    add.click()
    expect(grid).to_have_count(26)
    assert page.locator("[name=deal-26-home]").input_value() == ""
    assert grid.nth(25).locator("td").first.inner_text() == "26"
    page.fill("[name=deal-26-home]", "70")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    add.scroll_into_view_if_needed()
    page.screenshot(path=shots / name, full_page=False)


def test_the_desk_edges_in_chromium(live_server, chromium_path, screenshots_dir):
    club, organiser, player, t, match = _event()
    founder = UserFactory(username="founder")
    new_club = club_services.create_club(actor=founder, name="Новый клуб Аксу", city="Аксу")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for label, viewport in WIDTHS.items():
                context = browser.new_context(viewport=viewport, locale="ru-RU")
                _login(context, live_server, player)
                page = context.new_page()
                page.goto(live_server.url + match.get_absolute_url())
                _add_rows(page, screenshots_dir, f"desk-match-deals-{label}.png")
                context.close()

                context = browser.new_context(viewport=viewport, locale="ru-RU")
                page = context.new_page()
                page.goto(live_server.url + device_url(t, match.table))
                _add_rows(page, screenshots_dir, f"desk-device-deals-{label}.png")
                context.close()

                context = browser.new_context(viewport=viewport, locale="ru-RU")
                _login(context, live_server, founder)
                page = context.new_page()
                page.goto(live_server.url + new_club.get_absolute_url())
                expect(page.get_by_role("link", name="Новый турнир")).to_be_visible()
                shot = screenshots_dir / f"desk-club-new-tournament-{label}.png"
                page.screenshot(path=shot, full_page=True)
                context.close()

            context = browser.new_context(viewport=WIDTHS["390"], locale="ru-RU")
            page = context.new_page()
            page.goto(live_server.url + t.get_absolute_url())
            expect(page.get_by_role("link", name="заявите свою пару")).to_be_visible()
            page.screenshot(path=screenshots_dir / "desk-late-entry-home-390.png", full_page=True)
            page.goto(live_server.url + "/tournaments/")
            expect(page.locator("#open")).to_contain_text(t.name)
            page.screenshot(path=screenshots_dir / "desk-late-entry-list-390.png", full_page=True)
            context.close()

            context = browser.new_context(viewport=WIDTHS["1280"], locale="kk-KZ")
            _login(context, live_server, organiser)
            page = context.new_page()
            page.goto(f"{live_server.url}/t/{t.slug}/rounds/1/sheets/")
            pdf = page.pdf(format="A4", prefer_css_page_size=True)
            (screenshots_dir / "desk-score-sheets.pdf").write_bytes(pdf)  # pdftoppm makes it images
            rows = page.locator("article.sheet").first.locator("tbody tr")
            expect(rows).to_have_count(24)
            sheets = page.locator("article.sheet").count()
            page.evaluate("document.getElementById('round-table-cards')?.remove()")  # the cards print apart
            alone = page.pdf(format="A4", prefer_css_page_size=True)
            pages = len(re.findall(rb"/Type\s*/Page(?!s)", alone))
            assert pages == sheets, f"{sheets} score sheets of 24 deal rows print on {pages} A4 pages"
            context.close()
        finally:
            browser.close()
