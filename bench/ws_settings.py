"""Settings for bench/ws_load.py: the project's settings with the channel layer chosen by BENCH_LAYER.

BENCH_LAYER=redis (RedisChannelLayer, the default of config.settings) or pubsub
(channels_redis.pubsub.RedisPubSubChannelLayer). No Celery tasks are queued: the benchmark moves
for every seat itself.
"""

import os

from config.settings.base import *  # noqa: F401,F403
from config.settings.base import REDIS_URL, channel_layer_host, env

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka_bench")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("BENCH_CONN_MAX_AGE", default=0)
_prefix = os.environ.get("BENCH_PREFIX", "bilka-bench")
if os.environ.get("BENCH_LAYER", "redis") == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL}], "prefix": _prefix},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)], "prefix": _prefix, "capacity": 1000},
        }
    }
GAMEPLAY_QUEUE_TASKS = False
WHITENOISE_USE_FINDERS = True
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
