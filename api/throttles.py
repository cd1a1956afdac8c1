"""Requests counted per key and per address, in the shared cache (Redis), as DRF's throttles do.

Rates are read from the settings on each request, not once at import, so a setting changed for a
test (or by a deploy) applies at once."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from clubs.models import ApiToken


class _SettingsRate(SimpleRateThrottle):
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class PerToken(_SettingsRate):
    """Each key has its own allowance, whoever uses it and from wherever."""

    scope = "token"

    def get_cache_key(self, request, view):
        if not isinstance(request.auth, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}


class PerAddress(_SettingsRate):
    """Every caller, with a key or without, is also counted by address (behind the trusted proxies)."""

    scope = "address"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
