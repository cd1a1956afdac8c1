"""In Chromium on a phone: a forfeit button opens a dialog; "Cancel" leaves the match as it was,
the dialog's button records the forfeit. Without JavaScript the same button opens the confirm page."""

import pytest
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _event():
    club = ClubFactory(name="Успенка", slug="uspenka")
    organiser = UserFactory(username="zhanar")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    t = services.create_tournament(actor=organiser, club=club, name="Кубок", format="swiss", swiss_rounds=2)
    players = []
    for i in range(8):
        player = PlayerFactory(display_name=f"Игрок {i + 1}")
        ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name)
        players.append(player)
    for i in range(4):
        services.register_entry(
            actor=organiser, tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
    services.pair_next_round(actor=organiser, tournament=t)
    return t.matches.get(table=1)


def _page(browser, base, *, js: bool):
    context = browser.new_context(viewport=PHONE, locale="en-US", java_script_enabled=js)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "zhanar")
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.auth-form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return context, page


def test_a_forfeit_asks_in_a_dialog_and_on_a_page_without_javascript(
    live_server, chromium_path, screenshots_dir
):
    m = _event()
    base = live_server.url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context, page = _page(browser, base, js=True)
        try:
            page.goto(f"{base}{m.get_absolute_url()}")
            page.locator("details.more summary", has_text="12:0").click()
            page.locator("a[data-confirm]", has_text=m.home.name).click()
            dialog = page.locator("dialog[open]")
            expect(dialog).to_be_visible()
            expect(dialog).to_contain_text("Record a forfeit by")
            page.screenshot(path=screenshots_dir / "ask-first-dialog.png")
            dialog.locator("button", has_text="Cancel").click()
            expect(page.locator("dialog[open]")).to_have_count(0)
            assert Match.objects.get(pk=m.pk).status == MatchStatus.SCHEDULED

            page.locator("a[data-confirm]", has_text=m.home.name).click()
            page.locator("dialog[open] button.button-danger").click()
            page.wait_for_load_state()
            expect(page.locator(".message-success")).to_contain_text("forfeit is recorded")
            m.refresh_from_db()
            assert m.forfeit and (m.home_eyes, m.away_eyes) == (0, 12)
        finally:
            context.close()

        other = Match.objects.get(round=m.round, table=2)
        context, page = _page(browser, base, js=False)
        try:
            page.goto(f"{base}{other.get_absolute_url()}")
            page.locator("details.more summary", has_text="12:0").click()
            page.locator("a[data-confirm]", has_text=other.away.name).click()
            page.wait_for_load_state()
            expect(page.locator("h1")).to_contain_text("Record a forfeit by")
            assert Match.objects.get(pk=other.pk).status == MatchStatus.SCHEDULED
            page.screenshot(path=screenshots_dir / "ask-first-page.png")
            page.locator("main form button.button-danger").click()
            page.wait_for_load_state()
            other.refresh_from_db()
            assert other.forfeit and (other.home_eyes, other.away_eyes) == (12, 0)
        finally:
            context.close()
            browser.close()
