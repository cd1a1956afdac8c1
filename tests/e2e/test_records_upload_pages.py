"""Records in, in a browser on a phone and on a wide screen: the archive's upload page with its list
of saved and refused records, and a tournament match's record at its confirm step; neither page
scrolls sideways. Screenshots go to /work/shots/upload-*.png (or var/screenshots)."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from gameplay.engine import Rules, write_record
from gameplay.engine.selfplay import bot_match
from tests.archive.test_archive_upload import _other_game
from tournaments import services

from .conftest import CHROMIUM_ARGS, PHONE, SCREENSHOTS, club_event, sideways_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}
NAMES = ["Асель Жумабекова", "Олег Коваленко", "Иван Петров", "Нурлан Сейткали",
         "Дана Ержанова", "Ерлан Абенов", "Гульнар Исина", "Марат Бекенов"]


def _shots() -> Path:
    place = Path("/work/shots") if Path("/work/shots").is_dir() else SCREENSHOTS
    place.mkdir(parents=True, exist_ok=True)
    return place


def _setup():
    event, organiser, _pairs = club_event(NAMES, name="Кубок Успенки", starts_on=datetime.date(2026, 11, 7),
                                          format="swiss", swiss_rounds=3)
    match = services.pair_next_round(actor=organiser, tournament=event).matches.get(table=1)
    return organiser, event, match


def _overflow(page) -> int:
    return sideways_overflow(page)


def test_the_upload_and_confirm_pages_fit_a_phone_and_a_wide_screen(live_server, chromium_path, tmp_path):
    organiser, event, match = _setup()
    h, a = match.home, match.away
    seats = {"N": h.player_a, "E": a.player_a, "S": h.player_b, "W": a.player_b}
    tournament_record = write_record(bot_match(Rules.from_json(event.rules), seed=31,
                                               players={k: p.display_name for k, p in seats.items()}))
    client = Client()
    client.force_login(organiser)
    host = live_server.url.split("//")[1].split(":")[0]
    shots = _shots()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            for width, viewport in (("360", PHONE), ("1280", WIDE)):
                context = browser.new_context(viewport=viewport, locale="ru-RU")
                context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                      "domain": host, "path": "/"}])
                page = context.new_page()
                page.goto(f"{live_server.url}/archive/upload/")
                assert _overflow(page) <= 0
                page.screenshot(path=shots / f"upload-archive-{width}.png", full_page=True)
                files = []
                for n in range(2):  # a match of Bilka and one of Bilka for two
                    path = tmp_path / f"match-{width}-{n}.json"
                    rec = write_record(bot_match(seed=int(width), players={
                        "N": NAMES[0], "E": NAMES[2], "S": NAMES[1], "W": "Гость"})) if n == 0 else \
                        _other_game("bilka-2", int(width), {"N": NAMES[0], "S": NAMES[1]})
                    path.write_text(json.dumps(rec), encoding="utf-8")
                    files.append(str(path))
                broken = tmp_path / f"broken-{width}.json"
                broken.write_text('{"format": "bilka-record/1", "deals": [', encoding="utf-8")
                page.set_input_files("input[name=files]", [*files, str(broken)])
                page.locator("#upload-submit").click()
                expect(page.locator("#upload-summary")).to_contain_text("2")
                expect(page.locator(".upload-refused")).to_have_count(1)
                assert _overflow(page) <= 0
                page.screenshot(path=shots / f"upload-archive-result-{width}.png", full_page=True)
                # the match of Bilka for two opens as its game: two players, no pairs
                page.locator(".upload-saved a").nth(1).click()
                page.wait_for_url("**/archive/*/")
                expect(page.locator("body")).to_contain_text(NAMES[1])
                assert _overflow(page) <= 0
                page.screenshot(path=shots / f"upload-archive-bilka2-{width}.png", full_page=True)

                page.goto(f"{live_server.url}/t/{event.slug}/matches/{match.pk}/record/")
                record_file = tmp_path / f"tournament-{width}.json"
                record_file.write_text(json.dumps(tournament_record, ensure_ascii=False), encoding="utf-8")
                page.set_input_files("#record-file", str(record_file))
                page.locator("#record-upload-submit").click()
                expect(page.locator("#record-confirm")).to_be_visible()
                expect(page.locator("#chair-N")).to_have_value(str(seats["N"].pk))
                assert _overflow(page) <= 0
                page.screenshot(path=shots / f"upload-attach-confirm-{width}.png", full_page=True)
                if width == "1280":
                    page.locator("#record-confirm-submit").click()
                    page.wait_for_url(f"**/matches/{match.pk}/")
                    page.screenshot(path=shots / f"upload-attach-done-{width}.png", full_page=True)
                context.close()
        finally:
            browser.close()
    assert os.path.exists(shots / "upload-attach-confirm-360.png")
