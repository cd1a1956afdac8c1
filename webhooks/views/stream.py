"""A tournament's events as server-sent events: ``GET /api/v1/tournaments/<slug>/events/``.

The same rows the webhooks send, for whoever may see the tournament (every tournament is public,
as in the API). A client resumes with ``Last-Event-ID`` (or ``?after=<id>``; without either it
hears only what happens from now on). Under ASGI the stream is asynchronous and holds no database
connection while it waits: every ``WEBHOOKS_STREAM_POLL`` seconds it looks at the cache's note of the
tournament's newest event (written on commit, ``services.events``), and reads the rows only when
there is something new, or every ``FULL_LOOK_SECONDS`` in case the note was lost. A comment line
every ``KEEPALIVE_SECONDS`` keeps proxies from closing the connection, and the stream ends after
``WEBHOOKS_STREAM_SECONDS`` so clients reconnect (browsers' EventSource does it by itself).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpResponseBadRequest, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from .. import selectors
from ..services.events import newest_key

KEEPALIVE_SECONDS = 15
FULL_LOOK_SECONDS = 30
RETRY_MILLISECONDS = 3000


def _let_go() -> None:
    """Give the database connection back between looks, unless a transaction holds it (a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def _tournament(slug: str) -> tuple[int, str] | None:
    try:
        return Tournament.objects.filter(slug=slug).values_list("pk", "slug").first()
    finally:
        _let_go()


def _events(tournament_id: int, slug: str, after: int) -> list[tuple[int, str, str]]:
    """The frames after ``after``; the connection goes back at once (CONN_MAX_AGE is 0 under ASGI)."""
    try:
        rows = selectors.events_after(tournament_id=tournament_id, after=after)
        return [(e.pk, e.type, json.dumps(e.payload(slug), separators=(",", ":"))) for e in rows]
    finally:
        _let_go()


def _start(tournament_id: int) -> int:
    try:
        return selectors.last_event_id(tournament_id=tournament_id)
    finally:
        _let_go()


def resume_point(request) -> int | None:
    """The id to resume after: ``Last-Event-ID``, else ``?after=``; None: from now on. -1: not a number."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after")
    if raw is None or raw == "":
        return None
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else -1


class Frames:
    """What the stream sends when: the first lines, each batch of events, keepalives, the end.

    One state for both loops below: the asynchronous one under ASGI, where the site runs, and a
    synchronous one under WSGI (and Django's test client), which has no event loop to wait in."""

    def __init__(self, tournament_id: int, slug: str, after: int) -> None:
        self.tournament_id, self.slug, self.after = tournament_id, slug, after
        self.seconds = float(getattr(settings, "WEBHOOKS_STREAM_SECONDS", 600))
        self.poll = float(getattr(settings, "WEBHOOKS_STREAM_POLL", 2))
        self.began = self.last_beat = self.last_look = time.monotonic()
        self.look = True

    def opening(self) -> str:
        return f"retry: {RETRY_MILLISECONDS}\n: events of {self.slug}\n\n"

    def frames(self, batch: list[tuple[int, str, str]]) -> list[str]:
        self.last_look = time.monotonic()
        out = []
        for pk, kind, data in batch:
            out.append(f"id: {pk}\nevent: {kind}\ndata: {data}\n\n")
            self.after = pk
            self.last_beat = time.monotonic()
        return out

    def over(self) -> bool:
        return time.monotonic() - self.began >= self.seconds

    def keepalive(self) -> str | None:
        now = time.monotonic()
        if now - self.last_beat < KEEPALIVE_SECONDS:
            return None
        self.last_beat = now
        return ": keepalive\n\n"

    def pause(self) -> float:
        return min(self.poll, max(0.0, self.seconds - (time.monotonic() - self.began)))

    def should_look(self, newest: int | None) -> bool:
        if newest is not None and newest > self.after:
            return True
        return time.monotonic() - self.last_look >= FULL_LOOK_SECONDS


async def stream(state: Frames) -> AsyncIterator[str]:
    yield state.opening()
    while True:
        if state.look:
            batch = await sync_to_async(_events)(state.tournament_id, state.slug, state.after)
            for frame in state.frames(batch):
                yield frame
            if len(batch) == selectors.STREAM_BATCH:
                continue  # more waiting: no pause before the next batch
        if state.over():
            return
        if (beat := state.keepalive()) is not None:
            yield beat
        await asyncio.sleep(state.pause())
        state.look = state.should_look(await sync_to_async(cache.get)(newest_key(state.tournament_id)))


def stream_sync(state: Frames) -> Iterator[str]:
    yield state.opening()
    while True:
        if state.look:
            batch = _events(state.tournament_id, state.slug, state.after)
            yield from state.frames(batch)
            if len(batch) == selectors.STREAM_BATCH:
                continue
        if state.over():
            return
        if (beat := state.keepalive()) is not None:
            yield beat
        time.sleep(state.pause())
        state.look = state.should_look(cache.get(newest_key(state.tournament_id)))


@require_GET
async def tournament_events(request, slug):
    found = await sync_to_async(_tournament)(slug)
    if found is None:
        raise Http404(_("No such tournament."))
    tournament_id, slug = found
    after = resume_point(request)
    if after == -1:
        return HttpResponseBadRequest(
            _("Last-Event-ID and after must be the id of an event, a whole number.")
        )
    if after is None:
        after = await sync_to_async(_start)(tournament_id)
    state = Frames(tournament_id, slug, after)
    content = stream(state) if isinstance(request, ASGIRequest) else stream_sync(state)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response
