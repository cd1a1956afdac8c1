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


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_window_slides_and_keeps_two_counters_not_every_request(rf, settings, monkeypatch):
    """3 a minute: three requests late in one minute still weigh on the first seconds of the next,
    less and less; what is kept is a count per minute, however many requests there were."""
    from django.core.cache import cache

    from api.throttles import PerAddress

    _rates(settings, token="1000/min", address="3/min")
    clock = _Clock(60 * 1000 + 50)  # 50 s into a minute
    monkeypatch.setattr(PerAddress, "timer", clock)

    def asks() -> bool:
        throttle = PerAddress()
        allowed = throttle.allow_request(rf.get("/api/v1/clubs/", REMOTE_ADDR="10.9.9.9"), None)
        return allowed or -round(throttle.wait(), 6)

    assert [asks() for _ in range(4)] == [True, True, True, -10.0]  # full until the minute ends
    clock.now += 20  # 10 s into the next: the last minute's 3 weigh 2.5
    assert asks() is True  # 2.5 + 0 < 3
    refused = asks()  # 2.5 + 1 = 3.5
    assert refused == -10.0  # at 20 s in the 3 weigh 2, and 2 + 1 is 3 no more
    clock.now += 40  # 50 s in: the 3 weigh 0.5
    assert [asks(), asks(), asks()] == [True, True, -10.0]  # 0.5 + 2 < 3, then 0.5 + 3: full
    kept = cache.get_many([PerAddress().get_cache_key(rf.get("/", REMOTE_ADDR="10.9.9.9"), None)
                           + f":{1000 + k}" for k in (0, 1)])
    assert sorted(kept.values()) == [3, 3]


def test_a_new_forwarded_for_on_every_request_is_still_one_address(api, settings):
    """No proxy is trusted by default: X-Forwarded-For written by the caller makes no new caller."""
    _rates(settings, token="1000/min", address="5/min")
    answers = [api.get(reverse("api:club_list"), REMOTE_ADDR="198.51.100.40",
                       HTTP_X_FORWARDED_FOR=f"10.{n}.{n}.{n}").status_code for n in range(7)]
    assert answers == [200] * 5 + [429] * 2


def test_behind_a_trusted_proxy_each_client_has_its_own_allowance(api, settings):
    _rates(settings, token="1000/min", address="2/min")
    settings.TRUSTED_PROXIES = ["10.0.0.2"]

    def through_proxy(client_at: str, forged: str = "6.6.6.6") -> int:
        return api.get(reverse("api:club_list"), REMOTE_ADDR="10.0.0.2",
                       HTTP_X_FORWARDED_FOR=f"{forged}, {client_at}").status_code

    # what the client writes before the proxy's entry is his own invention: not a new caller
    assert [through_proxy("203.0.113.40", forged=f"6.6.6.{n}") for n in range(3)] == [200, 200, 429]
    assert through_proxy("203.0.113.41") == 200  # another client behind the same proxy
    # a request straight from the client, not through the proxy, is counted as what it is
    assert api.get(reverse("api:club_list"), REMOTE_ADDR="203.0.113.42",
                   HTTP_X_FORWARDED_FOR="203.0.113.40").status_code == 200
