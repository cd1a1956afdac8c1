"""Hostile bodies for every write the site takes, found from the URL conf (`routes.py`) and the
matrix's targets (`targets.py`), so that a new route is fuzzed without a line of test.

A *door* is a pattern's target and a write method (POST, and PUT or PATCH where a view has them).
Which doors take a body is found by asking: a probe as each of the matrix's people, and a door
whose view looked at the body for anyone (read its stream, its form or its raw bytes) is a door
that reads bodies; the rest answer the same whatever is sent (a page that treats POST as GET).
A door's fields are what the forms of its page name (as the people who see the most), what the
matrix's row sends, and for the API what its OpenAPI schema says of the request.

The pages' requests go through the CSRF check as a browser's do (a valid token sent), so that the
middleware parses every form body before the view, as in production. The bodies are in
`fuzz_cases.py`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any

from django.db import transaction
from django.test import Client

from tests.authz.asking import url_of
from tests.authz.routes import url_routes
from tests.authz.rows import ROWS
from tests.authz.targets import TARGETS
from tests.authz.world import World

WRITE_METHODS = ("POST", "PUT", "PATCH")
CSRF_TOKEN = "fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz"  # a valid secret: 32 letters
#: What the people who see the most are shown: their pages name the most fields (a visitor's, the
#: sign-in and sign-up pages'). Which people's bodies a door reads is probed as each of the seven
#: (`test_fuzz_writes.body_readers`).
FIELD_FINDERS = ("anonymous", "owner", "organiser", "seated")


@dataclass(frozen=True)
class Door:
    target: str
    method: str

    @property
    def api(self) -> bool:
        return self.target.startswith("api:")

    def __str__(self) -> str:
        return f"{self.method} {self.target}"


def doors() -> list[Door]:
    """Every write the URL conf takes: each pattern's targets (or the pattern itself) and method."""
    found = []
    for route in url_routes():
        names = [t for t in TARGETS if t.split("@")[0] == route.name] or [route.name]
        found += [Door(t, m) for m in route.methods if m in WRITE_METHODS for t in names]
    return found


@dataclass(frozen=True)
class Body:
    data: bytes
    content_type: str


@dataclass
class Answer:
    status: int
    read_body: bool = False
    error: str = ""


@dataclass
class Fields:
    """A door's fields: names with what the page or row fills in (`fixed`: the hidden ones and the
    buttons, which steer a view to what it does), and for the API their types."""

    values: dict[str, str] = field(default_factory=dict)
    fixed: set[str] = field(default_factory=set)
    types: dict[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return sorted(set(self.values) | set(self.types)) or ["text"]

    def open_with(self, value: object) -> dict[str, object]:
        """The page's form with `value` in every field a person types or chooses."""
        filled = {name: (given if name in self.fixed else value) for name, given in self.values.items()}
        return filled or {"text": value}

    def empty_with(self, value: object) -> dict[str, object]:
        """The page's form as it stands (its choices and dates as preset), `value` in its empty boxes."""
        return {name: given or value for name, given in self.values.items()} or {"text": value}


def _looked_at_body(request: Any) -> bool:
    return bool(
        getattr(request, "_read_started", False) or hasattr(request, "_body") or hasattr(request, "_post")
    )


def fuzz_client(world: World, role: str) -> Client:
    """A browser of `role`: its session, a CSRF cookie it sends back as the check asks, Russian."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="ru")
    if world.user(role) is not None:
        client.force_login(world.user(role))
    client.cookies["csrftoken"] = CSRF_TOKEN
    return client


def send(world: World, client: Client, role: str, door: Door, body: Body) -> Answer:
    """`body` sent through `door` as `role`; whatever it wrote rolled back, the cookies kept."""
    extra = {"HTTP_X_CSRFTOKEN": CSRF_TOKEN}
    if door.api and role in world.keys:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {world.keys[role]}"
    cookies = SimpleCookie(client.cookies)
    url = url_of(world, door.target)
    client.exc_info = None  # an exception the last request left behind is that request's
    with transaction.atomic():
        try:
            response = client.generic(door.method, url, body.data, content_type=body.content_type, **extra)
            if getattr(response, "streaming", False):
                b"".join(response.streaming_content)
        except Exception as exc:  # noqa: BLE001 - what a server error would be, with its words
            return Answer(status=500, error=f"{type(exc).__name__}: {str(exc)[:300]}")
        finally:
            transaction.set_rollback(True)
            client.cookies = cookies
    return Answer(status=response.status_code, read_body=_looked_at_body(response.wsgi_request))


class _FormNames(HTMLParser):
    """The named fields of a page's forms, with the value each is sent with as the page stands."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.fixed: set[str] = set()
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag in ("input", "textarea", "button", "select") and name and name != "csrfmiddlewaretoken":
            kind = a.get("type") or ""
            if tag == "button" or kind in ("hidden", "submit"):
                self.fixed.add(name)
            if kind in ("checkbox", "radio"):
                self.values.setdefault(name, a.get("value") or "on")
            else:
                self.values.setdefault(name, a.get("value") or "")
            self._select = name if tag == "select" else None
        elif tag == "option" and self._select and not self.values.get(self._select):
            self.values[self._select] = a.get("value") or ""


def page_fields(world: World, door: Door) -> Fields:
    """The fields the page at the door's address shows the people who see the most, with their
    values, and those of the matrix's row for the door."""
    fields = Fields()
    url = url_of(world, door.target)
    for row in ROWS:
        if row.target == door.target and row.method == door.method and row.data is not None:
            for name, value in row.data(world).items():
                fields.values[name] = value if isinstance(value, str) else json.dumps(value)
    for role in FIELD_FINDERS:
        with transaction.atomic():
            response = world.client(role).get(url)
            transaction.set_rollback(True)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            found = _FormNames()
            found.feed(response.content.decode(errors="replace"))
            for name, value in found.values.items():
                fields.values.setdefault(name, value)
            fields.fixed |= found.fixed
    if door.api:
        fields.types.update(api_fields(url, door.method))
    return fields


@cache
def _schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def api_fields(url: str, method: str) -> dict[str, str]:
    """The request's fields and their types as the API's OpenAPI schema gives them."""
    schema = _schema()
    for path, operations in schema["paths"].items():
        if not re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", path), url):
            continue
        body = operations.get(method.lower(), {}).get("requestBody", {})
        ref = body.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
        properties = schema["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
        return {name: spec.get("type", "string") for name, spec in properties.items()}
    return {}
