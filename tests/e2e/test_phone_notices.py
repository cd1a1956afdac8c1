"""In Chromium: a score sheet's QR link fills the PIN from the address's fragment and takes it out
of the address; the site's service worker shows a pushed notice (delivered through the DevTools
protocol, as a push service would deliver it) with its title, text and page; the "Notify me on this
phone" button answers in the reader's language when no push service can be reached (none is here)."""

import json

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from tests.tournaments.conftest import player_with_account
from tests.tournaments.day.conftest import swiss_with_accounts
from tournaments import services

from .conftest import CHROMIUM_ARGS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def reported(club, organiser):
    """Table 1 of a Swiss round, its result reported by the home pair: the away pair confirms with its PIN."""
    t = swiss_with_accounts(club, organiser, 4, name="Кубок", auto_pair=False)
    match = services.pair_next_round(actor=organiser, tournament=t).matches.get(table=1)
    return services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=7)


def _signed_in(context, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])


def test_the_pin_in_the_fragment_fills_the_box_and_leaves_the_address(live_server, chromium_path, reported):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
        try:
            page.goto(f"{live_server.url}{reported.get_absolute_url()}#pin={reported.away_pin}")
            expect(page.locator("#id_pin")).to_have_value(reported.away_pin)
            expect(page.locator("#dispute_pin")).to_have_value(reported.away_pin)  # the dispute form's too
            assert page.evaluate("location.hash") == "" and "pin" not in page.url
            page.reload()  # the tab keeps it, the address does not
            expect(page.locator("#id_pin")).to_have_value(reported.away_pin)
            assert "pin" not in page.url
            page.get_by_role("button", name="Подтвердить").click()
            expect(page.locator("#confirm")).to_have_count(0)
        finally:
            browser.close()
    reported.refresh_from_db()
    assert reported.status == "confirmed" and reported.confirmed_how == "pin"


def test_the_service_worker_shows_a_pushed_notice(live_server, chromium_path, club):
    user = player_with_account(club, "nurlan").user
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        context.grant_permissions(["notifications"], origin=live_server.url)
        _signed_in(context, live_server, user)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/me/notifications/")
            cdp = context.new_cdp_session(page)
            registrations = []
            cdp.on(
                "ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"])
            )
            cdp.send("ServiceWorker.enable")
            scope = page.evaluate(
                "async () => { const r = await navigator.serviceWorker.register('/sw.js', {scope: '/'});"
                " await navigator.serviceWorker.ready; return r.scope; }"
            )
            assert scope == f"{live_server.url}/"
            found = [r for r in registrations if r["scopeURL"] == scope and not r.get("isDeleted")]
            assert found, registrations
            notice = {
                "title": "Кубок",
                "body": "Кубок, тур 3: стол 7, С–Ю, против X & Y.",
                "url": "/t/cup/",
                "tag": "notice-1",
            }
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": live_server.url,
                    "registrationId": found[0]["registrationId"],
                    "data": json.dumps(notice),
                },
            )
            shown = page.wait_for_function(
                "async () => { const r = await navigator.serviceWorker.ready;"
                " const n = await r.getNotifications();"
                " if (!n.length) return null;"
                " return {title: n[0].title, body: n[0].body, tag: n[0].tag, url: n[0].data.url}; }"
            ).json_value()
            assert shown == {
                "title": "Кубок",
                "body": notice["body"],
                "tag": "notice-1",
                "url": f"{live_server.url}/t/cup/",
            }
        finally:
            browser.close()


def test_the_button_answers_in_the_readers_language_without_a_push_service(live_server, chromium_path, club):
    user = player_with_account(club, "timur").user
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport=PHONE, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}
        )
        context.grant_permissions(["notifications"], origin=live_server.url)
        _signed_in(context, live_server, user)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/me/notifications/")
            page.get_by_role("button", name="Уведомлять меня на этом телефоне").click()
            status = page.locator("[data-push-status]")
            expect(status).not_to_be_empty()
            text = status.text_content()
            assert text in (
                "Не удалось подключить уведомления на этом телефоне; попробуйте снова.",
                "Уведомления будут приходить на этот телефон.",
            ), text
        finally:
            browser.close()
