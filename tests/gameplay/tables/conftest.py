"""Fixtures for the live-table tests: people, a four-person table, and tasks driven by hand.

Tasks are not queued by default (`GAMEPLAY_QUEUE_TASKS = False`): a test plays bots and clocks by
calling their services, or asks for the real Celery worker (`celery_worker_process`) and turns
queuing back on.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from gameplay import services
from gameplay.models import Seating


@pytest.fixture(autouse=True)
def _no_task_queue(settings):
    settings.GAMEPLAY_QUEUE_TASKS = False


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
