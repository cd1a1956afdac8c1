"""What the public tournament pages were worked out from, and a cache of what is dear to work out.

A 256-pair Swiss takes a few hundred milliseconds to rank and render; spectators reload its
standings all day. Each tournament has a *version* in the cache, renewed by every change to it when
the change commits (``renew``; outside a transaction at once; inside one, until its commit, only the
transaction's own reads work the pages out anew, from its rows, and keep nothing); a change that may
touch every tournament's pages (a rating recompute, a renamed player or club) renews the *epoch*
they all share (``renew_all``). ``cached`` keeps one value per name under the versions it was worked
out at and works it out again once either moved: a page is never older than the last committed
change.

With ``PUBLIC_PAGES_REFRESH`` on (off by default), after a commit that renews a tournament a Celery
worker works its public pages out again at once (``tournaments.tasks.refresh_public_pages``, queued
here on commit), so that the first reader does not, in the web process, sharing one interpreter
with every other request. Until the worker has kept the new value, a reader gets the value before
it, but for at most ``REFRESH_WAIT`` seconds after the first commit still waiting for it; later, or
with no worker refreshing, the reader works it out himself. A rolled-back change queues nothing and
marks nothing. Off by default: on the shared two-core machine the worker, waiting for a core,
made results slower to appear, not faster (README, "Load figures").

Renewed from the services' audit row (``tournaments.services.common.audit``, which every
tournament service writes), and from ``post_save``/``post_delete`` of the rows the pages show
(``tournaments.freshness``), which covers writes that are no service's: the admin, fixtures,
scripts; the ratings' writes, in bulk, renew the epoch themselves. It lives in ``config`` because
the tournaments, the ratings and the API all renew or read it.

Its 400-odd lines are one job, what a public page may be answered from and when it must be worked
out again: the versions, their renewal at commit, the locks that keep one computation a version,
the worker's refresh and the signals; split, each part would need the others' keys and marks.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

EPOCH_KEY = "fresh:epoch"
TTL = 600  # seconds an unread value stays in the cache
LOCK_SECONDS = 30
WAIT_STEP = 0.02  # seconds between looks while another process works a value out
REFRESH_TASK = "tournaments.refresh_public_pages"
#: Seconds after a commit a reader may still get the value before it while a worker works the new
#: one out; then he works it out himself.
REFRESH_WAIT = 1.0
REFRESH_MARK_SECONDS = 5  # how long the marks below live in the cache, at most
_refreshing: contextvars.ContextVar[bool] = contextvars.ContextVar("fresh_refreshing", default=False)


def _version_key(slug: str) -> str:
    return f"fresh:v:{slug}"


def _renew_now(keys: list[str]) -> None:
    cache.set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)


@dataclass
class _Marks:
    """What this connection's open transaction changed: what its own reads work out anew, and what
    its commit renews for everyone (``renew_all`` touches every tournament refreshed lately)."""

    outer: Any  # the transaction's outermost atomic block
    keys: set[str] = field(default_factory=set)
    slugs: set[str] = field(default_factory=set)
    everyone: bool = False
    renewed: bool = False  # the commit has renewed them (its first hook)


def _marks(connection: Any, outer: Any) -> _Marks | None:
    marks = getattr(connection, "_bilka_fresh_marks", None)
    return marks if marks is not None and marks.outer is outer else None


def _marked_here(*keys: str) -> bool:
    """Whether this thread's open transaction changed what ``keys`` version: its own reads then
    see rows no one else sees yet."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return False
    marks = _marks(connection, connection.atomic_blocks[0])
    return marks is not None and any(key in marks.keys for key in keys)


def _renew(keys: list[str], slug: str | None = None) -> None:
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _renew_now(keys)
        _after_renewal({slug} if slug is not None else set(), slug is None)
        return
    # Not in the cache before the commit: every reader elsewhere would work the pages out again
    # from the rows before it (one computation a saved row, each renewing them, several at
    # once in the one server process), and the one after the commit waited behind them: a
    # result took 1.5 s to show. Only this transaction's own reads know (`_marked_here`).
    outer = connection.atomic_blocks[0]
    marks = _marks(connection, outer)
    if marks is None:
        marks = _Marks(outer)
        connection._bilka_fresh_marks = marks  # noqa: SLF001 - ours, on Django's connection
    marks.keys.update(keys)
    if slug is None:
        marks.everyone = True
    else:
        marks.slugs.add(slug)

    def committed() -> None:
        # Once a commit, whatever the number of rows it saved: each renewal sends every reader to
        # work the pages out again, and a result's commit renewed the tournament's version twice,
        # 50-90 ms apart under load, so the page worked out at the first was old before it was
        # done and a second computation started beside it. A hook is added at every renewal (the
        # one added inside a savepoint rolled back is dropped, the others stay); the first to run
        # renews all.
        if marks.renewed:
            return
        marks.renewed = True
        if getattr(connection, "_bilka_fresh_marks", None) is marks:
            connection._bilka_fresh_marks = None  # noqa: SLF001 - the transaction is over
        _renew_now(sorted(marks.keys))
        _after_renewal(marks.slugs, marks.everyone)

    transaction.on_commit(committed, robust=True)


