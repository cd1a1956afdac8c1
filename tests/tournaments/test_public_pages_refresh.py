"""After a change to a tournament commits, the site's worker works its public standings, home page
and API standings out again (tournaments.tasks.refresh_public_pages), so a visitor gets the new ones
without the web process working them out; meanwhile he gets the ones before for at most
``fresh.REFRESH_WAIT`` seconds; a change rolled back queues nothing and changes nothing."""

from __future__ import annotations

import importlib
import json
import time
import types
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import transaction
from rest_framework.renderers import JSONRenderer

from api.serializers import StandingsSerializer
from config import fresh
from tournaments import selectors, services
from tournaments.models import Match

from . import test_visitor_copies as copies
from .test_visitor_copies import TOKEN, _open_match, _played, fetch

pytestmark = pytest.mark.django_db(transaction=True)
swiss, site = copies.swiss, copies.site  # the same fixtures: a 4-pair Swiss, the server's application
# the module, not the function of that name the package re-exports
standings_selectors = importlib.import_module("tournaments.selectors.standings")


@pytest.fixture(autouse=True)
def _tasks_only_where_the_worker_is_watched(request, monkeypatch):
    """The session's worker, once started, stays up: a result's own tasks (ratings, notices) sent
    by a test that does not wait for them ran while the database was flushed after it, and the flush
    deadlocked with them. Only the worker's own test sends them."""
    if "celery_worker_process" not in request.fixturenames:
        from tournaments.services import common

        monkeypatch.setattr(common, "current_app", mock.MagicMock())


def _pending(slug: str) -> object:
    return cache.get_many([f"fresh:{what}:{slug}" for what in ("pending", "queued", "running")])


def _worked_out_here(monkeypatch) -> list[int]:
    """Counts the standings this process works out from the rows."""
    calls: list[int] = []
    real = standings_selectors.standings

    def counted(**kwargs):
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(standings_selectors, "standings", counted)
    return calls


def test_the_worker_replaces_the_pages_after_the_commit(
    swiss, site, organiser, settings, celery_worker_process, monkeypatch
):
    from config.settings.base import redis_cache

    settings.PUBLIC_PAGES_REFRESH = True
    settings.CACHES = redis_cache(settings.REDIS_URL, f"bilka-test-{settings.RUN_ID}")  # the worker's keys
    page, api = f"/t/{swiss.slug}/standings/", f"/api/v1/tournaments/{swiss.slug}/standings/"
    before = TOKEN.sub(b"", fetch(page)["body"])
    assert _played(fetch(api)) == 0
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)  # commits
    worked_out = _worked_out_here(monkeypatch)
    deadline = time.monotonic() + 120  # only a broken worker takes this long
    while _pending(swiss.slug) and time.monotonic() < deadline:  # the worker takes it and is done
        time.sleep(0.05)
    assert _pending(swiss.slug) == {}, celery_worker_process.log()
    assert _played(fetch(api)) == 2
    assert TOKEN.sub(b"", fetch(page)["body"]) != before
    assert worked_out == [], celery_worker_process.log()[-2000:]  # the worker did it, not the web process
    swiss.refresh_from_db()
    drf = JSONRenderer().render(StandingsSerializer(selectors.standings(tournament=swiss)).data)
    assert json.loads(fetch(api)["body"]) == json.loads(drf)
    assert fetch(api)["body"] == drf  # byte for byte what DRF renders


def test_nothing_is_queued_before_the_commit_nor_for_a_rollback(swiss, site, organiser, settings):
    settings.PUBLIC_PAGES_REFRESH = True
    page, api = f"/t/{swiss.slug}/standings/", f"/api/v1/tournaments/{swiss.slug}/standings/"
    before_page, before_api = TOKEN.sub(b"", fetch(page)["body"]), fetch(api)["body"]
    with pytest.raises(RuntimeError), transaction.atomic():
        services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=3)
        assert _pending(swiss.slug) == {}  # not before the commit
        raise RuntimeError
    assert _pending(swiss.slug) == {}
    assert TOKEN.sub(b"", fetch(page)["body"]) == before_page
    assert fetch(api)["body"] == before_api


