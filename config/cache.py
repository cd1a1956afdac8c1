"""Django's Redis cache with one connection pool per process, not one per thread.

Django keeps a cache backend per thread (`django.core.cache.caches` is thread-local), and its
`RedisCacheClient` builds its connection pool on the backend. Under ASGI every request runs in a
thread of its own (`ThreadSensitiveContext`), so every request built a new pool and opened a new
TCP connection to Redis: on a cached standings page that connect was most of the request's time
(bench/web_load.py: 95 requests/s against 166 with the pool shared). Here the pools live in the
module, keyed by server and options, and every backend of the process draws from them; redis-py's
pool is thread-safe and renews itself in a forked child (Celery's prefork workers). The client
over each pool is kept too: a new ``redis.Redis`` builds its table of a few hundred reply parsers.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_pools: dict[tuple, object] = {}
_clients: dict[int, object] = {}
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write):
        index = self._get_connection_pool_index(write)
        key = (self._servers[index], self._pool_class, repr(sorted(self._pool_options.items())))
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    _pools[key] = pool
        return pool

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            with _lock:
                client = _clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedPoolClient
