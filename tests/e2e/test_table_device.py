"""In Chromium: the table device of table 7 on a 390 px phone in Russian, no account. Pair 1 enters
12:9 with its PIN, the page asks pair 2 for its PIN, pair 2 confirms on the same page; the touch
targets are at least 48 px, nothing is wider than the phone, and no PIN stays in a box or in the
address. The same at 1280 px, and the organiser's table cards. Screenshots go to
var/screenshots/table-device-*.png for a person to look at."""

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus
from tournaments.selectors import devices

from .conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Айгерим Жұмабаева", "Нұрлан Ахметов", "Олег Ткаченко", "Мария Петрова", "Әсел Сейтқалиева",
         "Иван Кузнецов", "Дина Бекова", "Ержан Омаров"]  # fmt: skip
PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _hall():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Чемпионат села Успенка",
                                   format="swiss", swiss_rounds=3)  # fmt: skip
    for i in range(16):
        a = PlayerFactory(display_name=f"{NAMES[i % 8]} {i + 1}")
        b = PlayerFactory(display_name=f"{NAMES[(i + 3) % 8]} {i + 1}")
        for p in (a, b):
            ClubPlayer.objects.create(club=club, player=p, added_as=p.display_name)
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    Match.objects.filter(round=rnd, table=7).update(home_pin="1357", away_pin="2468")
    return t, rnd.matches.get(table=7)


def _small_targets(page) -> list[str]:
    """The visible buttons, boxes and summaries of the device lower than 48 px."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(
               '#table-device button, #table-device input:not([type=hidden]), #table-device select,'
               + ' #table-device summary, #table-device a.button'))
             .filter(el => el.offsetParent !== null)
             .filter(el => el.getBoundingClientRect().height < 48)
             .map(el => el.outerHTML.slice(0, 80))"""
    )


def _run(page, url, shots, label, table):
    page.goto(url)
    expect(page.locator(".device-table")).to_have_text(f"Стол {table}")
    assert _small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=shots / f"table-device-{label}-enter.png", full_page=True)
    page.fill("#device-home-eyes", "12")
    page.fill("#device-away-eyes", "9")
    page.fill("#device-report-pin", "1357")
    page.get_by_role("button", name="Сохранить результат").click()
    expect(page.locator(".message-success")).to_contain_text("Теперь другая пара подтверждает")
    expect(page.locator("#device-score")).to_have_text("12 : 9")
    expect(page.locator("#device-confirm")).to_contain_text("PIN-код пары 2")
    assert page.locator("#device-confirm-pin").input_value() == ""
    assert _small_targets(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=shots / f"table-device-{label}-confirm.png", full_page=True)
    page.fill("#device-confirm-pin", "1357")  # pair 1's own PIN: refused, said why
    page.locator("#device-confirm button[type=submit]").first.click()
    expect(page.locator(".message-error")).to_contain_text("PIN-код пары, которая внесла результат")
    page.fill("#device-confirm-pin", "2468")
    page.locator("#device-confirm button[type=submit]").first.click()
    expect(page.locator("#device-done")).to_contain_text("Результат подтверждён")
    page.screenshot(path=shots / f"table-device-{label}-done.png", full_page=True)
    assert "1357" not in page.url and "2468" not in page.url and page.url == url
    assert all(box.input_value() == "" for box in page.locator("input[name=pin]").all())


def test_both_pairs_report_and_confirm_on_the_table_device(live_server, chromium_path, screenshots_dir):
    t, m = _hall()
    url = f"{live_server.url}/t/{t.slug}/tables/7/{devices.device_code(tournament_id=t.pk, table=7)}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=PHONE_390, locale="ru-RU", has_touch=True).new_page()
            _run(page, url, screenshots_dir, "390", 7)
            m.refresh_from_db()
            assert (m.status, m.confirmed_how, m.reported_side) == (MatchStatus.CONFIRMED, "pin", "home")
            m8 = t.matches.get(table=8)
            Match.objects.filter(pk=m8.pk).update(home_pin="1357", away_pin="2468")
            code_8 = devices.device_code(tournament_id=t.pk, table=8)
            url_8 = f"{live_server.url}/t/{t.slug}/tables/8/{code_8}/"
            wide = browser.new_context(viewport=DESKTOP, locale="ru-RU").new_page()
            _run(wide, url_8, screenshots_dir, "1280", 8)
            assert Match.objects.get(pk=m8.pk).status == MatchStatus.CONFIRMED
            organiser = browser.new_context(viewport=DESKTOP, locale="ru-RU").new_page()
            organiser.goto(f"{live_server.url}/accounts/login/")
            organiser.fill("input[name=login]", "zhanar")
            organiser.fill("input[name=password]", PASSWORD)
            organiser.locator("form.auth-form button[type=submit]").click()
            organiser.wait_for_url(f"{live_server.url}/")
            organiser.goto(f"{live_server.url}/t/{t.slug}/day/")
            organiser.locator("#table-cards-link").click()
            expect(organiser.locator(".table-card")).to_have_count(8)
            expect(organiser.locator(".table-card svg.qr-code")).to_have_count(8)
            organiser.screenshot(path=screenshots_dir / "table-device-cards-1280.png", full_page=True)
        finally:
            browser.close()


def test_a_visitor_reports_on_the_match_page_with_the_pin_from_his_halfs_code(
    live_server, chromium_path, screenshots_dir
):
    """The half's QR code opens the match page with #pin=…: the PIN boxes are filled and the PIN
    leaves the address; the visitor reports without an account, and his side is the reporter."""
    t, m = _hall()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=PHONE_390, locale="ru-RU").new_page()
            page.goto(f"{live_server.url}{m.get_absolute_url()}#pin=2468")
            expect(page.locator("#id_final_pin")).to_have_value("2468")
            assert "2468" not in page.url
            page.fill("#id_final-home_eyes", "10")
            page.fill("#id_final-away_eyes", "12")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
            page.screenshot(path=screenshots_dir / "match-report-by-pin-390.png", full_page=True)
            page.locator("form:has(input[value=final]) button[type=submit]").click()
            expect(page.locator(".big-score")).to_contain_text("10 : 12")
            m.refresh_from_db()
            assert (m.status, m.reported_side, m.reported_by) == (MatchStatus.UNCONFIRMED, "away", None)
        finally:
            browser.close()
