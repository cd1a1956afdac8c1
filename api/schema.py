"""The refusals every operation may give, added to the OpenAPI schema in one place (errors.py's shape)."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerKey(OpenApiAuthenticationExtension):
    """The key from the account page, sent as ``Authorization: Bearer <key>``."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerKey"

    def get_security_definition(self, auto_schema):
        """What Swagger UI's Authorize dialog shows: the header's exact form and where keys come from."""
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "API key",
            "description": (
                # Swagger UI reads this as Markdown: in a code span <key> stays text, not a tag.
                "Send: `Authorization: Bearer <key>` (type the key alone in the box below). Keys are made and"
                " revoked on your profile page, /me/. A read needs no key; with one it reads as its"
                " owner. Entering results needs a key that may write."
            ),
        }


ERROR = {
    "type": "object",
    "properties": {
        "detail": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    },
    "required": ["detail"],
}

NO_NUL = "^[^\\x00]*$"
_REF = {"$ref": "#/components/schemas/Error"}
_WORDS = {
    "400": "The request is malformed (see fields).",
    "401": "The key is missing (for a write), unknown or revoked.",
    "403": "The key may not do this, or its owner may not.",
    "404": "Not found, or not visible to this caller.",
    "409": (
        "The game's rules or the state of the match or event refuse it (already confirmed, an impossible"
        " score, a player already entered, a full or finished event), or the Idempotency-Key is in use"
        " or was used for another request."
    ),
    "429": "Too many requests for this key or address; wait Retry-After seconds.",
}


IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[\\x21-\\x7e]+$"},
    "description": (
        "Any unique string (a UUID). A retry with the same key gets the first successful answer"
        " (header Idempotent-Replayed: true) instead of writing twice; the same key with another"
        " body is refused with 409. Keys are kept 24 hours."
    ),
}


def _error(code: str) -> dict:
    answer = {"description": _WORDS[code], "content": {"application/json": {"schema": _REF}}}
    if code == "429":
        answer["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "required": False}}
    return answer


def add_error_responses(result, generator, request, public):
    """Every operation: 401 (a bad key is refused even for a read), 404, 429; with parameters or
    a body, 400; a write, 403 and 409. Text filters say they take no NUL character."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "query" and schema.get("type") == "string" and not (
                    {"enum", "format", "pattern"} & schema.keys()
                ):
                    schema["pattern"] = NO_NUL  # Django's forms refuse a NUL character (400)
            codes = ["401", "404", "429"]
            if operation.get("parameters") or operation.get("requestBody"):
                codes.append("400")
            if method.lower() == "post":
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
            if method.lower() not in ("get", "head", "options"):
                codes += ["403", "409"]
                operation["security"] = [{"bearerKey": []}]
            else:
                operation["security"] = [{"bearerKey": []}, {}]  # a read needs no key
            for code in codes:
                operation["responses"].setdefault(code, _error(code))
    return result
