"""Schemathesis with an organiser's organising key (tests/api/test_api_schemathesis.py runs it
anonymously): the writes that run events are fuzzed too."""

from __future__ import annotations

import pytest

from .test_api_schemathesis import keeps_to_its_schema
from .test_api_schemathesis import seeded_site as seeded_site  # noqa: PLC0414 - the fixture, by name


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_api_keeps_to_its_schema_for_an_organiser(seeded_site, live_server, tmp_path):
    keeps_to_its_schema(live_server, tmp_path, "organiser")