def _after_renewal(slugs: set[str], everyone: bool) -> None:
    if getattr(settings, "PUBLIC_PAGES_REFRESH", False):
        # every tournament's pages (a rating learnt from a result moves the epoch): those
        # refreshed lately, the ones people are watching
        for each in sorted(slugs | (set(_refreshed_lately()) if everyone else set())):
            _queue_refresh(each)


def _pending_key(slug: str) -> str:
    return f"fresh:pending:{slug}"  # the time of the first commit not yet refreshed


def _queued_key(slug: str) -> str:
    return f"fresh:queued:{slug}"  # the time of the first commit no refresh has taken yet


def _running_key(slug: str) -> str:
    return f"fresh:running:{slug}"


RECENT_KEY = "fresh:recent"  # {slug: when a worker last took a refresh of it}


def _refreshed_lately() -> list[str]:
    now = time.time()
    return [slug for slug, when in (cache.get(RECENT_KEY) or {}).items() if now - when < TTL]


def _queue_refresh(slug: str) -> None:
    """A change to ``slug`` committed: mark when (an earlier commit not yet refreshed keeps its
    mark) and queue its refresh, once for all the commits before a worker takes them."""
    now = time.time()
    cache.add(_pending_key(slug), now, timeout=REFRESH_MARK_SECONDS)
    if cache.add(_queued_key(slug), now, timeout=REFRESH_MARK_SECONDS):
        current_app.signature(REFRESH_TASK, args=(slug,)).apply_async()


def refresh_claim(slug: str) -> bool:
    """Whether this worker refreshes ``slug`` now: a commit is waiting for it and no other worker
    is refreshing it (two at once would only work the same pages out twice)."""
    return cache.get(_queued_key(slug)) is not None and cache.add(_running_key(slug), 1, timeout=LOCK_SECONDS)


def refresh_take(slug: str) -> float | None:
    """The commits waiting for a refresh of ``slug`` are the claimer's to refresh now (a commit
    from now on waits for the next turn); None when none is. Returns when the first was."""
    mark = cache.get(_queued_key(slug))
    if mark is not None:
        cache.delete(_queued_key(slug))  # a commit that found it there came before, and is covered
        cache.set(_pending_key(slug), mark, timeout=REFRESH_MARK_SECONDS)
        now = time.time()  # (two workers writing at once may drop one slug: it is worked out as before)
        recent = {s: when for s, when in (cache.get(RECENT_KEY) or {}).items() if now - when < TTL}
        cache.set(RECENT_KEY, {**recent, slug: now}, timeout=TTL)
    return mark


def refresh_release(slug: str) -> None:
    """The claimer is done: readers no longer get the values before the refresh, unless a commit
    came since (its own refresh follows: the claimer's loop, or its task)."""
    mark = cache.get(_queued_key(slug))
    if mark is None:
        cache.delete(_pending_key(slug))
    else:
        cache.set(_pending_key(slug), mark, timeout=REFRESH_MARK_SECONDS)
    cache.delete(_running_key(slug))


@contextlib.contextmanager
def refreshing() -> Iterator[None]:
    """Inside: values are worked out as the versions are now, never answered with the one before
    (the worker's refresh)."""
    token = _refreshing.set(True)
    try:
        yield
    finally:
        _refreshing.reset(token)


def was_kept(name: str, slug: str, *parts: Any) -> bool:
    """Whether a value for ``name`` of ``slug`` (and ``parts``) is in the cache, current or not:
    someone asked for it lately, so a refresh works it out again."""
    return cache.has_key(_key(name, slug, parts))


def _key(name: str, slug: str, parts: tuple) -> str:
    return "fresh:" + hashlib.sha256(repr((name, slug, parts)).encode()).hexdigest()[:32]


def renew(*, slug: str) -> None:
    """Tournament ``slug`` changed: its pages are worked out again."""
    if slug:
        _renew([_version_key(slug)], slug)


def renew_all() -> None:
    """Something every tournament's pages may show changed (ratings, a player's or a club's name);
    the tournaments refreshed lately are refreshed again on commit."""
    _renew([EPOCH_KEY])


def stamp(slug: str) -> str | None:
    """The versions tournament ``slug``'s kept values are worked out at now (None before any was
    kept): one read of the cache, what a visitor's copy of a page is checked against
    (``config.visitors``)."""
    got = cache.get_many([EPOCH_KEY, _version_key(slug)])
    epoch, version = got.get(EPOCH_KEY), got.get(_version_key(slug))
    return f"{epoch}.{version}" if epoch is not None and version is not None else None


