"""What the public tournament pages were worked out from, and a cache of what is dear to work out.

A 256-pair Swiss takes a few hundred milliseconds to rank and render; spectators reload its
standings all day. Each tournament has a *version* in the cache, renewed by every change to it
(``renew``: at once, and again when the change commits, so a reader that worked a page out from the
rows before the commit cannot keep it); a change that may touch every tournament's pages (a
rating recompute, a renamed player or club) renews the *epoch* they all share (``renew_all``).
``cached`` keeps one value per name under the versions it was worked out at and works it out again
once either moved: a page is never older than the last committed change.

Renewed from the services' audit row (``tournaments.services.common.audit``, which every
tournament service writes), and from ``post_save``/``post_delete`` of the rows the pages show
(``connect``), which covers writes that are no service's: the admin, fixtures, scripts; the
ratings' writes, in bulk, renew the epoch themselves.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")

EPOCH_KEY = "fresh:epoch"
TTL = 600  # seconds an unread value stays in the cache
LOCK_SECONDS = 30
WAIT_STEP = 0.02  # seconds between looks while another process works a value out


def _version_key(slug: str) -> str:
    return f"fresh:v:{slug}"


def _renew_now(keys: list[str]) -> None:
    cache.set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)


def _renew(keys: list[str]) -> None:
    _renew_now(keys)
    transaction.on_commit(lambda: _renew_now(keys), robust=True)


def renew(*, slug: str | None = None, tournament_id: int | None = None) -> None:
    """Tournament ``slug`` (or the one of ``tournament_id``) changed: its pages are worked out again."""
    if slug is None and tournament_id is not None:
        from ..models import Tournament

        slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug:
        _renew([_version_key(slug)])


def renew_all() -> None:
    """Something every tournament's pages may show changed (ratings, a player's or a club's name)."""
    _renew([EPOCH_KEY])


def stamp(slug: str) -> str | None:
    """The versions tournament ``slug``'s kept values are worked out at now (None before any was
    kept): one read of the cache, what a visitor's copy of a page is checked against
    (``config.visitors``)."""
    got = cache.get_many([EPOCH_KEY, _version_key(slug)])
    epoch, version = got.get(EPOCH_KEY), got.get(_version_key(slug))
    return f"{epoch}.{version}" if epoch is not None and version is not None else None


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
    digest = hashlib.sha256(repr((name, slug, parts)).encode()).hexdigest()[:32]
    key, version_key = f"fresh:{digest}", _version_key(slug)
    got = cache.get_many([EPOCH_KEY, version_key, key])
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
    lock = f"{key}:lock"
    if entry is not None and not cache.add(lock, 1, timeout=LOCK_SECONDS):
        if not current:
            return entry[1], entry[0]  # another process is working the new one out
        waited = time.monotonic()
        while time.monotonic() - waited < LOCK_SECONDS and cache.get(lock) is not None:
            time.sleep(WAIT_STEP)
            entry = cache.get(key)
            if entry is not None and entry[0] == stamp:
                return entry[1], stamp
        entry = None  # the other gave up, or the versions moved again: work it out here
    try:
        value, keep = compute()
        if keep:
            cache.set(key, (stamp, value), timeout=TTL)
        return value, stamp if keep else None
    finally:
        if entry is not None:
            cache.delete(lock)


def _tournament_of(instance: Any) -> tuple[int | None, bool]:
    """The tournament a saved row belongs to, and whether the change is every tournament's."""
    from ..models import Match, Round, Tournament

    if isinstance(instance, Tournament):
        return instance.pk, True  # its slug or name may have changed: the old address too
    if getattr(instance, "tournament_id", None):
        return instance.tournament_id, False
    if getattr(instance, "round_id", None):
        rounds = Round.objects.filter(pk=instance.round_id)
        return rounds.values_list("tournament_id", flat=True).first(), False
    if getattr(instance, "match_id", None):
        return (Match.objects.filter(pk=instance.match_id)
                .values_list("round__tournament_id", flat=True).first(), False)
    if getattr(instance, "entry_id", None):
        from ..models import Entry

        entries = Entry.objects.filter(pk=instance.entry_id)
        return entries.values_list("tournament_id", flat=True).first(), False
    return None, False


def _changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if kwargs.get("raw"):  # loading fixtures
        return
    tournament_id, everyone = _tournament_of(instance)
    if everyone:
        renew_all()
    if tournament_id is not None:
        renew(tournament_id=tournament_id)


def _everyones(sender: Any, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        renew_all()


def connect() -> None:
    """Renew on every saved or deleted row a public tournament page shows."""
    from django.db.models.signals import post_delete, post_save

    from clubs.models import Club, Player

    from ..models import (
        DealLine,
        Entry,
        IndividualEntry,
        Match,
        ResultCorrection,
        Round,
        Seat,
        Substitution,
        Tournament,
    )

    for model in (Tournament, Entry, IndividualEntry, Substitution, Round, Match, Seat, DealLine,
                  ResultCorrection):
        post_save.connect(_changed, sender=model, dispatch_uid=f"bilka-fresh-save-{model.__name__}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"bilka-fresh-delete-{model.__name__}")
    for model in (Club, Player):  # the ratings' writes renew_all() themselves, once a recompute
        post_save.connect(_everyones, sender=model, dispatch_uid=f"bilka-fresh-save-{model.__name__}")
        post_delete.connect(_everyones, sender=model, dispatch_uid=f"bilka-fresh-delete-{model.__name__}")
