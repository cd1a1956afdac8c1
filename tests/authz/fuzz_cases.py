"""The hostile bodies of the fuzz test (`fuzz.py`): a fixed set for a page's form and one for the
API's JSON, each made from the door's fields. A page's cases put each hostile value into every
field, into the page's own form (its hidden fields and buttons kept, so that the view goes where
the page would send it), and into the boxes the page leaves empty (the rest as the page presets
it, so that the form is valid but for them). What Django refuses before any view, the same for every
page (a body over its limits, a charset other than UTF-8, multipart that does not parse), is
tests/config/test_bad_requests.py's."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from tests.authz.fuzz import Body, Door, Fields

DEEP = "[" * 1000 + "]" * 1000  # the audit's 2 KB body
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000
JUNK = bytes(range(256)) * 4
LONG = "ж" * 5000  # longer than any field of the site takes
UNKNOWN = ("__proto__", "id", "pk", "user", "is_staff", "is_superuser", "club_id", "role", "../x", "a" * 300)
JSON = "application/json"


def form(values: dict[str, Any]) -> Body:
    return Body(encode_multipart(BOUNDARY, values), MULTIPART_CONTENT)


def urlencoded(raw: bytes) -> Body:
    return Body(raw, "application/x-www-form-urlencoded")


def every(fields: Fields, value: Any) -> Body:
    return form({name: value for name in fields.names})


def in_the_page(fields: Fields, value: Any) -> Body:
    """The page's form with `value` in every field a person fills in or chooses."""
    return form(fields.open_with(value))


def in_the_boxes(fields: Fields, value: Any) -> Body:
    """The page's form as it stands, `value` in the boxes it leaves empty: valid but for them."""
    return form(fields.empty_with(value))


def upload(name: str, content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, "application/octet-stream")


def files(fields: Fields, content: bytes) -> Body:
    names = [*fields.names, "file", "files"]
    return form({name: upload(f"{name[:20]}.json", content) for name in names})


def huge(fields: Fields) -> Body:
    """Every field as long as 400 KB in all allows (Django's own limit, 2.5 MB, is a case of its own)."""
    return every(fields, "ж" * min(100_000, 200_000 // len(fields.names)))


FORM_CASES: dict[str, Callable[[Fields], Body]] = {
    "nothing": lambda f: urlencoded(b""),
    "blank fields": lambda f: every(f, ""),
    "the page's own form": lambda f: form(f.values),
    "deep JSON in every field": lambda f: every(f, DEEP),
    "deep JSON in the page's form": lambda f: in_the_page(f, DEEP),
    "deep JSON in the page's empty boxes": lambda f: in_the_boxes(f, DEEP),
    "deep JSON as the body": lambda f: Body(DEEP.encode(), JSON),
    "huge fields": huge,
    "5,000 characters in the page's empty boxes": lambda f: in_the_boxes(f, LONG),
    "NUL in every field": lambda f: every(f, "a\x00b"),
    "NUL in the page's empty boxes": lambda f: in_the_boxes(f, "a\x00b"),
    "control and bidi characters in the page's empty boxes": lambda f: in_the_boxes(
        f, "\u202e\u200b\x01\x7f\ufeff"
    ),
    "binary body": lambda f: Body(JUNK, "application/octet-stream"),
    "invalid UTF-8, urlencoded": lambda f: urlencoded(
        b"&".join(n.encode() + b"=%FF%ED%A0%80" for n in f.names)
    ),
    "numbers too large in the page's form": lambda f: in_the_page(f, "9" * 40),
    "negative numbers in every field": lambda f: every(f, "-1"),
    "NaN and infinity in the page's form": lambda f: in_the_page(f, "1e309"),
    "impossible dates in the page's form": lambda f: in_the_page(f, "99999-02-31"),
    "each field twice": lambda f: form({name: ["1", DEEP] for name in f.names}),
    "unknown fields with the page's form": lambda f: form({**f.values, **dict.fromkeys(UNKNOWN, "1")}),
    "binary files in every field": lambda f: files(f, JUNK),
    "empty files": lambda f: files(f, b""),
    "deep JSON files": lambda f: files(f, DEEP.encode()),
    "a file over a record's size": lambda f: form({**f.values, "file": upload("big.json", b" " * 1_000_001)}),
}


def as_json(value: Any) -> Body:
    return Body(json.dumps(value).encode(), JSON)


def json_every(fields: Fields, value: Any) -> Body:
    return as_json(dict.fromkeys(fields.names, value))


def raw_json(fields: Fields, literal: str) -> Body:
    """A JSON object giving every field `literal` as written (what json.dumps would not write)."""
    return Body(("{" + ",".join(f"{json.dumps(n)}: {literal}" for n in fields.names) + "}").encode(), JSON)


JSON_CASES: dict[str, Callable[[Fields], Body]] = {
    "no body": lambda f: Body(b"", JSON),
    "an empty object": lambda f: as_json({}),
    "an empty list": lambda f: as_json([]),
    "null": lambda f: as_json(None),
    "a string": lambda f: as_json("text"),
    "a number": lambda f: as_json(42),
    "deep array": lambda f: Body(DEEP.encode(), JSON),
    "deep object": lambda f: Body(DEEP_OBJECT.encode(), JSON),
    "deep in a field": lambda f: raw_json(f, "[" * 50 + "]" * 50),
    "over the size cap": lambda f: as_json({"text": "x" * 70_000}),
    "long strings under the cap": lambda f: json_every(f, "ж" * (20_000 // len(f.names))),
    "binary": lambda f: Body(JUNK, JSON),
    "not JSON": lambda f: Body(b"{not json", JSON),
    "NaN and Infinity": lambda f: raw_json(f, "NaN"),
    "integers too large": lambda f: json_every(f, 10**40),
    "a float over double's range": lambda f: raw_json(f, "1e400"),
    "strings for every field": lambda f: json_every(f, "abc"),
    "lists and objects for every field": lambda f: as_json({n: [{"a": [1]}] for n in f.names}),
    "true for every field": lambda f: json_every(f, True),
    "null for every field": lambda f: json_every(f, None),
    "negative numbers": lambda f: json_every(f, -1),
    "unknown fields only": lambda f: as_json(dict.fromkeys(UNKNOWN, 1)),
    "the fields and unknown ones": lambda f: as_json(
        {**dict.fromkeys(f.names, 1), **dict.fromkeys(UNKNOWN, 1)}
    ),
    "NUL and half a surrogate": lambda f: raw_json(f, '"a\\u0000\\ud800"'),
    "a form instead of JSON": lambda f: urlencoded(b"home_eyes=12&away_eyes=7"),
    "multipart instead of JSON": lambda f: form({"a": "1"}),
    "text/plain": lambda f: Body(b"{}", "text/plain"),
    "a byte-order mark": lambda f: Body(
        b"\xef\xbb\xbf" + json.dumps(dict.fromkeys(f.names, 1)).encode(), JSON
    ),
    "a charset that is not one": lambda f: Body(b"{}", "application/json; charset=x-no-such-charset"),
}


def cases_for(door: Door) -> dict[str, Callable[[Fields], Body]]:
    return JSON_CASES if door.api else FORM_CASES


def probe_body(door: Door) -> Body:
    """What tells whether a door reads bodies: any view that reads one reads this."""
    return Body(DEEP.encode(), JSON) if door.api else form({"text": DEEP})
