"""Requests counted per key and per address, in the shared cache (Redis).

Rates are read from the settings on each request, not once at import, so a setting changed for a
test (or by a deploy) applies at once.

Counted as a sliding window of two counters (the rate's period now, and the one before weighed by
how much of it the last period still covers), not as DRF's list of every request's time: that list
is read, trimmed and written whole on every request, up to 1,200 times a minute for one address,
and its cost grew with the traffic it was there to bound (bench/web/load.py). Refused requests are
not counted, as in DRF. The counters are Redis integers, which Django's cache reads as they are.
"""

from __future__ import annotations

import math

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from clubs.addresses import client_address
from clubs.models import ApiToken


class _SettingsRate(SimpleRateThrottle):
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        """The client's address as the site reads it (``clubs.addresses``: X-Forwarded-For only from
        the proxies in TRUSTED_PROXIES), never DRF's own reading of the header."""
        return client_address(request)

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        period = math.floor(now / self.duration)
        self._into = now / self.duration - period  # how far into this period, 0..1
        cache = self.cache
        current = cache.make_and_validate_key(f"{self.key}:{period}")
        previous = cache.make_and_validate_key(f"{self.key}:{period - 1}")
        # One round trip: count this request, keep the counter two periods, read the one before.
        # (Four before: the visitors' copies of the API's standings spent half their time here.)
        pipe = cache._cache.get_client(current, write=True).pipeline(transaction=False)
        pipe.incr(current)
        pipe.expire(current, 2 * self.duration)
        pipe.get(previous)
        counted, _, before = pipe.execute()
        self._current, self._previous = counted - 1, int(before or 0)
        if self._previous * (1 - self._into) + self._current >= self.num_requests:
            cache._cache.get_client(current, write=True).decr(current)  # refused: not counted
            return False
        return True

    def wait(self):
        """Seconds until the window has room for one more request again (at least one)."""
        room = self.num_requests - self._current
        if room <= 0 or not self._previous:  # this period alone is full: wait for the next
            seconds = (1 - self._into) * self.duration
        else:  # the previous period's weight must fall until `room` is more than it
            seconds = (1 - room / self._previous - self._into) * self.duration
        return max(1.0, seconds)


class PerToken(_SettingsRate):
    """Each key has its own allowance, whoever uses it and from wherever."""

    scope = "token"

    def get_cache_key(self, request, view):
        if not isinstance(request.auth, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}


class PerAddress(_SettingsRate):
    """Every caller, with a key or without, is also counted by address (``clubs.addresses``)."""

    scope = "address"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
