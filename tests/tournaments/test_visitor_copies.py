"""Visitors' copies of the public pages, answered in front of Django (config/visitors.py): the next
visitor asking the same gets Django's answer again without Django, with his own form token and
cookie, the same headers, in his language, and never a page older than the last commit; signed-in
people and callers with a key always go through Django."""

from __future__ import annotations

import datetime
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db import transaction
from django.test import Client

from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import register_pairs

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]*)"')


@pytest.fixture
def swiss(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Копия швейцарки",
                                   starts_on=datetime.date(2026, 12, 3), format="swiss", swiss_rounds=3)
    register_pairs(t, organiser, 4, prefix="Копийный")
    services.pair_next_round(actor=organiser, tournament=t)
    return t


@pytest.fixture
def site():
    """The server's application, its copies emptied; and how many requests reached Django."""
    from config.asgi import application

    handler = application.application_mapping["http"]
    handler.visitor_copies.clear()
    reached: list[int] = []

    def started(**kwargs):
        reached.append(1)

    request_started.connect(started, weak=False)
    yield handler, reached
    request_started.disconnect(started)
    handler.load_middleware(is_async=True)
    handler.visitor_copies.clear()


def fetch(path: str, *headers: tuple[bytes, bytes], method: str = "GET") -> dict:
    from config.asgi import application

    communicator = HttpCommunicator(application, method, path, headers=[(b"host", b"127.0.0.1"), *headers])
    answer = async_to_sync(communicator.get_response)(timeout=30)
    answer["header"] = {}
    for name, value in answer["headers"]:
        answer["header"].setdefault(name.decode().lower(), []).append(value.decode("latin1"))
    return answer


def _open_match(t):
    return Match.objects.filter(round__tournament=t, status=MatchStatus.SCHEDULED).order_by("table").first()


def _played(api_answer: dict) -> int:
    import json

    return sum(line["played"] for line in json.loads(api_answer["body"])["lines"])


def test_the_next_visitor_gets_django_s_answer_without_django(swiss, site):
    _, reached = site
    url = f"/t/{swiss.slug}/standings/"
    first = fetch(url)
    assert first["status"] == 200 and len(reached) == 1
    second = fetch(url)
    assert second["status"] == 200 and len(reached) == 1  # answered in front of Django
    assert TOKEN.sub(b"", second["body"]) == TOKEN.sub(b"", first["body"])
    api = f"/api/v1/tournaments/{swiss.slug}/standings/"
    assert fetch(api)["status"] == 200 and len(reached) == 2
    assert fetch(api)["body"] == fetch(api)["body"] and len(reached) == 2


