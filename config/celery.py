"""The Celery app: broker and results in Redis, periodic plans in django-celery-beat.

Database connections in the worker: Celery's Django fix-up closes them before and after every
task, so each task used to open a new PostgreSQL connection (a new server process, about as
costly as the task). Most tasks are the live tables' move clocks, one per move, nearly all stale
by the time they run (bench/ws/load.py: the move latency's p50 rose from 8 to 12 ms when they
started firing). A prefork child runs one task at a time in one thread, so it keeps its
connection (`WORKER_CONN_MAX_AGE` seconds, with Django's health check) and, before each
task, drops it only when it is broken or too old (`close_old_connections`, as Django does per
request). The fix-up still closes it every `CELERY_DB_REUSE_MAX` tasks. Other pools (solo,
threads) keep `CONN_MAX_AGE` as set, 0: a connection per task, as before.

The strong bots' worker (bin/site sets BILKA_BOT_WORKER=1 for it) times the double-dummy solver
once as it starts, before its pool forks, so every process knows the solver's speed before its
first decision (`strong_bot.COSTS`); without it a strong bot plays the beginner's card until its
own solves have taught it. Timing it in a task would make that task's reply late by seconds.

The worker's garbage collector is settled as the server's is (`config/collector.py`).
"""

import logging
import os
import time

from celery import Celery
from celery.signals import task_prerun, worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("bilka")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _keep_database_connections(**kwargs):
    from django.conf import settings

    for database in settings.DATABASES.values():
        if database.get("ENGINE", "").endswith("sqlite3"):
            continue  # a file, nothing to open; and CONN_MAX_AGE only matters to servers
        database["CONN_MAX_AGE"] = getattr(settings, "WORKER_CONN_MAX_AGE", 300)
        database["CONN_HEALTH_CHECKS"] = True


@task_prerun.connect
def _drop_broken_or_old_connections(**kwargs):
    from django.db import close_old_connections

    close_old_connections()


@worker_init.connect
def _time_the_solver_for_strong_bots(**kwargs):
    if not os.environ.get("BILKA_BOT_WORKER"):
        return
    from django.conf import settings

    from gameplay.engine import strong_bot

    began = time.monotonic()
    strong_bot.COSTS.calibrate(float(settings.BOT_BUDGET))
    logging.getLogger(__name__).warning(
        "strong bots: the solver timed up to %s cards in %.1f s", max(strong_bot.COSTS.slowest, default=0),
        time.monotonic() - began)


@worker_init.connect
def _settle_the_collector(**kwargs):
    """The worker's process that takes tasks from the broker leaves Kombu's promises in reference
    cycles by the hundred thousand a run (bench/ws/load.py, BENCH_GC_GARBAGE), and with Python's
    defaults its collector walked Django's own objects in full passes of 200-330 ms every minute
    or so, a core taken from the live tables on a small machine: freeze what start-up left, so
    those passes walk only what came after (config/collector.py); its young generation keeps
    Python's threshold, for the cycles it makes. Before the pool forks, so its children start so
    too."""
    from config import collector

    collector.settle(raise_young=False)
