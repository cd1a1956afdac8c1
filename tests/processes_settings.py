"""Settings of the server and worker processes that tests/processes.py starts for one test's site.

The test settings (the test database, this run's channel-layer prefix, bots without a pause), with:

- the Celery queues, the control exchange and the cache of that one site (`BILKA_SITE_ID`): its
  workers take only its tasks, its /health/ pings only its workers, and a session worker of the
  test run (tests/conftest.py) never takes them; the test process uses the same cache when it
  changes rows the site's pages show (`Site.cache_settings`);
- the live tables' moves in worker processes of their own, as in production
  (`GAMEPLAY_MOVE_PROCESSES`, 1 by default; the test settings run them in threads);
- frame limits far above the defaults: the tests' players answer as fast as the bots do, which no
  person does (the limits have their own tests, tests/gameplay/tables/test_tables_flood.py).
"""

from config.settings.test import *  # noqa: F401,F403
from config.settings.test import REDIS_URL, RUN_ID, env, redis_cache

SITE_ID = env("BILKA_SITE_ID")
SITE_PREFIX = f"bilka-test-{RUN_ID}-{SITE_ID}"

CELERY_TASK_DEFAULT_QUEUE = SITE_PREFIX
BOT_QUEUE = f"{SITE_PREFIX}-bots"
CELERY_CONTROL_EXCHANGE = SITE_PREFIX
CACHES = redis_cache(REDIS_URL, SITE_PREFIX)

GAMEPLAY_MOVE_PROCESSES = env.int("GAMEPLAY_MOVE_PROCESSES", default=1)

GAMEPLAY_FLOOD_SOCKET_RATE = 1000.0
GAMEPLAY_FLOOD_SOCKET_BURST = 5000.0
GAMEPLAY_FLOOD_VIEWER_RATE = 1000.0
GAMEPLAY_FLOOD_VIEWER_BURST = 5000.0
