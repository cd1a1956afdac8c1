"""The cache keeps one Redis connection pool per process (config/cache.py).

Django's cache backends are per thread, and under ASGI each request runs in a thread of its own:
with Django's own Redis backend every request opened a new pool and a new connection.
"""

from __future__ import annotations

import threading

from django.core.cache import cache, caches


def _in_threads(n, work):
    results, errors = [None] * n, []

    def run(i):
        try:
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            caches.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    return results


def test_every_thread_draws_from_one_pool():
    cache.set("shared-pool", "here", 30)

    def work(i):
        backend = caches["default"]
        assert backend.get("shared-pool") == "here"
        backend.set(f"shared-pool-{i}", i, 30)
        # The objects themselves, not their ids: a finished thread's backend may be freed and its
        # id handed to the next thread's, which made the count flaky on a busy machine.
        return backend, backend._cache._get_connection_pool(True)

    seen = _in_threads(12, work)
    assert len({id(backend) for backend, _ in seen}) == 12  # Django's per-thread backends, as before
    assert len({id(pool) for _, pool in seen}) == 1  # ... drawing from one pool
    assert cache.get_many([f"shared-pool-{i}" for i in range(12)]) == {
        f"shared-pool-{i}": i for i in range(12)}


def test_threads_one_after_another_reuse_one_connection():
    """A request per thread, one at a time (as ASGI serves them): no new connection to Redis each."""
    cache.get("warm")
    server = cache._cache.get_client(write=True)
    before = server.info("stats")["total_connections_received"]
    for i in range(20):
        _in_threads(1, lambda _i, i=i: caches["default"].set(f"one-after-{i}", i, 30))
    made = server.info("stats")["total_connections_received"] - before
    assert made < 5  # Django's own backend: 20, one a thread
