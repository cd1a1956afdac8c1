"""Visitors' copies of the public pages, answered in front of Django.

A visitor who is not signed in gets a tournament's public pages and the API's standings from the
cache (``config.fresh``), but through Django's whole middleware chain and a thread of
its own, about 5 ms of the one process a request: under 32 connections that was 160-220 requests
a second and a p99 of 250-360 ms (bench/web/load.py). Here the finished answer Django gave such a
visitor (status, headers, body) is kept in the process, per address, language and the headers the
page could depend on, with the versions it was worked out at; the next such visitor gets it with one
read of the cache to check those versions, and nothing else of Django runs.

What makes the answer the visitor's own is done here as Django would: the form token is masked anew
from his CSRF cookie's secret (a new secret and its cookie when he has none), and the API's
per-address allowance is counted by its own throttle classes (a refusal goes to Django, which
answers it). Only what a view marked as shareable is kept (``Shareable``, set by
``tournaments.views.common.cached_for_visitors`` and the API's standings): a 200, only a CSRF
cookie set, in the language the visitor would be answered in. Anyone with a session cookie (signed
in, or a message waiting in it), a message cookie or an Authorization header, every method but
GET, and any address no view marked, goes through Django as before.

While one request works a moved page out in Django, the others get the copy before it rather than
all queueing behind the same work; a page is never older than the time one takes. Not a live page
fetching itself after a change's frame (``X-Live-Refresh``, static/tournaments/live.js): it asks
once, so it waits for the one working the page out and gets the new page.
"""

from __future__ import annotations

import asyncio
import contextlib
import operator
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import HttpResponseBase
from django.http.cookie import parse_cookie
from django.http.request import HttpHeaders
from django.middleware import csrf
from django.utils.translation import get_language_from_request

#: Request headers no kept page depends on: left out of the key, so browsers' differences in them
#: do not make a copy each. Every other header is part of it (Host, Accept, HX-*, X-Forwarded-*...).
IGNORED_HEADERS = frozenset({
    b"user-agent", b"accept-encoding", b"connection", b"cache-control", b"pragma", b"referer",
    b"upgrade-insecure-requests", b"dnt", b"priority", b"te", b"keep-alive", b"x-forwarded-for",
    b"x-real-ip", b"if-none-match", b"if-modified-since", b"accept-language", b"cookie",
})
CHECK_THREADS = 8  # copies checked at once (each mostly waits for Redis)
MAX_BYTES = 64 * 1024 * 1024  # the copies of one process, at most
REFRESH_SECONDS = 10  # a request working a page out that long is given up on: the next one tries


@dataclass(frozen=True)
class Shareable:
    """What a view marks a visitor's answer with (``response.shareable``) when every visitor asking
    the same gets the same: the versions it was worked out at, how to read them now, its body with
    ``CSRF_MARK`` where the visitor's form token goes, and the throttles that count each request."""

    stamp: str
    current: Callable[[], str | None]
    body: bytes
    throttles: tuple[type, ...] = ()
    #: Whether a request working the page out at versions ``a`` makes one at ``b`` needless (it
    #: will show what moved them, or a second computation would follow it anyway).
    covers: Callable[[str | None, str | None], bool] = operator.eq


CSRF_MARK = b"\x00csrf\x00"
#: The header of a live page's refresh after a change's frame (static/tournaments/live.js).
LIVE_REFRESH_HEADER = b"x-live-refresh"


Answer = tuple[int, list[tuple[bytes, bytes]], bytes]  # status, headers, body


@dataclass
class Copy:
    stamp: str
    current: Callable[[], str | None]
    status: int
    headers: list[tuple[bytes, bytes]]
    parts: list[bytes]  # the body split at CSRF_MARK
    throttles: tuple[type, ...]
    size: int
    covers: Callable[[str | None, str | None], bool] = operator.eq
    refreshing: float = 0.0  # when a request went to Django to work it out again
    refreshing_stamp: str | None = None  # the versions it works it out at
    #: set when the request working it out at those versions ends (live refreshes wait for it)
    refreshed: dict[str | None, asyncio.Event] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Visitor:
    """What Django's language choice and DRF's throttles read of a request."""

    def __init__(self, scope: dict, cookies: dict[str, str], headers: dict[bytes, bytes]) -> None:
        self.COOKIES = cookies
        self.META: dict[str, str] = {}
        if scope.get("client"):  # as Django's ASGIRequest
            self.META["REMOTE_ADDR"] = scope["client"][0]
        for name in (b"accept-language", b"x-forwarded-for"):
            if name in headers:
                self.META["HTTP_" + name.decode().upper().replace("-", "_")] = headers[name].decode("latin1")
        self.headers = HttpHeaders(self.META)
        self.user = None
        self.auth = None