def covers(working: str | None, now: str | None) -> bool:
    """Whether a value being worked out at stamp ``working`` will show every change to the
    tournament up to stamp ``now``: the same tournament version, the epoch the same or moved since
    (a rating learnt, a name changed: shown by the computation after it, which starts when this
    one is kept)."""
    return working is not None and now is not None and working.split(".", 1)[1:] == now.split(".", 1)[1:]


def cached(name: str, slug: str, compute: Callable[[], tuple[T, bool]], *parts: Any,
           current: bool = False) -> T:
    """The value ``compute`` gives for ``name`` of tournament ``slug`` (and ``parts``: the path, the
    language...), from the cache while the tournament's version and the epoch have not moved.

    ``compute`` returns (value, keep): a value not to keep (a refusal, an error page) is returned
    and not stored. While one process works a moved value out, the others answer with the last one
    rather than all working it out at once; it is replaced within the time one takes.

    ``current``: never the last one, but the value at the versions now, waited for while another
    process works it out: for a value another kept value is worked out from (the standings table
    the page and the API show), which would otherwise be kept as new while made from the old."""
    return kept(name, slug, compute, *parts, current=current)[0]


def kept(name: str, slug: str, compute: Callable[[], tuple[T, bool]], *parts: Any,
         current: bool = False) -> tuple[T, str | None]:
    """``cached``, with the versions the value was worked out at (None for a value not kept): a copy
    of it kept elsewhere is good while ``stamp(slug)`` still gives them."""
    key, version_key, pending_key = _key(name, slug, parts), _version_key(slug), _pending_key(slug)
    if _marked_here(EPOCH_KEY, version_key):
        return compute()[0], None  # from this transaction's own rows: never kept, never shared
    got = cache.get_many([EPOCH_KEY, version_key, key, pending_key])
    epoch, version = got.get(EPOCH_KEY), got.get(version_key)
    if epoch is None:  # never set, or the cache was emptied: start it (once, whoever comes first)
        cache.add(EPOCH_KEY, uuid.uuid4().hex, timeout=None)
        epoch = cache.get(EPOCH_KEY)
    if version is None:
        cache.add(version_key, uuid.uuid4().hex, timeout=None)
        version = cache.get(version_key)
    stamp = f"{epoch}.{version}"
    entry = got.get(key)
    if entry is not None and entry[0] == stamp:
        return entry[1], stamp
    pending = got.get(pending_key)
    if (entry is not None and not current and pending is not None and not _refreshing.get()
            and time.time() - pending < REFRESH_WAIT):
        return entry[1], entry[0]  # a worker is working the new one out (refresh_public_pages)
    # One lock per versions: a value still being worked out at versions that have moved since (say
    # by a reader during the writer's transaction, before its commit renewed them) does not hold
    # up the one at the versions now, which would otherwise wait for it and then start.
    # A value that may be the last one is worked out once per *tournament* version at a time: when
    # only the epoch moved meanwhile (the worker learnt the ratings from the result 25-50 ms after
    # it), the value being worked out already shows the result, and a second computation beside
    # it, in the same interpreter, only made both (and the result's appearance) twice as slow.
    # The next one starts when it is kept; until then the others get the last.
    exact = current or _refreshing.get()
    lock = f"{key}:{stamp}:lock"  # what a reader needing the value at these versions waits for
    held: list[str] = []
    if entry is not None:
        if not exact:
            version_lock = f"{key}:{version}:lock"
            if not cache.add(version_lock, 1, timeout=LOCK_SECONDS):
                return entry[1], entry[0]  # another process is working the new one out
            held.append(version_lock)
        if cache.add(lock, 1, timeout=LOCK_SECONDS):
            held.append(lock)
        elif not exact:
            cache.delete_many(held)
            return entry[1], entry[0]  # another process is working the new one out
        else:
            waited = time.monotonic()
            while time.monotonic() - waited < LOCK_SECONDS and cache.get(lock) is not None:
                time.sleep(WAIT_STEP)
                entry = cache.get(key)
                if entry is not None and entry[0] == stamp:
                    return entry[1], stamp
            # the other gave up, or the versions moved again: work it out here
    try:
        value, keep = compute()
        now = _stamp_now(version_key) if keep else None
        if keep and (now == stamp or _kept_stamp(key) != now):
            # (a value worked out at versions that moved meanwhile is still newer than the one
            # kept, unless someone has already kept the one at the versions now)
            cache.set(key, (stamp, value), timeout=TTL)
        return value, stamp if keep else None
    finally:
        for each in held:
            cache.delete(each)


def _stamp_now(version_key: str) -> str:
    got = cache.get_many([EPOCH_KEY, version_key])
    return f"{got.get(EPOCH_KEY)}.{got.get(version_key)}"


def _kept_stamp(key: str) -> str | None:
    entry = cache.get(key)
    return entry[0] if entry is not None else None
