"""Too many requests get 429 with Retry-After: counted per key, and per address for everyone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


def _rates(settings, token: str, address: str) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        "token": token, "address": address}}  # fmt: skip


def test_a_key_over_its_rate_is_told_to_wait(api, settings, organiser, member):
    _rates(settings, token="3/min", address="1000/min")
    key = key_for(organiser)
    answers = [api.get(reverse("api:club_list"), **bearer(key)).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = api.get(reverse("api:club_list"), **bearer(key))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    # Another key from the same address still has its own allowance.
    assert api.get(reverse("api:club_list"), **bearer(key_for(member))).status_code == 200


def test_an_address_over_its_rate_is_told_to_wait_with_or_without_a_key(api, settings, organiser):
    _rates(settings, token="1000/min", address="2/min")
    assert [api.get(reverse("api:club_list")).status_code for _ in range(3)] == [200, 200, 429]
    assert api.get(reverse("api:club_list"), **bearer(key_for(organiser))).status_code == 429
    other = api.get(reverse("api:club_list"), REMOTE_ADDR="10.1.2.3")
    assert other.status_code == 200