def _request_key(scope: dict) -> tuple[tuple, _Visitor, dict[str, str]] | None:
    """The key of a visitor's GET, or None when Django must answer it."""
    if scope.get("method") != "GET" or settings.CSRF_USE_SESSIONS:
        return None
    headers: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name == b"authorization":
            return None
        if name in headers:  # as Django's ASGIRequest joins a header sent twice
            value = headers[name] + (b"; " if name == b"cookie" else b",") + value
        headers[name] = value
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin1"))
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return None
    visitor = _Visitor(scope, cookies, headers)
    language = get_language_from_request(visitor)
    other_cookies = tuple(sorted((k, v) for k, v in cookies.items()
                                 if k not in (settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME)))
    kept_headers = tuple(sorted((k, v) for k, v in headers.items() if k not in IGNORED_HEADERS))
    key = (scope.get("scheme"), scope.get("root_path", ""), scope["path"], scope.get("query_string", b""),
           language, kept_headers, other_cookies)
    return key, visitor, cookies


def _live_refresh(scope: dict) -> bool:
    """Whether the request is a live page fetching itself again after a change's frame
    (static/tournaments/live.js sends ``X-Live-Refresh``): it must get the page as of now."""
    return any(name == LIVE_REFRESH_HEADER for name, _value in scope["headers"])


def _csrf_secret(cookies: dict[str, str]) -> tuple[str, bool] | None:
    """The visitor's CSRF secret and whether it is new (he had no cookie); None when his cookie is
    of a form only Django's middleware deals with."""
    secret = cookies.get(settings.CSRF_COOKIE_NAME)
    if secret is None:
        return csrf._get_new_csrf_string(), True
    if len(secret) != csrf.CSRF_SECRET_LENGTH:
        return None
    try:
        csrf._check_token_format(secret)
    except csrf.InvalidTokenFormat:
        return None
    return secret, False


def _csrf_cookie(secret: str) -> bytes:
    """The cookie header CsrfViewMiddleware sets on every page that used the token (it renews the
    cookie's age each time), made by the same call."""
    response = HttpResponseBase()
    response.set_cookie(
        settings.CSRF_COOKIE_NAME, secret, max_age=settings.CSRF_COOKIE_AGE,
        domain=settings.CSRF_COOKIE_DOMAIN, path=settings.CSRF_COOKIE_PATH,
        secure=settings.CSRF_COOKIE_SECURE, httponly=settings.CSRF_COOKIE_HTTPONLY,
        samesite=settings.CSRF_COOKIE_SAMESITE,
    )
    return response.cookies[settings.CSRF_COOKIE_NAME].output(header="").encode("ascii").strip()


