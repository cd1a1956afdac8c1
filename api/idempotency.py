"""``Idempotency-Key`` on every write: a retried POST gets the first answer, never a second write.

A client that lost its connection after "pair the next round" cannot know whether the round was
paired; it sends the same request again with the same key and gets the answer the first one
got (with ``Idempotent-Replayed: true``). The key belongs to the caller's account; the same key
with another body or address is refused, as is a copy sent while the first is still running.
Only successful answers are kept (for ``IDEMPOTENCY_HOURS``): a refused write changed nothing, so
sending it again — corrected, or once the event is ready — simply runs it. A request that never
finished (its worker killed) frees its key after ``STALE_AFTER``.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import sent_once

from .models import IdempotentRequest

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200
IDEMPOTENCY_HOURS = 24
STALE_AFTER = timedelta(minutes=5)


class KeyInUse(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("A request with this Idempotency-Key is still being handled; try again in a moment.")


class KeyReused(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("This Idempotency-Key was already used for another request; use a new key.")


def _fingerprint(request) -> str:
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    digest.update(request._request.body)
    return digest.hexdigest()


def _key(request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not key or len(key) > MAX_KEY_LENGTH or any(not "!" <= c <= "~" for c in key):
        raise ParseError(
            _("The Idempotency-Key must be 1 to 200 characters: Latin letters, digits and punctuation, no spaces.")  # noqa: E501
        )
    return key


def claim(request) -> IdempotentRequest | None:
    """The row this request now owns, or None without a key; raises for a replay or a clash."""
    key = _key(request)
    if key is None or not request.user.is_authenticated:
        return None
    IdempotentRequest.objects.filter(
        user=request.user, created_at__lt=timezone.now() - timedelta(hours=IDEMPOTENCY_HOURS)
    ).delete()
    try:
        return sent_once.claim(
            IdempotentRequest,
            lookup={"user": request.user, "key": key},
            fingerprint=_fingerprint(request),
            stale_after=STALE_AFTER,
        )
    except sent_once.KeyClash as clash:
        raise KeyReused if clash.reused else KeyInUse from None


def settle(row: IdempotentRequest, response) -> None:
    """Keep a successful answer for the retries; free the key of any other."""
    if 200 <= response.status_code < 300:
        row.status_code = response.status_code
        row.body = response.data
        row.save(update_fields=["status_code", "body"])
    else:
        row.delete()


class Idempotent:
    """Mixed into every API view that writes (before DRF's view): its POSTs honour
    ``Idempotency-Key``."""

    _idempotent_row: IdempotentRequest | None = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # the key, its scope and the rate limits first
        self._idempotent_row = claim(request) if request.method == "POST" else None

    def handle_exception(self, exc):
        if isinstance(exc, sent_once.Answered):
            answer = Response(exc.row.body, status=exc.row.status_code)
            answer["Idempotent-Replayed"] = "true"
            return answer
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        row, self._idempotent_row = self._idempotent_row, None
        if row is not None:
            settle(row, response)
        return super().finalize_response(request, response, *args, **kwargs)


class WriteView(Idempotent, APIView):
    """An API view that writes."""
