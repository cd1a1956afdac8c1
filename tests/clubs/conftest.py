"""Fixtures for club tests (the club and one user per role are in tests/conftest.py)."""

import pytest


@pytest.fixture
def client(client):
    """Pages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client
