"""A tournament's live standings on two server processes (tests/processes.py): spectators of the
tournament socket `/ws/tournament/<id>/` on both processes, each a page that behaves as
static/tournaments/live.js does (on a `changed` frame newer than the last, fetch the page again
with `X-Live-Refresh` from the process it came from), see every result in the order it was entered,
whichever process (or a third, this test's, through the service) entered it.

Two visitors and a signed-in member watch on each process: visitors may be answered from the
copies the processes keep (config/visitors.py, config/fresh.py), so a copy kept before a result,
in either process, must never be what a page gets after the result's frame. The results: round 1
through a page of the first process and through the service, round 2 paired through a page of the
second, then its two results entered at once on both processes.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import secrets
import threading

import pytest
import requests
from django.conf import settings
from django.db import connections
from django.test import Client
from websockets.asyncio.client import connect

from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import register_pairs

pytestmark = pytest.mark.django_db(transaction=True)

FORM_TOKEN = secrets.token_hex(16)
ROW_RE = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
CELL_RE = re.compile(r"<t[dh](?:\s[^>]*)?>(.*?)</t[dh]>", re.S)
TAG_RE = re.compile(r"<[^>]+>")


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _played(html: str) -> int:
    """How many results the standings in a page's live part count: the sum of its "played" column."""
    live = html[html.index('id="t-live"'):]
    table = live[live.index("<table"):live.index("</table>")]
    head, _, body = table.partition("</thead>")
    heads = [TAG_RE.sub("", c).strip() for c in CELL_RE.findall(head)]
    column = heads.index("P")  # the "played" column's short head (standings_columns)
    rows = [[TAG_RE.sub("", c).strip() for c in CELL_RE.findall(row)] for row in ROW_RE.findall(body)]
    return sum(int(row[column]) for row in rows) // 2


class LivePage:
    """The standings page in a browser, refreshed as live.js refreshes it; every count it showed."""

    def __init__(self, label: str, server: str, slug: str, tournament_id: int, session: str | None) -> None:
        self.label, self.server = label, server
        self.url = f"{server}/t/{slug}/standings/"
        self.socket = f"{server.replace('http://', 'ws://')}/ws/tournament/{tournament_id}/"
        self.cookies = {settings.SESSION_COOKIE_NAME: session} if session else {}
        self.version = 0
        self.frames: list[int] = []  # the versions, as they came
        self.shown: list[int] = []  # the results the page showed after each refresh
        self.busy = self.again = False
        self.changed = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        self.shown.append(_played(await self._fetch(live=False)))
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        async with connect(self.socket, origin=self.server, additional_headers=headers, proxy=None,
                           open_timeout=60) as ws:
            self.connected = True
            while not stop.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if frame.get("type") != "changed":
                    continue
                self.frames.append(frame["version"])
                if frame["version"] > self.version:
                    self.version = frame["version"]
                    asyncio.get_running_loop().call_later(0.15, self._refresh)  # live.js's soon()

    def _refresh(self) -> None:
        if self.busy:
            self.again = True
            return
        self.busy = True
        asyncio.get_running_loop().create_task(self._refreshing())

    async def _refreshing(self) -> None:
        try:
            self.shown.append(_played(await self._fetch(live=True)))
            self.changed.set()
        finally:
            self.busy = False
            if self.again:
                self.again = False
                self._refresh()

    async def _fetch(self, *, live: bool) -> str:
        headers = {"Accept-Language": "en", **({"X-Live-Refresh": "1"} if live else {})}
        answer = await asyncio.to_thread(requests.get, self.url, headers=headers, cookies=self.cookies,
                                         timeout=120)
        assert answer.status_code == 200, (self.label, answer.status_code)
        return answer.text


def _in_thread(action) -> None:
    try:
        action()
    finally:
        connections.close_all()  # this thread's own, before the test database is flushed


def _post(server: str, path: str, session: str, data: dict) -> None:
    answer = requests.post(f"{server}{path}", data={"csrfmiddlewaretoken": FORM_TOKEN, **data},
                           cookies={settings.SESSION_COOKIE_NAME: session, "csrftoken": FORM_TOKEN},
                           allow_redirects=False, timeout=120)
    assert answer.status_code in (200, 302), answer.text[:500]


def _final(server: str, page: str, session: str, home: int, away: int) -> None:
    """The organiser enters a match's final score on its page."""
    _post(server, page, session,
          {"action": "final", "final-home_eyes": str(home), "final-away_eyes": str(away)})


def test_live_standings_on_two_processes(site_processes, settings, club, organiser, member):
    site = site_processes(servers=2)
    settings.CACHES = site.cache_settings()  # the service below renews the pages the processes keep
    cup = services.create_tournament(actor=organiser, club=club, name="Кубок двух процессов",
                                     format="swiss", swiss_rounds=2, seeding="manual")
    register_pairs(cup, organiser, 4)
    first_round = services.pair_next_round(actor=organiser, tournament=cup)
    table1, table2 = (first_round.matches.get(table=n) for n in (1, 2))
    boss, watcher = _session(organiser), _session(member)
    a, b = site.url(0), site.url(1)

    async def scenario() -> list[LivePage]:
        pages = [LivePage(f"{who}@{where}", server, cup.slug, cup.pk, session)
                 for where, server in (("A", a), ("B", b))
                 for who, session in (("visitor1", None), ("visitor2", None), ("member", watcher))]
        stop = asyncio.Event()
        watching = [asyncio.create_task(page.run(stop)) for page in pages]
        while not all(getattr(page, "connected", False) for page in pages):
            await asyncio.sleep(0.05)

        async def step(count: int, action) -> None:
            """Do `action` (in a thread: it may use the database), then wait until every page, on
            both processes, has refreshed since and shows `count` results."""
            refreshed = [len(page.shown) for page in pages]
            await asyncio.to_thread(_in_thread, action)
            for page, before in zip(pages, refreshed, strict=True):
                while len(page.shown) == before or page.shown[-1] != count:
                    page.changed.clear()
                    try:
                        await asyncio.wait_for(page.changed.wait(), 240)
                    except TimeoutError:
                        raise AssertionError(f"{page.label} shows {page.shown}, never {count}") from None

        await step(1, lambda: _final(a, table1.get_absolute_url(), boss, 12, 7))
        await step(2, lambda: services.enter_result(actor=organiser, match=table2, home_eyes=5, away_eyes=12))
        await step(2, lambda: _post(b, f"/t/{cup.slug}/pair/", boss, {}))

        def both_at_once() -> None:
            second = Match.objects.filter(tournament=cup, round__number=2, bye=False).order_by("table")
            urls = [match.get_absolute_url() for match in second]  # read here: the threads use no database
            threads = [threading.Thread(target=_final, args=(server, page, boss, 12, 3))
                       for server, page in zip((a, b), urls, strict=True)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        await step(4, both_at_once)
        stop.set()
        await asyncio.gather(*watching)
        return pages

    pages = asyncio.run(scenario())
    assert Match.objects.filter(tournament=cup, status=MatchStatus.CONFIRMED).count() == 4
    for page in pages:  # in order: a page never went back to fewer results than it had shown
        assert page.shown == sorted(page.shown), (page.label, page.shown)
        assert page.frames, page.label
    print({page.label: {"shown": page.shown, "frames": len(page.frames),
                        "out of order": sum(1 for x, y in itertools.pairwise(page.frames) if y < x)}
           for page in pages})