def test_a_commit_marks_and_queues_its_refresh_once(swiss, organiser, settings, monkeypatch):
    settings.PUBLIC_PAGES_REFRESH = True
    app = mock.MagicMock()
    monkeypatch.setattr(fresh, "current_app", app)
    slug = swiss.slug
    first_match, second_match = Match.objects.filter(round__tournament=swiss).order_by("table")[:2]
    before = time.time()
    services.enter_result(actor=organiser, match=first_match, home_eyes=12, away_eyes=3)
    after = time.time()
    # one task, though the commit renewed the tournament's version more than once
    app.signature.assert_called_once_with(fresh.REFRESH_TASK, args=(slug,))
    app.signature.return_value.apply_async.assert_called_once_with()
    assert fresh.refresh_claim(slug)
    assert not fresh.refresh_claim(slug)  # one worker at a time
    first = fresh.refresh_take(slug)
    assert first is not None and before <= first <= after  # marked when it committed
    assert fresh.refresh_take(slug) is None
    services.enter_result(actor=organiser, match=second_match, home_eyes=12, away_eyes=4)  # meanwhile
    assert app.signature.call_count == 2
    assert cache.get(f"fresh:pending:{slug}") == first  # readers' second counts from the first commit
    second = fresh.refresh_take(slug)  # the claimer's loop takes it too
    assert second is not None and second >= first
    assert cache.get(f"fresh:pending:{slug}") == second
    fresh.refresh_release(slug)
    assert _pending(slug) == {}
    fresh.renew_all()  # a rating learnt: every page moves; the ones refreshed lately are refreshed again
    assert app.signature.call_args_list[-1] == mock.call(fresh.REFRESH_TASK, args=(slug,))
    assert app.signature.call_count == 3


def test_a_reader_gets_the_value_before_for_at_most_refresh_wait(swiss, settings, monkeypatch):
    settings.PUBLIC_PAGES_REFRESH = True
    slug = swiss.slug
    # The wait is counted on a clock that moves only when the test moves it: a busy machine may
    # take longer than REFRESH_WAIT between two of these lines.
    clock = types.SimpleNamespace(now=time.time())
    monkeypatch.setattr(fresh, "time", types.SimpleNamespace(time=lambda: clock.now, monotonic=time.monotonic,
                                                             sleep=time.sleep))
    assert fresh.cached("probe", slug, lambda: ("old", True)) == "old"
    fresh.renew(slug=slug)  # a change committed (autocommit), its refresh queued (no worker here)
    assert fresh.cached("probe", slug, lambda: ("new", True)) == "old"  # the worker's turn
    assert fresh.cached("probe", slug, lambda: ("new", True), current=True) == "new"  # never for these
    fresh.renew(slug=slug)
    clock.now += fresh.REFRESH_WAIT + 0.01  # since the first change waiting for the worker
    assert fresh.cached("probe", slug, lambda: ("newer", True)) == "newer"  # too late: worked out here
    fresh.renew(slug=slug)
    with fresh.refreshing():  # the worker itself always works it out
        assert fresh.cached("probe", slug, lambda: ("newest", True)) == "newest"


def test_the_api_copy_is_what_drf_renders(swiss, site, organiser):
    """Without the worker too: the API's standings a visitor gets from the server's copy are DRF's
    rendering byte for byte, with its content type, after a result as before it."""
    _, reached = site
    api = f"/api/v1/tournaments/{swiss.slug}/standings/"
    services.enter_result(actor=organiser, match=_open_match(swiss), home_eyes=12, away_eyes=7)
    first, second = fetch(api), fetch(api)
    assert len(reached) == 1  # the second from the copy
    swiss.refresh_from_db()
    drf = JSONRenderer().render(StandingsSerializer(selectors.standings(tournament=swiss)).data)
    assert first["body"] == second["body"] == drf
    assert first["header"]["content-type"] == second["header"]["content-type"] == ["application/json"]
