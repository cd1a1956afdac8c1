"""A tournament's events as server-sent events: ``GET /api/v1/tournaments/<slug>/events/``.

The same rows the webhooks send, for whoever may see the tournament (every tournament is public,
as in the API). A client resumes with ``Last-Event-ID`` (or ``?after=<id>``; without either it
hears only what happens from now on). The view is asynchronous and holds no database connection
while it waits: every ``WEBHOOKS_STREAM_POLL`` seconds it looks at the cache's note of the
tournament's newest event (written on commit, ``services.events``), and reads the rows only when
there is something new, or every ``FULL_LOOK_SECONDS`` in case the note was lost. A comment line
every ``KEEPALIVE_SECONDS`` keeps proxies from closing the connection, and the stream ends after
``WEBHOOKS_STREAM_SECONDS`` so clients reconnect (browsers' EventSource does it by itself).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
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
    return int(raw) if raw.isdigit() else -1


async def frames(tournament_id: int, slug: str, after: int) -> AsyncIterator[str]:
    seconds = float(getattr(settings, "WEBHOOKS_STREAM_SECONDS", 600))
    poll = float(getattr(settings, "WEBHOOKS_STREAM_POLL", 2))
    began = last_beat = last_look = time.monotonic()
    yield f"retry: {RETRY_MILLISECONDS}\n: events of {slug}\n\n"
    look = True
    while True:
        if look:
            last_look = time.monotonic()
            batch = await sync_to_async(_events)(tournament_id, slug, after)
            for pk, kind, data in batch:
                yield f"id: {pk}\nevent: {kind}\ndata: {data}\n\n"
                after = pk
                last_beat = time.monotonic()
            if len(batch) == selectors.STREAM_BATCH:
                continue  # more waiting: no sleep before the next batch
        now = time.monotonic()
        if now - began >= seconds:
            return
        if now - last_beat >= KEEPALIVE_SECONDS:
            yield ": keepalive\n\n"
            last_beat = now
        await asyncio.sleep(min(poll, max(0.0, seconds - (now - began))))
        newest = await sync_to_async(cache.get)(newest_key(tournament_id))
        look = (newest is not None and newest > after) or time.monotonic() - last_look >= FULL_LOOK_SECONDS


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
    response = StreamingHttpResponse(frames(tournament_id, slug, after), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response
