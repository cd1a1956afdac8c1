"""Settings for bench/ws/load.py: the project's settings with the channel layer chosen by BENCH_LAYER.

BENCH_LAYER=pubsub (channels_redis.pubsub.RedisPubSubChannelLayer, the default of config.settings)
or redis (channels_redis.core.RedisChannelLayer, for comparison). Every move queues its move-clock
task in Celery as on the site (BENCH_TASKS=0 leaves them out), on the Redis of REDIS_URL; the
benchmark starts a worker that runs them. BENCH_GC_FREEZE=1 freezes the objects left after startup
out of the garbage collector's view (config/asgi.py).
"""

import os

from bench.server_settings import *  # noqa: F401,F403
from config.settings.base import REDIS_URL, channel_layer_host, env

DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka_bench")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("BENCH_CONN_MAX_AGE", default=0)
_prefix = os.environ.get("BENCH_PREFIX", "bilka-bench")
if os.environ.get("BENCH_LAYER", "pubsub") == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)], "prefix": _prefix},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)], "prefix": _prefix, "capacity": 1000},
        }
    }
GAMEPLAY_QUEUE_TASKS = os.environ.get("BENCH_TASKS", "1") != "0"
GAMEPLAY_FLOOD_LIMITS = os.environ.get("BENCH_FLOOD_LIMITS", "1") != "0"  # bench.ws.load --flood
# Every bench socket comes from 127.0.0.1 (the site's phones come from many addresses): the watchers,
# which have no session, are counted by address, so that allowance is widened here.
GAMEPLAY_FLOOD_ADDRESS_FACTOR = 1000.0
GAMEPLAY_BOT_PAUSE = 0.0
GAMEPLAY_BOT_PAUSE_SPREAD = 0.0
GAMEPLAY_CLOCK_SCALE = float(os.environ.get("BENCH_CLOCK_SCALE", "1"))  # --move-seconds

if os.environ.get("BENCH_GC_LOG"):
    # Log every garbage collection that takes 2 ms or more: (pid, generation, ms, monotonic time).
    import gc as _gc
    import time as _time

    _gc_log = open(os.environ["BENCH_GC_LOG"], "a", buffering=1)  # noqa: SIM115 - open for the server's life
    _gc_started = [0.0, 0.0, 0]

    def _gc_watch(phase: str, info: dict) -> None:
        if phase == "start":
            _gc_started[:] = [_time.perf_counter(), _time.thread_time(), _gc.get_count()[0]]
        else:
            took = _time.perf_counter() - _gc_started[0]
            if took >= 0.002:
                cpu = _time.thread_time() - _gc_started[1]
                _gc_log.write(f"{os.getpid()} {info['generation']} {1000 * took:.1f} {_time.monotonic():.3f} "
                              f"cpu={1000 * cpu:.1f} young={_gc_started[2]} collected={info['collected']}\n")

    _gc.callbacks.append(_gc_watch)

if os.environ.get("BENCH_GC_GARBAGE"):
    # What the collector finds unreachable (reference cycles), by kind: a frame by the function it
    # ran, so the code that leaves cycles behind can be found. Each collection's garbage is counted
    # into the file named, one line per collection with garbage, then let go.
    import collections as _collections
    import gc as _gcg

    _garbage_log = open(os.environ["BENCH_GC_GARBAGE"], "a", buffering=1)  # noqa: SIM115 - open for the server's life
    _gcg.set_debug(_gcg.DEBUG_SAVEALL)

    def _garbage_kind(obj: object) -> str:
        if type(obj).__name__ == "frame":
            return f"frame:{obj.f_code.co_qualname}@{os.path.basename(obj.f_code.co_filename)}"  # type: ignore[attr-defined]
        if type(obj).__name__ == "coroutine":
            return f"coroutine:{obj.__qualname__}"  # type: ignore[attr-defined]
        return type(obj).__qualname__

    def _garbage_watch(phase: str, info: dict) -> None:
        if phase != "stop" or not _gcg.garbage:
            return
        kinds = _collections.Counter(_garbage_kind(o) for o in _gcg.garbage)
        _gcg.garbage.clear()
        _garbage_log.write(f"{os.getpid()} {info['generation']} {sum(kinds.values())} "
                           + "; ".join(f"{k}={n}" for k, n in kinds.most_common(60)) + "\n")

    _gcg.callbacks.append(_garbage_watch)

if os.environ.get("BENCH_QUERIES"):
    # SQL statements and transactions counted by kind in every process (bench/ws/queries.py, --costs)
    from bench.ws import queries as _queries

    _queries.install(os.environ["BENCH_QUERIES"])
