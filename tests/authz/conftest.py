"""The matrix's world, built once per test module and rolled back after it."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.authz.world import World, build_world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    with django_db_blocker.unblock(), transaction.atomic():
        built = build_world()
        yield built
        transaction.set_rollback(True)

