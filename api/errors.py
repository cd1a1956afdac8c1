"""Every refusal as one JSON shape, ``{"detail": "...", "fields": {...}}``, in the request's language.

A service's PermissionDenied is 403 with the service's own words. A service's ValidationError is a
well-formed request the game's rules or the match's state refuse (a confirmed result, a score
that cannot end a match, a player already entered or not there at all): 409 Conflict, kept apart
from 400, which says the request itself is malformed (a missing field, a number that is not one),
as DRF's serializers find. Whatever the schema cannot say is refused with 409, never 400."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


def _text(detail) -> str:
    if isinstance(detail, dict):
        return " ".join(_text(v) for v in detail.values())
    if isinstance(detail, list):
        return " ".join(_text(v) for v in detail)
    return _sendable(str(detail))


def _sendable(text: str) -> str:
    """A message that quotes the request (DRF's "… is not a valid choice") may hold half a
    surrogate pair, which no UTF-8 answer can carry: it is shown escaped, never a server error."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _fields(detail) -> dict[str, list[str]]:
    if not isinstance(detail, dict):
        return {}
    return {str(k): [_text(x) for x in v] if isinstance(v, list) else [_text(v)] for k, v in detail.items()}


def handle(exc, context):
    """DRF's handler, with the services' Django exceptions turned into answers first."""
    if isinstance(exc, DjangoValidationError):
        body = {"detail": _sendable(" ".join(exc.messages))}
        if hasattr(exc, "error_dict"):  # refused by field: which of the request's values it was
            body["fields"] = {str(k): [_sendable(str(m)) for m in v] for k, v in exc.message_dict.items()}
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoPermissionDenied):
        text = str(exc) or _("You may not do this.")
        return Response({"detail": text}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = exception_handler(exc, context)
    if response is None:
        return None
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    body = {"detail": _text(detail)}
    if isinstance(exc, exceptions.ValidationError):
        body = {"detail": _("The request is not valid."), "fields": _fields(detail)}
        if not body["fields"]:
            body["detail"] = _text(detail) or body["detail"]
    response.data = body
    return response
