"""Fixtures for the live-table tests: people, a four-person table, and tasks driven by hand.

Tasks are not queued by default (`GAMEPLAY_QUEUE_TASKS = False`): a test plays bots and clocks by
calling their services, or asks for the real Celery worker (`celery_worker_process`) and turns
queuing back on.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from gameplay import services
from gameplay.models import Seat, Seating, Table


@pytest.fixture(autouse=True)
def _no_task_queue(settings):
    settings.GAMEPLAY_QUEUE_TASKS = False
    # sockets close their database connection after each call here, so that the test database
    # can be dropped at the end (the browser tests and the benchmark run the reusing path)
    settings.GAMEPLAY_SOCKET_DB_REUSE = False


@pytest.fixture
def people(db):
    User = get_user_model()
    return [User.objects.create_user(username=f"p{i}", password="x-secret-1") for i in range(5)]


@pytest.fixture
def table4(people):
    """A started table with four signed-in people at N, E, S, W (seated in order)."""
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """A new channel-layer instance per test: its receive lock binds to one event loop, and
    pytest-asyncio gives every test a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session", autouse=True)
def _end_stray_connections(django_db_setup, django_db_blocker):
    """Socket tests leave connections in worker threads of closed event loops; end them so the
    test database can be dropped at the end of the run."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def dealt_table4(people):
    """`table4` with its deals fixed: the shuffle seed and the four client seeds are set before the
    match starts, so a test that plays random moves from a seeded rng plays the same match on every
    run (with the OS's seeds, one match in fifty or so ends at once in a Lucy)."""
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    Table.objects.filter(pk=table.pk).update(shuffle_seed="5a" * 32)
    Seat.objects.filter(table=table).update(client_seed="fixed N")
    for letter, user in zip("ESW", people[1:4], strict=True):
        services.sit(table_id=table.pk, user=user, client_seed=f"fixed {letter}")
    table.refresh_from_db()
    return table