def test_its_headers_are_django_s(swiss, site, settings):
    """Every header Django's middleware sets (CSP, HSTS, nosniff, frame options, Vary, language)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # as in production
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_CONTENT_TYPE_NOSNIFF = True
    settings.X_FRAME_OPTIONS = "DENY"
    handler, reached = site
    handler.load_middleware(is_async=True)  # the middleware reads these when it is built
    for number, url in enumerate((f"/t/{swiss.slug}/", f"/api/v1/tournaments/{swiss.slug}/standings/"), 1):
        django, copy = (fetch(url, (b"accept-language", b"kk"), (b"x-forwarded-proto", b"https"))
                        for _ in range(2))
        assert len(reached) == number  # the copy's answer did not reach Django
        assert django["header"]["strict-transport-security"] == ["max-age=3600"]
        assert "content-security-policy" in django["header"]
        assert django["header"]["content-language"] == ["kk"]
        for answer in (django, copy):
            answer["header"].pop("set-cookie", None)  # the visitor's own: tested below
        assert copy["header"] == django["header"]


def test_a_visitor_gets_a_form_token_and_cookie_of_his_own(swiss, site):
    """The language form on a copy works for him: with a cookie he has, and with the new one he gets."""
    _, reached = site
    url = f"/t/{swiss.slug}/standings/"
    fetch(url)
    client = Client(enforce_csrf_checks=True)
    new = fetch(url)
    assert len(reached) == 1
    cookie = new["header"]["set-cookie"][0]
    secret = re.match(r"csrftoken=([A-Za-z0-9]+);", cookie).group(1)
    assert "Max-Age=" in cookie and "SameSite=Lax" in cookie
    client.cookies["csrftoken"] = secret
    token = TOKEN.search(new["body"]).group(1).decode()
    assert client.post("/i18n/setlang/", {"language": "kk", "next": "/",
                                          "csrfmiddlewaretoken": token}).status_code == 302
    again = fetch(url, (b"cookie", f"csrftoken={secret}".encode()))
    assert len(reached) == 2  # the form's post, not the page
    assert f"csrftoken={secret};" in again["header"]["set-cookie"][0]
    other_token = TOKEN.search(again["body"]).group(1).decode()
    assert other_token != token
    assert client.post("/i18n/setlang/", {"language": "kk", "next": "/",
                                          "csrfmiddlewaretoken": other_token}).status_code == 302
    stranger = fetch(url)  # another visitor, no cookie: a secret of his own
    assert secret not in stranger["header"]["set-cookie"][0]


def test_languages_are_not_mixed(swiss, site):
    url = f"/t/{swiss.slug}/standings/"
    asks = {
        "en": [(b"accept-language", b"en")],
        "kk": [(b"accept-language", b"kk,ru;q=0.8")],
        "uk": [(b"accept-language", b"en"), (b"cookie", b"django_language=uk")],
        "ru": [],
    }
    for _ in range(2):  # Django's answers, then the copies
        for language, headers in asks.items():
            answer = fetch(url, *headers)
            assert answer["header"]["content-language"] == [language]
            assert f'<html lang="{language}"'.encode() in answer["body"]


def test_signed_in_people_never_get_a_visitor_s_copy(swiss, site, organiser):
    _, reached = site
    url = f"/t/{swiss.slug}/"
    visitor = fetch(url, (b"accept-language", b"en"))
    fetch(url, (b"accept-language", b"en"))
    client = Client()
    client.force_login(organiser)
    session = client.cookies["sessionid"].value
    mine = fetch(url, (b"accept-language", b"en"), (b"cookie", f"sessionid={session}".encode()))
    assert len(reached) == 2
    # the page's own stylesheet (config/inline_css.py) names .organiser classes: read the rest
    unstyled = [re.sub(rb"<style>.*?</style>", b"", answer["body"], flags=re.S) for answer in (mine, visitor)]
    assert organiser.username.encode() in unstyled[0]
    assert organiser.username.encode() not in unstyled[1]


def test_a_confirmed_result_is_on_the_next_visitor_s_page_and_api(swiss, site, organiser):
    page, api = f"/t/{swiss.slug}/standings/", f"/api/v1/tournaments/{swiss.slug}/standings/"
    before = fetch(page)["body"]
    fetch(page)
    assert _played(fetch(api)) == _played(fetch(api)) == 0
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)  # commits
    assert _played(fetch(api)) == 2
    assert TOKEN.sub(b"", fetch(page)["body"]) != TOKEN.sub(b"", before)


def test_a_write_rolled_back_does_not_change_them(swiss, site, organiser):
    page, api = f"/t/{swiss.slug}/standings/", f"/api/v1/tournaments/{swiss.slug}/standings/"
    before_page, before_api = TOKEN.sub(b"", fetch(page)["body"]), fetch(api)["body"]
    with pytest.raises(RuntimeError), transaction.atomic():
        services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)
        raise RuntimeError
    assert TOKEN.sub(b"", fetch(page)["body"]) == before_page
    assert fetch(api)["body"] == before_api


def test_the_api_allowance_counts_the_copies(swiss, site, settings):
    from rest_framework.settings import api_settings

    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "address": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    api = f"/api/v1/tournaments/{swiss.slug}/standings/"
    assert [fetch(api)["status"] for _ in range(4)] == [200, 200, 200, 429]


def test_head_and_callers_with_a_key_go_through_django(swiss, site):
    _, reached = site
    url = f"/t/{swiss.slug}/standings/"
    fetch(url)
    head = fetch(url, method="HEAD")
    assert head["status"] == 200
    keyed = fetch(f"/api/v1/tournaments/{swiss.slug}/standings/", (b"authorization", b"Bearer nonsense"))
    assert keyed["status"] == 401
    assert len(reached) == 3


def test_a_copy_worked_out_at_versions_since_moved_does_not_hold_up_the_one_now():
    """A reader during a writer's transaction goes to Django at the versions the change renewed;
    the commit renews them again. The next reader goes to Django at once for the versions now
    instead of getting the old copy until the first is done (a result then took two page
    computations to show); the first one ending does not free the second one's turn."""
    from config.visitors import Copy, VisitorCopies

    now = ["during the transaction"]
    copies = VisitorCopies()
    copy = Copy(stamp="before", current=lambda: now[0], status=200, headers=[], parts=[b"old page"],
                throttles=(), size=8)
    key = ("/t/x/standings/",)
    copies._copies[key] = copy

    def ask():
        return copies._checked(key, copy, None, {})

    answer, first = ask()
    assert answer is None and first == (copy, "during the transaction")  # works it out in Django
    answer, turn = ask()
    assert answer is not None and answer[2].endswith(b"old page") and turn is None  # waits: the old copy
    now[0] = "after the commit"
    answer, second = ask()
    assert answer is None and second == (copy, "after the commit")
    copies.done(first)
    answer, turn = ask()
    assert answer is not None and turn is None  # the second is still working it out
    copies.done(second)
    answer, third = ask()
    assert answer is None and third == (copy, "after the commit")


