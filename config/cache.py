"""Django's Redis cache with one connection pool per process, not one per thread.

Django keeps a cache backend per thread (`django.core.cache.caches` is thread-local), and its
`RedisCacheClient` builds its connection pool on the backend. Under ASGI every request runs in a
thread of its own (`ThreadSensitiveContext`), so every request built a new pool and opened a new
TCP connection to Redis: on a cached standings page that connect was most of the request's time
(bench/web/load.py: 95 requests/s against 166 with the pool shared). Here the pools live in the
module, keyed by server and options, and every backend of the process draws from them; redis-py's
pool is thread-safe and renews itself in a forked child (Celery's prefork workers). The client
over each pool is kept too: a new ``redis.Redis`` builds its table of a few hundred reply parsers.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        name = (self._servers[index], self._pool_class, repr(sorted(self._pool_options.items())))
        client = _clients.get(name)
        if client is None:
            with _lock:
                client = _clients.get(name)
                if client is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    client = _clients[name] = self._client(connection_pool=pool)
        return client

    def _get_connection_pool(self, write):
        return self.get_client(write=write).connection_pool


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedPoolClient
