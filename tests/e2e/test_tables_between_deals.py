"""The live table between deals and at the end, in Chromium at 360 px: the summary of the deal just
played beside the next deal's first question, the redeal notice gone once the new deal is played,
each seat's suit explained in words, and a finished match drawn without an empty gap.

Four people sit at the table (no bots, so nothing moves unless the test moves); the test plays the
first deal through the services and watches one player's page.
"""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from gameplay import services
from gameplay.engine.cards import SEATS
from gameplay.models import Seat, Seating, Table
from tests.gameplay.tables.tables_helpers import legal_strings

from .conftest import CHROMIUM_ARGS, PHONE
from .test_tables_play import asgi_server  # noqa: F401 - the Daphne fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def move_in_thread(table_id: int, action: str | None = None, rng: random.Random | None = None) -> None:
    """`move` in a thread of its own: Playwright's event loop runs in the test's thread, where the
    services' on-commit broadcast to the page could not be sent."""
    def run() -> None:
        try:
            move(table_id, action, rng)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(run).result()


def move(table_id: int, action: str | None = None, rng: random.Random | None = None) -> None:
    """One move of the seat to move: `action`, or a pass in a redeal question, else a random card."""
    table = Table.objects.get(pk=table_id)
    state = services.load_state(table)
    legal = legal_strings(state)
    if action is None:
        action = "pass" if "pass" in legal else (rng or random).choice([a for a in legal if a != "redeal"])
    outcome = services.play(table_id=table_id, seat=state.to_move, action=action,
                            expected_event=table.event_seq)
    assert outcome.ok, outcome.message


def played(table_id: int) -> list:
    state = services.load_state(Table.objects.get(pk=table_id))
    return [d for d in state.deals if d.outcome not in (None, "redeal")]


def biggest_gap(page) -> float:
    """The largest empty vertical space between two blocks of the table one above the other."""
    return page.evaluate("""() => {
        const boxes = [...document.querySelectorAll('#bilka-table > *')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)
            .map(e => e.getBoundingClientRect());
        let gap = 0;
        for (let i = 1; i < boxes.length; i++) gap = Math.max(gap, boxes[i].top - boxes[i - 1].bottom);
        return gap;
    }""")


def test_between_deals_the_summary_sits_beside_the_first_question(asgi_server, chromium_path,  # noqa: F811
                                                                 screenshots_dir):
    users = [get_user_model().objects.create_user(username=f"igrok{i}", password="x-secret-1")
             for i in range(4)]
    # every hand under 30 points may ask for a redeal: the new deal's first question is a redeal one
    table = services.create_table(rules={"redeal_below": 30}, seating=Seating.IN_ORDER, user=users[0])
    # fixed deals (seed and client seeds set before the start): with the OS's seeds the first deal
    # was a match-winning Lucy about one time in fifty
    Table.objects.filter(pk=table.pk).update(shuffle_seed="3c" * 32)
    Seat.objects.filter(table=table).update(client_seed="fixed N")
    for letter, user in zip("ESW", users[1:], strict=True):
        services.sit(table_id=table.pk, user=user, client_seed=f"fixed {letter}")
    rng = random.Random(7)
    for _ in range(12):  # play deals until a new deal's question has a hand that may ask for a redeal
        finished = len(played(table.pk))
        while len(played(table.pk)) == finished:
            move(table.pk, rng=rng)
        state = services.load_state(Table.objects.get(pk=table.pk))
        if state.phase.name == "OVER" or any(state.may_redeal(s) for s in state.redeal_pending):
            break
    state = services.load_state(Table.objects.get(pk=table.pk))
    assert state.phase.name == "REDEAL"
    asker = next(s for s in state.redeal_pending if state.may_redeal(s))
    number, last = [(i + 1, d) for i, d in enumerate(state.deals) if d.outcome not in (None, "redeal")][-1]
    pair = "С–Ю" if last.pair_on_duty == 0 else "В–З"  # NS and EW as a Russian reader writes them

    client = Client()
    client.force_login(users[asker])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, locale="ru-RU")
        host = asgi_server.split("//")[1].split(":")[0]
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                              "domain": host, "path": "/"}])
        page = context.new_page()
        console = []
        page.on("console", lambda m: console.append(m.text))
        try:
            page.goto(f"{asgi_server}/tables/{table.pk}/")
            summary = page.locator(".bt-between")
            # the summary and the first question, with its clock running, at the same time
            expect(summary).to_be_visible()
            expect(page.locator(".bt-decide [data-action=redeal]")).to_be_visible()
            expect(page.locator(".bt-clock")).to_have_text(re.compile(r"\d"))
            # the hand the question is about, and the answer's buttons, on the first screen of a phone
            page.set_viewport_size({"width": 390, "height": 844})
            for shown in (".bt-hand .bt-card >> nth=-1", ".bt-decide [data-action=pass]"):
                box = page.locator(shown).bounding_box()
                assert box and box["y"] + box["height"] <= 844, (shown, box)
            page.set_viewport_size(PHONE)
            expect(summary).to_contain_text(f"Раздача {number} окончена")
            expect(summary.locator(".bt-sum-points")).to_have_text(
                f"Очки: С–Ю {last.points[0]} · В–З {last.points[1]}")
            expect(summary.locator(".bt-sum-duty")).to_have_text(f"На обязанности: {pair}")
            expect(summary.locator(".bt-sum-eyes")).to_have_text(
                f"Открыто глаз: С–Ю +{last.eyes[0]} · В–З +{last.eyes[1]}")
            expect(summary.locator(".bt-sum-score")).to_have_text(
                f"Счёт: С–Ю {last.score_after[0]} : В–З {last.score_after[1]}")
            # each seat's suit in words, and what it means, on a phone (not only on hover)
            suit = {"C": "трефы", "D": "бубны", "H": "черви", "S": "пики"}
            for seat in range(4):
                meta = page.locator(f'.bt-seat[data-seat="{SEATS[seat]}"] .bt-meta')
                expect(meta).to_contain_text(suit["CDHS"[state.suit_of_seat[seat]]])
                expect(meta).to_contain_text("СВЮЗ"[seat])  # the seat's letter in Russian, not N/E/S/W
            expect(page.locator(".bt-legend")).to_be_visible()
            expect(page.locator(".bt-legend")).to_contain_text("валет треф")
            page.screenshot(path=screenshots_dir / "table-between-deals.png", full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=screenshots_dir / "table-between-deals-1280.png", full_page=True)
            page.set_viewport_size(PHONE)

            page.locator(".bt-decide [data-action=redeal]").click()
            name = users[asker].username
            expect(summary.locator(".bt-redealt")).to_have_text(re.compile(f"{name}.*просит пересдачу"))
            page.screenshot(path=screenshots_dir / "table-redeal-asked.png", full_page=True)
            # the new deal starts: its first card takes the summary and the redeal notice away
            while services.load_state(Table.objects.get(pk=table.pk)).phase.name == "REDEAL":
                move_in_thread(table.pk, "pass")
            move_in_thread(table.pk, rng=rng)
            expect(summary).to_be_hidden()
            expect(page.get_by_text(re.compile("просит пересдачу"))).to_have_count(0)

            page.once("dialog", lambda dialog: dialog.accept())
            page.locator(".bt-resign").click()
            expect(page.locator(".bt-result")).to_be_visible()
            # the running match's "finished deals" replay link gives way to the match's own
            expect(page.locator("#table-replay")).to_be_hidden()
            for width in (360, 1280):
                page.set_viewport_size({"width": width, "height": 800})
                page.wait_for_timeout(200)
                assert biggest_gap(page) <= 16, f"an empty gap at {width} px"
                page.screenshot(path=screenshots_dir / f"table-finished-{width}.png", full_page=True)
            page.reload()
            expect(page.locator(".bt-result")).to_be_visible()
            assert biggest_gap(page) <= 16, "an empty gap after a reload"
            assert not [c for c in console if "vibrate" in c], console  # the turn alert waits for a tap
        finally:
            context.close()
            browser.close()
