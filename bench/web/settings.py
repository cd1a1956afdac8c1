"""Settings for bench/web/load.py: bench/server_settings.py (the project's settings as production
runs them) on the bench's own database and Redis.

The API's per-address limit (1,200 requests a minute, config/settings/base.py) would answer most of
a load generator's requests, all from 127.0.0.1, with 429; the bench lifts it, as it lifts nothing
else.
"""

from bench.server_settings import *  # noqa: F401,F403
from config.settings.base import REST_FRAMEWORK, env

DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/bilka_bench_web")}
DATABASES["default"]["CONN_MAX_AGE"] = 0  # as config/settings/prod.py
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "address": "1000000/min",
                               "token": "1000000/min"},
}