def test_a_copy_being_worked_out_since_the_result_covers_a_move_of_the_ratings_only():
    """The worker learns the ratings from a result 25-50 ms after it and moves every page's epoch.
    The request already working the page out at the result's version shows the result: the next
    reader gets the copy until it is kept, instead of working the page out a second time beside
    it (which made both, and the result's appearance, twice as slow); after it, one does."""
    from config import fresh
    from config.visitors import Copy, VisitorCopies

    now = ["e0.v1"]
    copies = VisitorCopies()
    copy = Copy(stamp="e0.v0", current=lambda: now[0], status=200, headers=[], parts=[b"before the result"],
                throttles=(), size=17, covers=fresh.covers)
    key = ("/t/x/standings/",)
    copies._copies[key] = copy

    def ask():
        return copies._checked(key, copy, None, {})

    answer, first = ask()
    assert answer is None and first == (copy, "e0.v1")
    now[0] = "e1.v1"  # the ratings learnt
    answer, turn = ask()
    assert answer is not None and turn is None  # the one working it out shows the result
    now[0] = "e1.v2"  # another result
    answer, second = ask()
    assert answer is None and second == (copy, "e1.v2")  # not covered: worked out at once
    copies.done(first)
    copies.done(second)
    now[0] = "e2.v2"
    answer, third = ask()
    assert answer is None and third == (copy, "e2.v2")  # no one works it out now: this one does


def test_a_live_refresh_waits_for_the_page_being_worked_out_never_the_one_before():
    """A live page fetches itself once after a change's frame (static/tournaments/live.js, with
    ``X-Live-Refresh``). Given the copy from before the change while another request worked the
    page out again, it showed the standings without the result until the next change (two
    spectators on one process, tests/tournaments/test_live_standings_two_processes.py). It waits
    for that request instead, and gets the page it kept."""
    import asyncio

    from config.visitors import Copy, VisitorCopies, _request_key

    scope = {"type": "http", "method": "GET", "scheme": "http", "root_path": "", "path": "/t/x/standings/",
             "query_string": b"", "headers": [(b"host", b"127.0.0.1"), (b"x-live-refresh", b"1")]}
    key = _request_key(scope)[0]
    now = ["after the result"]
    copies = VisitorCopies()
    copies._copies[key] = Copy(stamp="before the result", current=lambda: now[0], status=200, headers=[],
                               parts=[b"the page before the result"], throttles=(), size=26)

    async def two_spectators() -> bytes:
        answer, first = await copies.answer(scope)
        assert answer is None and first is not None  # the first works it out in Django
        second = asyncio.create_task(copies.answer(scope))
        await asyncio.sleep(0.3)
        assert not second.done()  # not the copy from before the result
        copies._copies[key] = Copy(stamp="after the result", current=lambda: now[0], status=200, headers=[],
                                   parts=[b"the page with the result"], throttles=(), size=24)  # kept
        copies.done(first)
        answer, turn = await asyncio.wait_for(second, 30)
        assert turn is None
        return answer[2]

    assert asyncio.run(two_spectators()) == b"the page with the result"


def test_a_live_refresh_gets_the_page_another_process_is_working_out(swiss, site, monkeypatch):
    """Past the copies, in Django: while another process works a moved page out, a visitor gets the
    last one (``config.fresh``); a live page's refresh waits for the new one."""
    import threading
    import time
    import types

    from config import fresh

    url = f"/t/{swiss.slug}/standings/"
    fetch(url, (b"accept-language", b"en"))  # kept
    fresh.renew(slug=swiss.slug)  # a change committed
    started, release = threading.Event(), threading.Event()

    def elsewhere():  # the other process: the kept value's own name and parts
        def slow():
            started.set()
            assert release.wait(60)
            return ("text/html; charset=utf-8", b"<p>worked out elsewhere</p>"), True

        fresh.cached("standings", swiss.slug, slow, url, "en", False)

    def waiting(seconds: float) -> None:  # the live refresh's pause while the other works it out
        release.set()
        time.sleep(seconds)

    monkeypatch.setattr(fresh, "time", types.SimpleNamespace(time=time.time, monotonic=time.monotonic,
                                                             sleep=waiting))
    other = threading.Thread(target=elsewhere)
    other.start()
    assert started.wait(60)
    try:
        visitor = fetch(url, (b"accept-language", b"en"), (b"cookie", b"other=1"))
        assert b"worked out elsewhere" not in visitor["body"]  # the last one, as before
        live = fetch(url, (b"accept-language", b"en"), (b"x-live-refresh", b"1"))
        assert live["body"] == b"<p>worked out elsewhere</p>"
    finally:
        release.set()
        other.join()
