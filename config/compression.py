"""Pages and API answers sent gzip-compressed to clients that accept it, in front of everything.

A phone on a slow line pays for every byte: the player's match page is about 48 KB of HTML with its
stylesheets in it (``config.inline_css``) and about 12 KB compressed, three quarters of a second at
"Slow 3G"'s 50 KB/s (bench/web/slow3g.py). Django's ``GZipMiddleware`` cannot do it here: the
visitors' copies (``config.visitors``) keep Django's answer and rewrite its form token per visitor,
which they could not do in compressed bytes, and they answer before any middleware runs. So the
compression wraps the whole HTTP application, after the copies and Django, on the finished bytes.

What is compressed: an answer of known length (``Content-Length``, which ``CommonMiddleware`` sets
on every answer that is not streamed) of at least 200 bytes, of a textual type, not already
encoded, to a request whose ``Accept-Encoding`` names gzip. Streamed answers (the event stream, a
file) and WhiteNoise's static files (their own compressed copies) pass as they are. As Django's
``GZipMiddleware`` does, a random 0-100 bytes in the gzip header vary the length of equal pages
(the "Heal the BREACH" mitigation; Django also masks its form tokens anew on every answer), a strong
ETag becomes weak, and ``Vary: Accept-Encoding`` is added.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.text import compress_string

MIN_BYTES = 200
MAX_RANDOM_BYTES = 100
TEXTUAL = re.compile(rb"^(text/html|text/plain|text/css|text/csv|application/json|application/problem\+json"
                     rb"|application/javascript|text/javascript|application/manifest\+json"
                     rb"|application/vnd\.oai\.openapi(\+json)?|image/svg\+xml)\b", re.I)
ACCEPTS_GZIP = re.compile(rb"\bgzip\b(?!\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$))", re.I)


def accepts_gzip(scope: dict) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"accept-encoding" and ACCEPTS_GZIP.search(value):
            return True
    return False


class Compressing:
    """Wraps one HTTP request's ``send``: holds back the start of a compressible answer and its body
    until the body is whole, then sends both compressed (or as they were, when not smaller)."""

    def __init__(self, send) -> None:
        self._send = send
        self._start: dict[str, Any] | None = None
        self._body: list[bytes] = []
        self._passing = False

    async def __call__(self, message: dict) -> None:
        kind = message["type"]
        if self._passing or kind not in ("http.response.start", "http.response.body"):
            await self._send(message)
            return
        if kind == "http.response.start":
            if self._compressible(message["headers"]):
                self._start = message
            else:
                self._passing = True
                await self._send(message)
            return
        self._body.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        await self._finish()

    @staticmethod
    def _compressible(headers) -> bool:
        length = type_ok = False
        for name, value in headers:
            name = name.lower()
            if name == b"content-encoding":
                return False
            if name == b"content-length":
                length = value.isdigit() and int(value) >= MIN_BYTES
            elif name == b"content-type":
                type_ok = bool(TEXTUAL.match(value))
        return length and type_ok

    async def _finish(self) -> None:
        start = self._start
        if start is None:  # a body with no start: not an answer this wrapper held back
            return
        body = b"".join(self._body)
        compressed = compress_string(body, max_random_bytes=MAX_RANDOM_BYTES)
        smaller = len(compressed) < len(body)
        headers, vary = [], []
        for name, value in start["headers"]:
            lower = name.lower()
            if lower == b"vary":
                vary.append(value)
            elif not smaller:
                headers.append((name, value))
            elif lower == b"etag" and value.startswith(b'"'):
                headers.append((name, b"W/" + value))  # the body is no longer the same bytes
            elif lower != b"content-length":
                headers.append((name, value))
        varies = b", ".join(vary)
        if b"accept-encoding" not in varies.lower() and b"*" not in varies:
            varies = (varies + b", " if varies else b"") + b"Accept-Encoding"
        headers.append((b"vary", varies))
        if smaller:
            body = compressed
            headers += [(b"content-length", str(len(body)).encode()), (b"content-encoding", b"gzip")]
        await self._send({**start, "headers": headers})
        await self._send({"type": "http.response.body", "body": body})
