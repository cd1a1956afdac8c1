"""A Celery prefork child keeps its PostgreSQL connection across tasks and replaces a broken one
(config/celery.py): a new connection per task cost as much as the move-clock task itself."""

from __future__ import annotations

import pytest
from django.db import connection, connections

from config import celery as celery_config


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.fixture
def worker_child_settings():
    saved = {alias: dict(connections[alias].settings_dict) for alias in connections}
    celery_config._keep_database_connections()  # what worker_process_init runs in a prefork child
    connection.close()  # the next query connects with the child's settings
    yield
    connection.close()
    for alias, values in saved.items():
        connections[alias].settings_dict.clear()
        connections[alias].settings_dict.update(values)


@pytest.mark.django_db(transaction=True)
def test_a_worker_child_keeps_its_connection_between_tasks(worker_child_settings):
    assert connection.settings_dict["CONN_MAX_AGE"] > 0 and connection.settings_dict["CONN_HEALTH_CHECKS"]
    first = _backend_pid()
    for _task in range(3):
        celery_config._drop_broken_or_old_connections()  # task_prerun
        assert _backend_pid() == first


@pytest.mark.django_db(transaction=True)
def test_a_worker_child_replaces_a_connection_the_server_dropped(worker_child_settings):
    first = _backend_pid()
    other = connection.get_new_connection(connection.get_connection_params())  # a second session
    try:
        other.execute("SELECT pg_terminate_backend(%s)", [first])
    finally:
        other.close()
    celery_config._drop_broken_or_old_connections()  # the next task starts
    assert _backend_pid() != first  # the health check found it dead and reconnected; no error


@pytest.mark.django_db(transaction=True)
def test_outside_a_prefork_child_each_task_gets_a_new_connection():
    assert connection.settings_dict["CONN_MAX_AGE"] == 0  # solo and thread pools: as before
    first = _backend_pid()
    celery_config._drop_broken_or_old_connections()
    assert _backend_pid() != first


def test_a_worker_settles_its_garbage_collector_before_the_pool_forks(monkeypatch):
    """Full passes of 200-330 ms over Django's objects in the worker took a core from the live
    tables every minute or so (bench/ws/load.py BENCH_GC_LOG): the worker settles its collector as
    the server does, when it starts (worker_init, before the prefork children are made)."""
    from celery.signals import worker_init

    from config import collector

    assert celery_config._settle_the_collector in [ref() for _key, ref in worker_init.receivers]
    settled = []
    monkeypatch.setattr(collector, "settle", lambda **kwargs: settled.append(kwargs) or True)
    celery_config._settle_the_collector()  # not the signal: Celery's Django fix-up wants a real worker
    assert settled == [{"raise_young": False}]  # its Kombu cycles would pile up in the middle generation
