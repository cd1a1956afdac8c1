"""Asking the site as one of the matrix's people: one request, its writes rolled back after it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

from django.db import transaction
from django.urls import reverse

from tests.authz.targets import TARGETS
from tests.authz.world import World

SIGN_IN = "/accounts/login/"


@dataclass(frozen=True)
class Answer:
    status: int
    location: str
    body: bytes
    seen: Any = None


def url_of(world: World, target: str) -> str:
    made = TARGETS[target](world) if target in TARGETS else {}
    if isinstance(made, str):
        return made
    return reverse(target.split("@")[0], kwargs=made)


def ask(world: World, role: str, method: str, url: str, *, data: dict[str, Any] | None = None,
        after: Callable[[], Any] | None = None) -> Answer:
    """`role`'s `method` request of `url`: pages with the role's session, the API with its key.
    Whatever the request wrote is rolled back (the session cookie too), so every row meets the
    same world; `after` runs before that, and its value is the answer's `seen`."""
    client = world.client(role)
    extra = {}
    api = url.startswith("/api/v1/")
    if api and role in world.keys:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {world.keys[role]}"
    call = getattr(client, method.lower())
    cookies = SimpleCookie(client.cookies)  # a sign-out or a new session must not outlive the request
    with transaction.atomic():
        if method == "GET":
            response = call(url, **extra)
        elif api:
            response = call(url, data=json.dumps(data or {}), content_type="application/json", **extra)
        elif method == "POST":
            response = call(url, data or {}, **extra)
        else:
            response = call(url, **extra)
        seen = after() if after is not None else None
        transaction.set_rollback(True)
    client.cookies = cookies
    body = b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content
    return Answer(status=response.status_code, location=response.get("Location", ""), body=body, seen=seen)


def outcome(answer: Answer) -> int | str:
    """The matrix's word for an answer: its status, or "login" / "redirect" for a 302."""
    if answer.status in (301, 302, 303):
        return "login" if answer.location.startswith(SIGN_IN) else "redirect"
    return answer.status
