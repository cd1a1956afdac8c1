"""The replay's graphs in Chromium: the par graph's current mark follows the keyboard without a
reload, a click on a point of either graph opens its position, and nothing of the deal's future is
drawn. Screenshots at 390x844 and 1280x800 go to var/screenshots/replay-graph-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from archive.services import analysis
from tests.archive.test_analysis import _archive, _short_record
from tests.clubs.factories import PlayerFactory, UserFactory

from .conftest import CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_par_graph_follows_the_keys_and_its_points_open_their_positions(live_server, chromium_path,
                                                                            screenshots_dir):
    players = [PlayerFactory(display_name=n, user=UserFactory(username=n.lower()))
               for n in ("Asel", "Ivan", "Oleh", "Nurlan")]
    match = _archive(players, _short_record(seed=3))
    analysis.analyse_match(match_id=match.pk)
    url = f"{live_server.url}/archive/{match.pk}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}?deal=1&card=0")
        page.evaluate("window.__same = true")  # gone after a reload
        current = page.locator("#rp-pg .rp-pg-current")
        expect(current).to_have_attribute("data-card", "0")
        expect(page.locator("#rp-pg .rp-pg-pt")).to_have_count(1)
        body = page.locator("body")
        for k in range(1, 7):
            body.press("ArrowRight")
            expect(page).to_have_url(f"{url}?deal=1&card={k}")
            expect(current).to_have_attribute("data-card", str(k))
            expect(page.locator("#rp-pg .rp-pg-pt")).to_have_count(k + 1)  # never past the position
        body.press("ArrowDown")  # a trick on: card 8
        expect(current).to_have_attribute("data-card", "8")
        body.press("ArrowLeft")
        expect(current).to_have_attribute("data-card", "7")
        expect(page.locator("#rp-pg .rp-pg-pt")).to_have_count(8)

        page.locator('#rp-pg .rp-pg-pt[data-card="3"]').click()
        expect(page).to_have_url(f"{url}?deal=1&card=3")
        expect(current).to_have_attribute("data-card", "3")
        expect(page.locator(".rp-status")).to_contain_text("Card 3 of 32")
        assert page.evaluate("window.__same") is True  # stepped, not reloaded

        # "Show results" draws the whole deal at once, the mark staying where the position is
        page.locator(".rp-results").click()
        expect(page.locator("#rp-pg .rp-pg-pt")).to_have_count(33)
        expect(current).to_have_attribute("data-card", "3")
        page.locator(".rp-results").click()
        expect(page.locator("#rp-pg .rp-pg-pt")).to_have_count(4)

        page.goto(f"{url}?deal=1&card=20")
        page.locator("#rp-pg").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots_dir / "replay-graph-390.png"), full_page=False)
        page.screenshot(path=str(screenshots_dir / "replay-graph-390-full.png"), full_page=True)
        body.press("End")  # the deal's end: the eye graph shows its eyes
        expect(page.locator("#rp-eg .rp-eg-dot.rp-ns")).to_have_count(1)
        page.locator('#rp-eg .rp-eg-deal[data-deal="1"]').click()
        expect(page).to_have_url(f"{url}?deal=2&card=0")
        expect(page.locator("#rp-eg .rp-eg-current")).to_have_attribute("data-deal", "1")

        wide = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
        wide.on("pageerror", lambda e: errors.append(str(e)))
        wide.goto(f"{url}?deal=1&card=20")
        box = wide.locator("#rp-pg svg").bounding_box()
        assert box is not None and box["width"] > 300 and box["x"] > 640  # in the side panel, its width
        wide.screenshot(path=str(screenshots_dir / "replay-graph-1280.png"), full_page=False)
        wide.screenshot(path=str(screenshots_dir / "replay-graph-1280-full.png"), full_page=True)
        russian = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
        russian.on("pageerror", lambda e: errors.append(str(e)))
        russian.goto(f"{url}?deal=1&card=32")
        expect(russian.locator("#rp-pg .rp-graph-legend")).to_contain_text("карта С–Ю потеряла очки")
        russian.locator("#rp-pg").scroll_into_view_if_needed()
        russian.screenshot(path=str(screenshots_dir / "replay-graph-390-ru-end.png"), full_page=False)
        # without the script, each point is a plain link
        plain = browser.new_context(viewport={"width": 1280, "height": 800},
                                    java_script_enabled=False).new_page()
        plain.goto(f"{url}?deal=1&card=12")
        plain.locator('#rp-pg .rp-pg-pt[data-card="5"]').click()
        expect(plain).to_have_url(f"{url}?deal=1&card=5")
        expect(plain.locator("#rp-pg .rp-pg-current")).to_have_attribute("data-card", "5")
        assert errors == []
        browser.close()


def test_the_eye_graph_of_a_whole_match_grows_deal_by_deal(live_server, chromium_path, screenshots_dir):
    import datetime

    from django.utils import timezone

    from archive import services as archive_services
    from gameplay.engine.positions import Replay
    from gameplay.engine.record import write_record
    from gameplay.engine.rules import Rules
    from gameplay.engine.selfplay import bot_match

    players = [PlayerFactory(display_name=n, user=UserFactory(username=n.lower()))
               for n in ("Asel", "Ivan", "Oleh", "Nurlan")]
    record = write_record(bot_match(Rules(), seed=2))
    replay = Replay.from_record(record)
    seats = [archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk, user_id=p.user_id)
             for i, p in enumerate(players)]
    match = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=seats, rules={}, played_at=timezone.now() - datetime.timedelta(hours=1),
        ns_eyes=replay.score["NS"], ew_eyes=replay.score["EW"], winner=replay.winner, record=record))
    deals = len(replay.deals)
    assert deals >= 4
    url = f"{live_server.url}/archive/{match.pk}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}?deal=3&card=0")
        dots = page.locator("#rp-eg .rp-eg-dot.rp-ns")
        expect(dots).to_have_count(2)  # the two deals before
        expect(page.locator("#rp-pg")).to_contain_text("No par graph yet")
        page.locator("body").press("PageDown")
        expect(page).to_have_url(f"{url}?deal=4&card=0")
        expect(dots).to_have_count(3 + (replay.deals[3].plays == 0))
        page.locator("body").press("End")
        expect(dots).to_have_count(4)
        page.locator(".rp-results").click()  # every deal, and the match's score
        expect(dots).to_have_count(deals)
        expect(page.locator(".big-score [data-rp-match]")).to_have_text(
            f"{replay.score['NS']} : {replay.score['EW']}")
        page.locator("#rp-eg").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots_dir / "replay-graph-eyes-1280.png"), full_page=False)
        assert errors == []
        browser.close()