class VisitorCopies:
    """The copies of one process, least recently used dropped first beyond ``MAX_BYTES``."""

    def __init__(self) -> None:
        self._copies: OrderedDict[tuple, Copy] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=CHECK_THREADS, thread_name_prefix="visitor-copies")

    async def answer(self, scope: dict) -> tuple[Answer | None, tuple[Copy, str | None] | None]:
        """The answer to ``scope`` from a copy that is still current, or None: Django answers; and
        the copy this request works out again in Django with the versions it works it out at, if it
        does (``done`` when it has).

        The copy's check (a read of the cache, the API's counters) runs in a thread of a small pool,
        so the server goes on with other requests while Redis answers: on the event loop those
        waits added up to most of an API answer's time under load (bench/web/load.py)."""
        found = _request_key(scope)
        if found is None:
            return None, None
        key, visitor, cookies = found
        loop = asyncio.get_running_loop()
        if not _live_refresh(scope):
            copy = self._copies.get(key)
            if copy is None:
                return None, None
            return await loop.run_in_executor(self._pool, self._checked, key, copy, visitor, cookies)
        while True:
            copy = self._copies.get(key)
            if copy is None:
                return None, None
            answer, refreshing, ends = await loop.run_in_executor(
                self._pool, self._checked_live, key, copy, visitor, cookies)
            if ends is None:
                return answer, refreshing
            with contextlib.suppress(TimeoutError):  # it may be cut off: then ask again anyway
                await asyncio.wait_for(ends.wait(), REFRESH_SECONDS)

    def _checked(self, key: tuple, copy: Copy, visitor: _Visitor, cookies: dict[str, str]):
        now = copy.current()
        if now != copy.stamp and self._refreshing_elsewhere(copy, now) is None:
            return None, (copy, now)
        return self._answer(key, copy, visitor, cookies), None

    def _checked_live(self, key: tuple, copy: Copy, visitor: _Visitor, cookies: dict[str, str]):
        """``_checked`` for a live page's refresh (``_live_refresh``): never the copy from before
        the versions moved. The page asks because a change's frame came, and asks once: given the
        copy from before the change (while another request works the page out again) it showed
        the standings without the result until the next change. When another request is working
        it out, the event set when that one ends comes back instead, to wait for and ask again."""
        now = copy.current()
        if now == copy.stamp:
            return self._answer(key, copy, visitor, cookies), None, None
        ends = self._refreshing_elsewhere(copy, now)
        if ends is None:
            return None, (copy, now), None
        return None, None, ends

    @staticmethod
    def done(refreshing: tuple[Copy, str | None]) -> None:
        """The request working a copy out again at the versions given ended (kept, refused, failed
        or cut off)."""
        copy, stamp = refreshing
        with copy.lock:
            if copy.refreshing_stamp == stamp:
                copy.refreshing = 0.0
            ended = copy.refreshed.pop(stamp, None)
        if ended is not None:
            ended.set()  # (on the event loop, as the request ends)

    def _answer(self, key: tuple, copy: Copy, visitor: _Visitor, cookies: dict[str, str],
                ) -> Answer | None:
        for throttle in copy.throttles:
            if not throttle().allow_request(visitor, None):
                return None  # Django answers the refusal, with its wait
        headers = list(copy.headers)
        if len(copy.parts) > 1:
            got = _csrf_secret(cookies)
            if got is None:
                return None
            secret, _ = got
            token = csrf._mask_cipher_secret(secret).encode("ascii")
            body = token.join(copy.parts)
            headers.append((b"Set-Cookie", _csrf_cookie(secret)))
        else:
            body = copy.parts[0]
        headers.append((b"Content-Length", str(len(body)).encode("ascii")))
        with self._lock:
            if key in self._copies:
                self._copies.move_to_end(key)
        return copy.status, headers, body

    @staticmethod
    def _refreshing_elsewhere(copy: Copy, stamp: str | None) -> asyncio.Event | None:
        """When another request is working the page out now at the versions ``stamp`` (then
        this one gets the copy), the event set when it ends; None when none is: this one will. One
        working it out at versions that have moved since (a reader during a writer's transaction,
        whose commit renewed them again) does not count: waiting for it made a result take two page
        computations to show; unless the page says it covers them (``Shareable.covers``: only the
        ratings moved since, say), when a second computation beside it would only slow both down."""
        with copy.lock:
            now = time.monotonic()
            if (copy.refreshing and copy.covers(copy.refreshing_stamp, stamp)
                    and now - copy.refreshing < REFRESH_SECONDS):
                return copy.refreshed.setdefault(copy.refreshing_stamp, asyncio.Event())
            copy.refreshing, copy.refreshing_stamp = now, stamp
            copy.refreshed.setdefault(stamp, asyncio.Event())
            return None

    def keep(self, scope: dict, response: Any) -> None:
        """Keep Django's ``response`` to ``scope`` when its view marked it shareable and it is what
        every visitor asking the same would get."""
        found = _request_key(scope)
        if found is None:
            return
        key = found[0]
        shareable = getattr(response, "shareable", None)
        if shareable is None or not self._shareable(response, shareable, key[4]):
            self._drop(key)
            return
        headers = [(k.encode("ascii"), v.encode("latin1")) for k, v in response.items()
                   if k.lower() != "content-length"]
        parts = shareable.body.split(CSRF_MARK)
        size = sum(map(len, parts)) + 512
        copy = Copy(stamp=shareable.stamp, current=shareable.current, status=response.status_code,
                    headers=headers, parts=parts, throttles=shareable.throttles, size=size,
                    covers=shareable.covers)
        with self._lock:
            old = self._copies.pop(key, None)
            self._size += size - (old.size if old else 0)
            self._copies[key] = copy
            while self._size > MAX_BYTES and self._copies:
                _, dropped = self._copies.popitem(last=False)
                self._size -= dropped.size

    @staticmethod
    def _shareable(response: Any, shareable: Shareable, language: str) -> bool:
        if response.status_code != 200 or response.streaming:
            return False
        if response.get("Content-Language", language) != language:
            return False
        with_token = CSRF_MARK in shareable.body
        if set(response.cookies) != ({settings.CSRF_COOKIE_NAME} if with_token else set()):
            return False
        body = response.content
        if with_token:  # the page sent is the marked one, with a token where the marks are
            pattern = b"[A-Za-z0-9]{%d}" % csrf.CSRF_TOKEN_LENGTH
            return re.fullmatch(pattern.join(re.escape(part) for part in shareable.body.split(CSRF_MARK)),
                                body, re.S) is not None
        return body == shareable.body

    def _drop(self, key: tuple) -> None:
        with self._lock:
            old = self._copies.pop(key, None)
            if old is not None:
                self._size -= old.size

    def clear(self) -> None:
        with self._lock:
            self._copies.clear()
            self._size = 0
