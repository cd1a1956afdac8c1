"""Membership and partnership by consent, in a browser at 360 and 1280 px: the owner invites by
name and shows a QR code in person, the invited person finds the invitation from the menu and
accepts, and a partner asked to play finds the request on her notifications and the entries page.
Every page is reached by links from the one before, and none scrolls sideways."""

import datetime

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from clubs.models import ClubPlayer, Membership, Role
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import EntryStatus

from .conftest import CHROMIUM_ARGS, PHONE, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDE = {"width": 1280, "height": 800}


def _overflow(page) -> int:
    return sideways_overflow(page)


def _signed_in(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale="ru-RU")
    host = live_server.url.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}]
    )
    return context, context.new_page()


def _people():
    club = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    owner = MembershipFactory(club=club, user=UserFactory(username="zhanar"), role=Role.OWNER).user
    people = {}
    for username, name in (("asel", "Асель Жумабаева"), ("olga", "Ольга Ткаченко"), ("anna", "Анна Коваль")):
        people[username] = PlayerFactory(display_name=name, user=UserFactory(username=username))
        ClubPlayer.objects.create(club=club, player=people[username], added_as=name)
    return club, owner, people


def test_invitations_and_partner_requests_on_a_phone_and_a_wide_screen(
    live_server, chromium_path, screenshots_dir
):
    club, owner, people = _people()
    cup = services.create_tournament(
        actor=owner, club=club, name="Весенний кубок", starts_on=datetime.date(2026, 4, 4), format="swiss",
        swiss_rounds=3, self_registration=True,
    )  # fmt: skip
    asked = services.self_register(actor=people["olga"].user, tournament=cup, partner=people["anna"])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for width, viewport in (("360", PHONE), ("1280", WIDE)):
                # the owner: club page → members → invite by e-mail → a QR code in person
                context, page = _signed_in(browser, live_server, owner, viewport)
                page.goto(f"{live_server.url}/clubs/uspenka/")
                page.locator("a[href='/clubs/uspenka/members/']").click()
                page.fill(
                    "#invite input[name=who]", f"asel-{width}@example.com" if width == "360" else "asel"
                )
                page.locator("#invite button[type=submit]").click()
                expect(page.locator(".messages")).to_contain_text("приглашение")
                assert _overflow(page) <= 0
                page.screenshot(
                    path=screenshots_dir / f"club-members-invitations-{width}.png", full_page=True
                )
                page.locator("#in-person button[type=submit]").click()
                expect(page.locator(".qr-box svg")).to_be_visible()
                assert _overflow(page) <= 0
                page.screenshot(path=screenshots_dir / f"club-invite-in-person-{width}.png", full_page=True)
                context.close()

                # asel: the invitation (sent to her name on the wide run) from her profile, accepted
                if width == "1280":
                    context, page = _signed_in(browser, live_server, people["asel"].user, viewport)
                    page.goto(f"{live_server.url}/")
                    page.locator("#site-menu a[href='/me/']").click()
                    page.locator("#invitations a.list-title").click()
                    expect(page.locator("button[value=accept]")).to_be_visible()
                    assert _overflow(page) <= 0
                    page.screenshot(
                        path=screenshots_dir / f"club-join-invitation-{width}.png", full_page=True
                    )
                    page.locator("button[value=accept]").click()
                    page.wait_for_url(f"{live_server.url}/clubs/uspenka/")
                    assert Membership.objects.filter(club=club, user=people["asel"].user).exists()
                    context.close()

                # anna: asked to be olga's partner; her notifications and the entries page show it
                context, page = _signed_in(browser, live_server, people["anna"].user, viewport)
                page.goto(f"{live_server.url}/")
                menu = page.locator(".menu-toggle")
                if menu.is_visible():
                    menu.click()
                page.locator("#site-menu a[href='/me/notifications/']").click()
                expect(page.locator("#waiting")).to_contain_text("Ольга Ткаченко")
                assert _overflow(page) <= 0
                page.screenshot(path=screenshots_dir / f"notifications-waiting-{width}.png", full_page=True)
                page.locator("#waiting a.list-title").first.click()
                expect(page.locator("#asked")).to_be_visible()
                assert _overflow(page) <= 0
                page.screenshot(path=screenshots_dir / f"entries-asked-partner-{width}.png", full_page=True)
                if width == "1280":
                    page.locator("#asked button", has_text="Принять").click()
                    expect(page.locator(".messages")).to_contain_text("организатор")
                    asked.refresh_from_db()
                    assert asked.status == EntryStatus.PENDING
                context.close()
        finally:
            browser.close()
