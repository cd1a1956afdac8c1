"""An organiser runs a small Swiss from a phone; a player reports and another confirms from his own phone."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus, Tournament

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = {
    "asel": "Асель Жумабаева",
    "oleh": "Олег Ткаченко",
    "ivan": "Иван Петров",
    "nurlan": "Нурлан Ахметов",
}


def _no_horizontal_scroll(page) -> None:
    overflow = sideways_overflow(page)
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def _login(browser, base, username):
    context = browser.new_context(viewport=PHONE, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return context, page


def _club():
    club = ClubFactory(name="Успенка", slug="uspenka")
    Membership.objects.create(club=club, user=UserFactory(username="zhanar"), role=Role.ORGANISER)
    for username, name in NAMES.items():
        player = PlayerFactory(display_name=name, user=UserFactory(username=username))
        ClubPlayer.objects.create(club=club, player=player, added_as=name)
    return club


def test_organiser_runs_a_swiss_and_a_player_confirms(live_server, chromium_path, screenshots_dir):
    _club()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        organiser, page = _login(browser, base, "zhanar")
        try:
            page.goto(f"{base}/clubs/uspenka/tournaments/new/")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-create.png", full_page=True)
            page.fill("input[name=name]", "Пятничная швейцарка")
            page.fill("input[name=starts_on]", "2026-10-02")
            page.fill("input[name=venue]", "Дом культуры")
            page.select_option("select[name=format]", "swiss")
            page.fill("input[name=swiss_rounds]", "2")
            page.select_option("select[name=seeding]", "manual")
            page.fill("textarea[name=prizes]", "Кубок\nМешок муки")
            page.locator("main form button[type=submit]").click()
            page.wait_for_load_state()
            page.screenshot(path=screenshots_dir / "tournament-after-create.png", full_page=True)
            page.wait_for_url("**/entries/")
            page.fill(
                "textarea[name=text]",
                "Asel Zhumabaeva & Олег Ткаченко\nГалина Шевченко & Мирослава Коваленко\n"
                "Иван Петров & Нурлан Ахметов\nЕрлан Касымов & Айгерим Бекова",
            )
            page.locator("form[action$='/entries/bulk/'] button[type=submit]").click()
            expect(page.locator(".list-title")).to_have_count(4)
            t = Tournament.objects.get()
            assert t.entries.get(seed=1).player_a.user.username == "asel"  # found on the roster in Latin
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-entries.png", full_page=True)

            page.goto(f"{base}/t/{t.slug}/")
            page.locator("form[action$='/pair/'] button").click()
            page.wait_for_url(f"{base}/t/{t.slug}/rounds/1/")
            expect(page.locator(".pairing")).to_have_count(2)
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-pairings.png", full_page=True)

            page.goto(f"{base}/t/{t.slug}/")
            expect(page.locator("#organiser")).to_be_visible()
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-home-organiser.png", full_page=True)

            # The organiser enters the villagers' table himself (confirmed at once).
            villagers = Match.objects.get(tournament=t, table=2)
            page.goto(f"{base}{villagers.get_absolute_url()}")
            page.fill("input[name=final-home_eyes]", "12")
            page.fill("input[name=final-away_eyes]", "7")
            page.locator("form:has(input[value=final]) button[type=submit]").click()
            expect(page.locator(".big-score")).to_contain_text("12 : 7")

            # Asel reports table 1 from her phone; Ivan confirms from his.
            table1 = Match.objects.get(tournament=t, table=1)
            asel, asel_page = _login(browser, base, "asel")
            asel_page.goto(f"{base}/me/matches/")
            asel_page.locator(f"a[href='{table1.get_absolute_url()}']").first.click()
            asel_page.fill("input[name=final-home_eyes]", "12")
            asel_page.fill("input[name=final-away_eyes]", "9")
            asel_page.locator("form:has(input[value=final]) button[type=submit]").click()
            expect(asel_page.locator(".big-score")).to_contain_text("12 : 9")
            assert Match.objects.get(pk=table1.pk).status == MatchStatus.UNCONFIRMED
            _no_horizontal_scroll(asel_page)
            asel_page.screenshot(path=screenshots_dir / "tournament-match-reported.png", full_page=True)
            asel.close()

            guest = browser.new_context(viewport=PHONE, locale="ru-RU")
            guest_page = guest.new_page()
            guest_page.goto(f"{base}{table1.get_absolute_url()}")
            expect(guest_page.locator("#id_pin")).to_be_visible()
            _no_horizontal_scroll(guest_page)
            guest_page.screenshot(path=screenshots_dir / "tournament-match-pin.png", full_page=True)
            guest_page.goto(f"{base}/t/{t.slug}/rounds/1/print/")
            guest_page.screenshot(path=screenshots_dir / "tournament-print-pairings.png", full_page=True)
            guest.close()

            ivan, ivan_page = _login(browser, base, "ivan")
            ivan_page.goto(f"{base}/me/matches/")
            _no_horizontal_scroll(ivan_page)
            ivan_page.screenshot(path=screenshots_dir / "tournament-my-matches.png", full_page=True)
            ivan_page.locator(f"a.button[href='{table1.get_absolute_url()}#confirm']").click()
            ivan_page.locator("#confirm form button[type=submit]").first.click()
            expect(ivan_page.locator(".status-confirmed").first).to_be_visible()
            ivan.close()
            confirmed = Match.objects.get(pk=table1.pk)
            assert confirmed.status == MatchStatus.CONFIRMED and confirmed.confirmed_by.username == "ivan"

            page.goto(f"{base}/t/{t.slug}/")
            page.locator("form[action$='/pair/'] button").click()
            page.wait_for_url(f"{base}/t/{t.slug}/rounds/2/")
            for match in Match.objects.filter(tournament=t, round__number=2):
                services.enter_result(actor=t.created_by, match=match, home_eyes=12, away_eyes=5)
            page.goto(f"{base}/t/{t.slug}/standings/")
            expect(page.locator(".standings tbody tr")).to_have_count(4)
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-standings.png", full_page=True)
            page.goto(f"{base}/t/{t.slug}/")
            expect(page.locator("#prizes")).to_contain_text("Кубок")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-home.png", full_page=True)
            page.goto(f"{base}/t/{t.slug}/rounds/2/sheets/")
            page.screenshot(path=screenshots_dir / "tournament-sheets.png", full_page=True)
        finally:
            organiser.close()
            browser.close()


def test_screenshots_of_the_demo_tournaments(live_server, chromium_path, screenshots_dir):
    call_command("seed_demo")
    call_command("seed_demo_tournaments")
    cup = Tournament.objects.get(format="single_elim")
    league = Tournament.objects.get(format="round_robin")
    swiss = Tournament.objects.get(name="Чемпионат Успенки 2026")  # the online cup is a Swiss too
    big = services.create_tournament(
        actor=cup.created_by, club=cup.club, name="Кубок на восемь", format="single_elim"
    )
    services.register_entries_bulk(
        actor=cup.created_by,
        tournament=big,
        text="\n".join(f"Игрок {2 * i} & Игрок {2 * i + 1}" for i in range(1, 9)),
    )
    first = services.pair_next_round(actor=cup.created_by, tournament=big)
    for m in first.matches.all()[:3]:
        services.enter_result(actor=cup.created_by, match=m, home_eyes=12, away_eyes=4)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        page = context.new_page()
        try:
            shots = {
                "tournament-bracket": f"/t/{cup.slug}/bracket/",
                "tournament-bracket-open": f"/t/{big.slug}/bracket/",
                "tournament-crosstable": f"/t/{league.slug}/crosstable/",
                "tournament-league-home": f"/t/{league.slug}/",
                "tournament-league-results": f"/t/{league.slug}/results/",
                "tournament-swiss-results": f"/t/{swiss.slug}/results/",
                "tournament-swiss-standings": f"/t/{swiss.slug}/standings/",
                "tournament-club": f"/clubs/{cup.club.slug}/",
                "tournament-list": f"/clubs/{cup.club.slug}/tournaments/",
            }
            for name, path in shots.items():
                page.goto(f"{live_server.url}{path}")
                _no_horizontal_scroll(page)
                page.screenshot(path=screenshots_dir / f"{name}.png", full_page=True)
            page.goto(f"{live_server.url}/t/{cup.slug}/bracket/")
            expect(page.locator(".bracket-col")).to_have_count(3)
            expect(page.locator(".champion")).to_be_visible()

            # The organiser writes a sheet deal by deal on his phone and looks at the running score.
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=login]", "organiser")
            page.fill("input[name=password]", "bilka-demo")
            page.locator("form.auth-form button[type=submit]").click()
            page.wait_for_url(f"{live_server.url}/")
            open_match = Match.objects.filter(
                tournament=swiss, status=MatchStatus.SCHEDULED, bye=False
            ).first()
            page.goto(f"{live_server.url}{open_match.get_absolute_url()}")
            page.locator("#enter details summary").click()
            for number, (home, away, jack) in enumerate(
                [(70, 50, "1"), (60, 60, "2"), (30, 90, "1")], start=1
            ):
                page.fill(f"input[name=deal-{number}-home]", str(home))
                page.fill(f"input[name=deal-{number}-away]", str(away))
                page.select_option(f"select[name=deal-{number}-jack]", value=jack)
            page.locator("button[value=preview]").click()
            expect(page.locator("#enter table.standings tbody tr")).to_have_count(3)
            expect(page.locator("select[name=deal-2-jack]")).to_have_value("2")  # kept as typed
            expect(page.locator("#enter table.standings tbody tr").last).to_contain_text("0")
            _no_horizontal_scroll(page)
            page.screenshot(path=screenshots_dir / "tournament-deal-sheet.png", full_page=True)
        finally:
            context.close()
            browser.close()
